"""An empty response is one whose JavaScript `trim()` is empty (U+001C-U+001F and U+0085 stay)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.js.engine import run_fresh
from engine.js.strings import is_js_blank, js_trim
from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store

ROOT = Path(__file__).resolve().parents[2]

_TRIMMED = r"""(function () {
  const out = [];
  for (let c = 0; c < 0x10000; c++) {
    if (String.fromCharCode(c).trim() === "") out.push(c);
  }
  return JSON.stringify(out);
})"""

BLUEPRINT = """\
title: Blank answers
---
- id: p1
  prompt: Answer.
  ideal: "{ideal}"
  should:
    - $js: "r.length > 0"
"""

# not blank in JavaScript, blank for Python's str.strip()
KEPT = ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", " \x85 "]
BLANK = [" \t\u2028\u2029\ufeff\xa0\u3000\n"]


def test_js_trim_removes_exactly_what_javascript_trim_removes() -> None:
    removed = set(run_fresh(_TRIMMED, None, time_limit_s=5.0))
    ours = {c for c in range(0x10000) if c < 0xD800 or c > 0xDFFF if is_js_blank(chr(c))}
    assert ours == removed - set(range(0xD800, 0xE000))
    assert js_trim("\x85 a \x1f") == "\x85 a \x1f"


def test_score_treats_only_javascript_blank_responses_as_empty(tmp_path: Path) -> None:
    blueprint = tmp_path / "bp.yml"
    blueprint.write_text(BLUEPRINT.format(ideal="x"), encoding="utf-8")
    responses = tmp_path / "rows.jsonl"
    texts = KEPT + BLANK
    rows = [{"prompt_id": "p1", "model": f"m{i}", "response": t} for i, t in enumerate(texts)]
    responses.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score", str(blueprint), "--responses", str(responses)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    scores = json.loads(done.stdout)["evaluationResults"]["llmCoverageScores"]["p1"]
    for i, _ in enumerate(KEPT):
        assert scores[f"m{i}"].get("avgCoverageExtent") == 1.0, scores[f"m{i}"]
    assert "error" in scores[f"m{len(KEPT)}"]


def test_run_treats_only_javascript_blank_answers_as_empty(tmp_path: Path) -> None:
    for ideal, failed in (("\\x1c", False), ("\\x85", False), (" \\u2028\\t", True)):
        store = open_store()
        prepared = prepare_run(
            store,
            BLUEPRINT.format(ideal=ideal),
            source="bp.yml",
            options=RunOptions(out_dir=tmp_path, models=["ideal"], judge=False),
        )
        assert prepared.problems == []
        outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
        assert (outcome.progress.failed_cells == 1) is failed, ideal
