"""`blueprint compare`: each model's change paired over prompts, and `--significant`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.comparison.weval import Comparison
from engine.scoring import CellScore
from tests.compare.test_compare_cli import blueprint_cmd

BASE = [0.8, 0.6, 0.9, 0.7, 0.5, 0.8]
NOISY = [0.2, 0.9, 0.6, 0.9, 0.2, 0.9]  # a mean drop of 0.1, prompt changes all over the place
STEADY = [0.7, 0.48, 0.82, 0.6, 0.39, 0.71]  # a drop of about 0.1 on every prompt


def written(tmp_path: Path, name: str, scores: list[float]) -> Path:
    grid = {
        f"p{i}": {"m:a": CellScore(prompt_id=f"p{i}", model_id="m:a", score=s)}
        for i, s in enumerate(scores)
    }
    comp = Comparison(
        config_id="c",
        config_title="C",
        run_label=name,
        timestamp="2026-01-01T00-00-00-000Z",
        models=["m:a"],
        prompt_ids=list(grid),
        cells=grid,
    )
    return comp.write(tmp_path)


def models(done) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    return {m["model"]: m for m in json.loads(done.stdout)["models"]}


def test_json_models_carry_the_paired_interval_of_the_change(tmp_path: Path):
    base, cand = written(tmp_path, "base", BASE), written(tmp_path, "steady", STEADY)
    done = blueprint_cmd("compare", "--format", "json", base, cand)
    assert done.returncode == 0, done.stderr
    row = models(done)["m:a"]
    diffs = [c - b for b, c in zip(BASE, STEADY, strict=True)]
    mean = sum(diffs) / 6
    assert row["delta"] == pytest.approx(mean, abs=1e-6)
    assert row["prompts"] == 6
    assert row["low"] < mean < row["high"] < 0
    assert row["separable"] is True
    noisy = models(
        blueprint_cmd("compare", "--format", "json", base, written(tmp_path, "n", NOISY))
    )
    assert noisy["m:a"]["low"] < 0 < noisy["m:a"]["high"]
    assert noisy["m:a"]["separable"] is False


def test_significant_fails_only_on_a_drop_larger_than_chance(tmp_path: Path):
    base = written(tmp_path, "base", BASE)
    noisy, steady = written(tmp_path, "noisy", NOISY), written(tmp_path, "steady", STEADY)
    plain = blueprint_cmd("compare", base, noisy, "--fail-on-drop", "0.05")
    assert plain.returncode == 1
    lenient = blueprint_cmd("compare", base, noisy, "--fail-on-drop", "0.05", "--significant")
    assert lenient.returncode == 0, lenient.stderr
    assert "within chance" in lenient.stderr
    strict = blueprint_cmd("compare", base, steady, "--fail-on-drop", "0.05", "--significant")
    assert strict.returncode == 1
    assert "larger than chance" in strict.stderr
    small = blueprint_cmd("compare", base, steady, "--fail-on-drop", "0.2", "--significant")
    assert small.returncode == 0
    alone = blueprint_cmd("compare", base, steady, "--significant")
    assert alone.returncode == 2 and "--fail-on-drop" in alone.stderr


def test_text_output_says_whether_each_change_is_larger_than_chance(tmp_path: Path):
    base = written(tmp_path, "base", BASE)
    done = blueprint_cmd("compare", base, written(tmp_path, "noisy", NOISY))
    assert done.returncode == 0, done.stderr
    assert "95% interval (paired)" in done.stdout
    assert "within chance (6 prompts)" in done.stdout
