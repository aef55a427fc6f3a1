"""`compare` refuses non-finite scores and oversized files as unusable input (issue 32, 5 and 8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.compare.load import MAX_FILE_BYTES
from tests.compare.test_compare_cli import BLUEPRINT, GOOD, blueprint_cmd, scored


def _spoiled(source: Path, target: Path, score: str) -> Path:
    data = json.loads(source.read_text())
    cells = data["evaluationResults"]["llmCoverageScores"]
    for row in cells.values():
        for cell in row.values():
            cell["avgCoverageExtent"] = "SCORE"
    target.write_text(json.dumps(data).replace('"SCORE"', score))
    return target


@pytest.mark.parametrize("score", ["NaN", "Infinity", "-Infinity", "1e999"])
@pytest.mark.parametrize("direction", ["base", "cand"])
def test_a_non_finite_score_is_unusable_input_in_either_direction(
    tmp_path: Path, score: str, direction: str
) -> None:
    good = scored(tmp_path, "good", BLUEPRINT, GOOD)
    bad = _spoiled(good, tmp_path / "bad.json", score)
    base, cand = (bad, good) if direction == "base" else (good, bad)
    done = blueprint_cmd("compare", "--fail-on-drop", "0.01", "--", base, cand)
    assert done.returncode == 2, done.stdout
    assert "not a finite number" in done.stderr and "bad.json" in done.stderr
    assert "nan" not in done.stdout.lower() and "Traceback" not in done.stderr


def test_an_oversized_comparison_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    good = scored(tmp_path, "good", BLUEPRINT, GOOD)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as out:  # sparse: no memory or disk is spent on it
        out.truncate(MAX_FILE_BYTES + 1)
    done = blueprint_cmd("compare", "--", good, huge)
    assert done.returncode == 2
    assert "more than the 67 MB" in done.stderr and "Traceback" not in done.stderr
