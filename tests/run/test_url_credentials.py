"""A password in a custom model's `url` is refused, and never stored or written (issue 32, item 8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.providers.custom import custom_endpoints, custom_models
from engine.run import RunOptions
from engine.run.prepared import record_run
from engine.run.service import prepare_run
from engine.settings import Settings
from engine.store import open_store
from tests.conftest import REPO
from tests.lint.helpers import lint_strict

PASSWORD = "s3cret-pw-77"
SCORE = [sys.executable, "-m", "engine", "score"]
BLUEPRINT = f"""\
title: Credentials
models:
  - id: mine
    url: http://alice:{PASSWORD}@127.0.0.1:9/v1/chat/completions
    modelName: m
    inherit: openai
---
- id: greet
  prompt: Say hello
  should: [{{$icontains: hello}}]
"""


def test_a_url_with_credentials_is_refused_before_any_call_and_by_lint() -> None:
    entry = {"id": "m", "url": f"http://alice:{PASSWORD}@127.0.0.1:9/v1", "modelName": "m"}
    models = custom_models([{**entry, "inherit": "openai"}])
    settings = Settings(model_allow=("127.0.0.1",))
    (reason,) = custom_endpoints(models, {}, settings).values()
    assert isinstance(reason, str) and "user name or password" in reason
    assert PASSWORD not in reason
    (found,) = [d for d in lint_strict(BLUEPRINT, settings=settings) if d.code == "custom-model"]
    assert (found.line, found.severity) == (4, "error") and PASSWORD not in found.message


def test_scored_comparison_json_holds_no_password(tmp_path: Path) -> None:
    source = tmp_path / "creds.yml"
    source.write_text(BLUEPRINT)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"prompt_id": "greet", "model": "mine", "response": "hello"}) + "\n")
    out = tmp_path / "out.json"
    done = subprocess.run(
        [*SCORE, str(source), "--responses", str(rows), "--out", str(out), "--no-judge"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    written = out.read_text()
    assert PASSWORD not in written
    (model,) = json.loads(written)["config"]["models"]
    assert model["url"] == "http://***@127.0.0.1:9/v1/chat/completions"


def test_the_stored_blueprint_of_a_run_holds_no_password() -> None:
    store = open_store()
    options = RunOptions(judge=False)
    prepared = prepare_run(store, BLUEPRINT, source="c.yml", options=options, record=False)
    run_id = record_run(store, BLUEPRINT, "c.yml", prepared.plan, options, prepared.estimate)
    run = store.get_run(run_id)
    assert run is not None
    text = store.blueprint_text(run.blueprint_hash)
    assert text is not None and PASSWORD not in text and "http://***@127.0.0.1:9" in text
