"""`blueprint compare BASE CAND`: the CLI contract, on comparisons made by `score` and `run`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.compare import pair_models

BLUEPRINT = """\
title: Capitals
models: [openai:gpt-4.1-mini]
---
- id: france
  prompt: What is the capital of France?
  ideal: The capital of France is Paris.
  should:
    - $icontains: paris
    - $word_count_between: [3, 20]
    - $not_icontains: london
- id: spain
  prompt: What is the capital of Spain?
  ideal: Madrid is the capital of Spain.
  should:
    - $icontains: madrid
    - $icontains: spain
"""


def blueprint_cmd(*args: Any, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def responses(path: Path, answers: dict[tuple[str, str], str]) -> Path:
    lines = [
        json.dumps({"prompt_id": pid, "model": model, "response": text})
        for (pid, model), text in answers.items()
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def scored(tmp_path: Path, name: str, blueprint: str, answers: dict[tuple[str, str], str]) -> Path:
    bp = tmp_path / f"{name}.yml"
    bp.write_text(blueprint, encoding="utf-8")
    rows = responses(tmp_path / f"{name}.jsonl", answers)
    out = tmp_path / f"{name}.json"
    done = blueprint_cmd("score", bp, "--responses", rows, "--out", out, "--no-judge")
    assert done.returncode == 0, done.stderr
    return out


GOOD = {
    ("france", "m:a"): "The capital of France is Paris.",
    ("spain", "m:a"): "Madrid is the capital of Spain.",
    ("france", "m:b"): "Paris.",
    ("spain", "m:b"): "It is Madrid, in Spain.",
}


def compare_json(base: Path | str, cand: Path | str) -> dict[str, Any]:
    # options first, then `--`: run ids may start with `-`
    done = blueprint_cmd("compare", "--format", "json", "--", base, cand)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def averages(path: Path) -> dict[str, float]:
    data = json.loads(path.read_text())
    return {m: s["average"] for m, s in data["evaluationResults"]["perModelHybridScores"].items()}


def test_json_output_has_the_contract_shape_and_the_runs_numbers(tmp_path: Path):
    base = scored(tmp_path, "base", BLUEPRINT, GOOD)
    worse = dict(GOOD)
    worse[("france", "m:a")] = "London, I think, not sure."
    cand = scored(tmp_path, "cand", BLUEPRINT, worse)
    out = compare_json(base, cand)
    assert set(out) == {"baseline", "candidate", "models", "prompts", "points"}
    assert set(out["baseline"]) == {"id", "label", "timestamp"}
    assert out["baseline"]["label"] == "Capitals"
    old, new = averages(base), averages(cand)
    by_model = {m["model"]: m for m in out["models"]}
    assert set(by_model) == {"m:a", "m:b"}
    for model, row in by_model.items():
        assert row["baseline"] == pytest.approx(old[model])
        assert row["candidate"] == pytest.approx(new[model])
        assert row["delta"] == pytest.approx(new[model] - old[model], abs=1e-6)
    assert by_model["m:a"]["delta"] < 0
    assert by_model["m:b"]["delta"] == 0
    prompt = {(p["prompt_id"], p["model"]): p for p in out["prompts"]}
    assert prompt[("france", "m:a")]["baseline"] == 1
    assert prompt[("france", "m:a")]["delta"] < 0
    assert prompt[("spain", "m:a")]["delta"] == 0
    changes = {(p["prompt_id"], p["model"], p["point"]): p for p in out["points"]}
    london = changes[("france", "m:a", next(k[2] for k in changes if "london" in k[2]))]
    assert london["change"] == "changed"
    assert (london["baseline"], london["candidate"], london["delta"]) == (1, 0, -1)
    assert all(p["change"] == "same" for p in out["points"] if p["model"] == "m:b")


def test_an_edited_point_is_removed_and_added_and_the_others_stay_the_same(tmp_path: Path):
    base = scored(tmp_path, "v1", BLUEPRINT, GOOD)
    edited = BLUEPRINT.replace("$icontains: spain", "$icontains: españa")
    cand = scored(tmp_path, "v2", edited, GOOD)
    out = compare_json(base, cand)
    kinds: dict[str, list[str]] = {}
    for p in out["points"]:
        kinds.setdefault(p["change"], []).append(p["point"])
    assert sorted(kinds) == ["added", "removed", "same"]
    assert len(kinds["removed"]) == len(kinds["added"]) == 2  # one per model
    assert all("spain" in t for t in kinds["removed"])
    assert all("españa" in t for t in kinds["added"])
    assert len(kinds["same"]) == 8
    removed = next(p for p in out["points"] if p["change"] == "removed")
    assert removed["candidate"] is None and removed["delta"] is None


def test_fail_on_drop_exits_1_only_past_the_threshold(tmp_path: Path):
    base = scored(tmp_path, "base", BLUEPRINT, GOOD)
    worse = {k: ("I do not know." if k[1] == "m:a" else v) for k, v in GOOD.items()}
    cand = scored(tmp_path, "cand", BLUEPRINT, worse)
    drop = -next(m["delta"] for m in compare_json(base, cand)["models"] if m["model"] == "m:a")
    assert drop > 0.3
    strict = blueprint_cmd("compare", base, cand, "--fail-on-drop", "0.1")
    assert strict.returncode == 1
    assert "fell by" in strict.stderr
    lenient = blueprint_cmd("compare", base, cand, "--fail-on-drop", str(drop + 0.01))
    assert lenient.returncode == 0, lenient.stderr
    improved = blueprint_cmd("compare", cand, base, "--fail-on-drop", "0")
    assert improved.returncode == 0


def test_text_output_names_the_models_and_what_got_worse(tmp_path: Path):
    base = scored(tmp_path, "base", BLUEPRINT, GOOD)
    worse = dict(GOOD)
    worse[("spain", "m:b")] = "Barcelona."
    cand = scored(tmp_path, "cand", BLUEPRINT, worse)
    done = blueprint_cmd("compare", base, cand)
    assert done.returncode == 0, done.stderr
    assert "m:a" in done.stdout and "m:b" in done.stdout
    assert "prompts whose score changed: 1 (1 worse)" in done.stdout
    assert "spain" in done.stdout
    assert "-0.50" in done.stdout or "-1.00" in done.stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "no such file"),
        ("{not json", "not valid JSON"),
        ('{"a": 1}', "llmCoverageScores is missing"),
        ("[1, 2]", "not an object"),
        ('{"evaluationResults": {"llmCoverageScores": {"p": 3}}}', "is not an object"),
    ],
)
def test_unusable_input_exits_2_with_a_plain_message(
    tmp_path: Path, content: str | None, expected: str
):
    good = scored(tmp_path, "base", BLUEPRINT, GOOD)
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    done = blueprint_cmd("compare", good, bad)
    assert done.returncode == 2
    assert expected in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_stored_runs_are_compared_by_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    home = tmp_path / "home"
    monkeypatch.setenv("BLUEPRINT_HOME", str(home))
    ids = []
    for name, text in (
        ("v1", BLUEPRINT),
        ("v2", BLUEPRINT.replace("$icontains: spain", "$icontains: españa")),
    ):
        bp = tmp_path / f"{name}.yml"
        bp.write_text(text, encoding="utf-8")
        done = blueprint_cmd("run", bp, "--models", "ideal", "--no-judge", "--out", tmp_path / name)
        assert done.returncode == 0, done.stderr
        ids.append(done.stdout.split()[1])
    out = compare_json(*ids)
    assert out["baseline"]["id"] == ids[0] and out["candidate"]["id"] == ids[1]
    assert [m["model"] for m in out["models"]] == ["ideal[temp:0]"]
    assert out["models"][0]["delta"] == pytest.approx(-0.5 / 2, abs=1e-6)  # spain: 1 -> 0.5
    assert sorted(p["change"] for p in out["points"] if p["change"] != "same") == [
        "added",
        "removed",
    ]
    # a run id against a comparison file of the same run gives no change at all
    (written,) = (tmp_path / "v1").glob("*_comparison.json")
    same = compare_json(ids[0], written)
    assert {p["change"] for p in same["points"]} == {"same"}
    missing = blueprint_cmd("compare", ids[0], "no-such-run")
    assert missing.returncode == 2
    assert "no run with this id" in missing.stderr
    # a stored run has one time, the one its comparison file was written with (when it ended),
    # however often and whenever it is read
    itself = compare_json(ids[0], ids[0])
    file_time = written.name.split("_")[1]
    assert itself["baseline"]["timestamp"] == itself["candidate"]["timestamp"]
    assert abs(_ms(itself["baseline"]["timestamp"]) - _ms(file_time)) < 2000


def _ms(stamp: str) -> float:
    """Weval's file-safe timestamp (`2026-12-02T15-34-24-825Z`) in milliseconds."""
    from datetime import UTC, datetime

    moment = datetime.strptime(stamp, "%Y-%m-%dT%H-%M-%S-%fZ").replace(tzinfo=UTC)
    return moment.timestamp() * 1000


def test_models_pair_by_id_then_by_base_id_when_temperatures_differ():
    pairs = pair_models(
        ["a", "b[temp:0.2]", "c[temp:0.1]", "c[temp:0.9]", "gone"],
        ["a", "b[temp:0.7]", "c[temp:0.5]", "new"],
    )
    as_tuples = {(p.baseline, p.candidate) for p in pairs}
    assert ("a", "a") in as_tuples
    assert ("b[temp:0.2]", "b[temp:0.7]") in as_tuples
    # ambiguous: two baseline temperatures for one candidate: nothing is guessed
    assert ("c[temp:0.1]", None) in as_tuples and ("c[temp:0.9]", None) in as_tuples
    assert (None, "c[temp:0.5]") in as_tuples
    assert ("gone", None) in as_tuples and (None, "new") in as_tuples


def test_the_ideal_column_name_is_the_one_the_report_writes():
    from engine.compare.view import IDEAL_MODEL_ID as compare_ideal
    from engine.comparison.weval import IDEAL_MODEL_ID

    assert compare_ideal == IDEAL_MODEL_ID
