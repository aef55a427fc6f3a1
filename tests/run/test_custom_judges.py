"""A custom model object of the blueprint judges when `--judges` (or its judges) name its id."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.run import RunOptions
from engine.run.rescore import prepare_rescore
from engine.run.service import prepare_run, run_sync
from engine.store import open_store

BLUEPRINT = """
title: Custom judge
models:
  - id: team-judge
    url: {url}/v1/chat/completions
    modelName: {name}
    inherit: openai
---
- id: greet
  prompt: Say hello
  should:
    - It greets the user.
    - $icontains: hello
"""


@pytest.fixture
def allowed(fake_llm, monkeypatch):
    monkeypatch.setenv("BLUEPRINT_MODEL_ALLOW", "127.0.0.1")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", f"{fake_llm.url}/v1")
    return fake_llm


def _run(text: str, tmp_path: Path):
    store = open_store()
    options = RunOptions(out_dir=tmp_path, judges=["team-judge"], models=["openai:fake-a"])
    prepared = prepare_run(store, text, source="judge.yml", options=options)
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed", outcome.error
    return prepared.run_id


def _judge_calls(fake) -> list[str]:
    return [c.model for c in fake.calls if c.model != "fake-a"]


def test_the_custom_model_judges_at_its_own_address(allowed, tmp_path):
    run_id = _run(BLUEPRINT.format(url=allowed.url, name="tiny-judge"), tmp_path)
    assert _judge_calls(allowed) == ["tiny-judge"]  # posted to its url, as its modelName
    (judgment,) = open_store().judgments(run_id, "greet", "openai:fake-a[temp:0]")
    assert judgment.judge_model == "team-judge" and judgment.score is not None


def test_its_judgments_are_cached_until_the_custom_model_changes(allowed, tmp_path):
    text = BLUEPRINT.format(url=allowed.url, name="tiny-judge")
    _run(text, tmp_path)
    _run(text, tmp_path)
    assert _judge_calls(allowed) == ["tiny-judge"]  # the second run judged from the cache
    _run(BLUEPRINT.format(url=allowed.url, name="other-judge"), tmp_path)
    # another model behind the same id: judged anew (its answer was generated from the cache)
    assert _judge_calls(allowed) == ["tiny-judge", "other-judge"]


def test_a_rescore_can_be_judged_by_a_custom_model(allowed, tmp_path):
    text = BLUEPRINT.format(url=allowed.url, name="tiny-judge")
    store = open_store()
    options = RunOptions(out_dir=tmp_path, models=["openai:fake-a"], judge=False)
    first = prepare_run(store, text, source="judge.yml", options=options)
    run_sync(first.run_id, first.plan, store, first.options)
    assert _judge_calls(allowed) == []
    again = prepare_rescore(store, first.run_id, judges=["team-judge"], judge=True)
    assert again.problems == []
    outcome = run_sync(again.run_id, again.plan, store, again.options)
    assert outcome.status == "completed", outcome.error
    assert _judge_calls(allowed) == ["tiny-judge"]


def test_an_id_that_is_no_custom_model_still_needs_a_provider(allowed, tmp_path):
    store = open_store()
    text = BLUEPRINT.format(url=allowed.url, name="tiny-judge")
    options = RunOptions(out_dir=tmp_path, judges=["team-judgee"], models=["openai:fake-a"])
    prepared = prepare_run(store, text, source="judge.yml", options=options)
    assert any("team-judgee" in p and "provider" in p for p in prepared.problems)
