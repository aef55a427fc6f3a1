"""`blueprint score`: offline scoring of a responses file, bad lines, --explain, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import EXAMPLES


def score(*args):
    return subprocess.run(
        [sys.executable, "-m", "engine", "score", *map(str, args)],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
    )


def test_three_thousand_rows_with_bad_lines(tmp_path):
    responses = tmp_path / "r.jsonl"
    lines = []
    for i in range(3000):
        model = f"model-{i % 3}"
        answer = "The capital of France is Paris." if i % 2 else "London."
        lines.append(
            json.dumps({"prompt_id": "france", "model": f"{model}-{i}", "response": answer})
        )
    lines[10] = "{not json"
    lines[20] = json.dumps({"prompt_id": "nope", "model": "m", "response": "x"})
    lines[30] = json.dumps({"model": "m", "response": "x"})
    lines[40] = json.dumps({"prompt_id": "france", "response": "x"})
    responses.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.json"
    result = score(EXAMPLES / "functions.yml", "--responses", responses, "--out", out)
    assert result.returncode == 1  # some lines were skipped
    errors = result.stderr.splitlines()
    assert f"{responses}:11: not valid JSON" in result.stderr
    assert any(e.startswith(f"{responses}:21: unknown prompt id 'nope'") for e in errors)
    assert f"{responses}:31: missing `prompt_id`" in result.stderr
    assert f"{responses}:41: missing `model`" in result.stderr
    data = json.loads(out.read_text())
    cells = data["evaluationResults"]["llmCoverageScores"]["france"]
    assert len(cells) == 2996
    assert cells["model-1-1"]["avgCoverageExtent"] == 1
    # "London.": no paris (0), 1 word of at least 3 (1/3, graded), london present (0)
    assert cells["model-0-0"]["avgCoverageExtent"] == 0.11


def test_explain_prints_the_arithmetic_and_stdout_is_json(tmp_path):
    responses = tmp_path / "r.jsonl"
    responses.write_text(
        json.dumps({"prompt_id": "new-year", "model": "m", "response": "It is January 1."}) + "\n"
    )
    result = score(EXAMPLES / "or-paths.yml", "--responses", responses, "--explain")
    assert result.returncode == 0, result.stderr
    json.loads(result.stdout)
    assert "new-year × m: 1.00" in result.stderr
    assert "alternative paths: best is path_1 with 1.00" in result.stderr
    assert "1.000" not in result.stderr  # scores: 2 decimals everywhere (issue 31)
    assert "left out (unverified): Is polite and to the point." in result.stderr
    assert "note: 4 text point(s) were left unjudged" in result.stderr


def test_unusable_inputs_exit_2(tmp_path):
    assert score(tmp_path / "missing.yml", "--responses", tmp_path / "r.jsonl").returncode == 2
    bad = tmp_path / "bad.yml"
    bad.write_text("title: A: B\n")
    result = score(bad, "--responses", tmp_path / "r.jsonl")
    assert result.returncode == 2
    assert result.stderr.startswith(f"{bad}:1:9: ")
    result = score(EXAMPLES / "functions.yml", "--responses", tmp_path / "missing.jsonl")
    assert result.returncode == 2
    assert "cannot read the file" in result.stderr


def test_messages_tool_calls_and_durations_reach_the_typed_evaluators(tmp_path):
    bp = tmp_path / "bp.yml"
    bp.write_text(
        "- id: t\n  prompt: Look it up.\n  should:\n    - $required_tool: search\n"
        "    - $max_duration: 2s\n    - $forbidden_text: [password]\n"
    )
    responses = tmp_path / "r.jsonl"
    rows = [
        {
            "prompt_id": "t",
            "model": "good",
            "response": "Found it.",
            "duration_ms": 800,
            "tool_calls": [{"name": "search", "arguments": {"q": "x"}}],
        },
        {
            "prompt_id": "t",
            "model": "slow",
            "response": "The password is hunter2.",
            "duration_ms": [100, 5000],
        },
        {"prompt_id": "t", "model": "untimed", "response": "Found it.", "tool_calls": []},
    ]
    responses.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "o.json"
    assert score(bp, "--responses", responses, "--out", out).returncode == 0
    cells = json.loads(out.read_text())["evaluationResults"]["llmCoverageScores"]["t"]

    def statuses(model):
        return [(a["status"], a["coverageExtent"]) for a in cells[model]["pointAssessments"]]

    assert statuses("good") == [("scored", 1), ("scored", 1), ("scored", 1)]
    # no tool call in the text or recorded: the required tool was not called (a fail, not missing evidence)
    assert statuses("slow") == [("scored", 0), ("scored", 0), ("scored", 0)]
    assert statuses("untimed") == [("scored", 0), ("unverified", None), ("scored", 1)]
    assert "hunter2" not in out.read_text().split('"allFinalAssistantResponses"')[0]
