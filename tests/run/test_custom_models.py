"""Custom model objects run end to end against the fake server: formats, headers, guard, secrets."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store

SECRET = "team-token-4f9c2e"


def blueprint(url: str, header: str = "Bearer ${TEAM_TOKEN}") -> str:
    return f"""
title: Custom models
models:
  - id: local-chat
    url: {url}/v1/chat/completions
    modelName: tiny-chat
    inherit: openai
    headers:
      X-Team-Token: "{header}"
  - id: local-base
    url: {url}/v1/completions
    modelName: tiny-base
    inherit: openai
    format: completions
---
- id: greet
  system: Be brief.
  prompt: Say hello
  should:
    - $icontains: hello
"""


@pytest.fixture
def allowed(fake_llm, monkeypatch):
    monkeypatch.setenv("BLUEPRINT_MODEL_ALLOW", "127.0.0.1")
    monkeypatch.setenv("BLUEPRINT_CALL_ENV", "TEAM_TOKEN")
    monkeypatch.setenv("TEAM_TOKEN", SECRET)
    return fake_llm


def _run(text: str, tmp_path: Path):
    store = open_store()
    options = RunOptions(out_dir=tmp_path, judge=False)
    prepared = prepare_run(store, text, source="custom.yml", options=options)
    assert prepared.problems == []
    return run_sync(prepared.run_id, prepared.plan, store, prepared.options)


def test_custom_models_run_in_chat_and_completions_formats(allowed, tmp_path):
    outcome = _run(blueprint(allowed.url), tmp_path)
    assert outcome.status == "completed"
    (chat,) = [c for c in allowed.calls if c.protocol == "openai"]
    (base,) = [c for c in allowed.calls if c.protocol == "completions"]
    assert (chat.path, chat.model) == ("/v1/chat/completions", "tiny-chat")
    assert chat.headers["x-team-token"] == f"Bearer {SECRET}"
    assert chat.messages == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Say hello"},
    ]
    assert (base.path, base.model) == ("/v1/completions", "tiny-base")
    assert base.body["prompt"] == "Be brief.\n\nUser: Say hello\nAssistant:"
    data = json.loads(outcome.path.read_text())
    assert data["effectiveModels"] == ["local-base[temp:0]", "local-chat[temp:0]"]
    scores = data["evaluationResults"]["llmCoverageScores"]["greet"]
    assert scores["local-chat[temp:0]"]["avgCoverageExtent"] == 1
    answer = data["allFinalAssistantResponses"]["greet"]["local-base[temp:0]"]
    assert answer.startswith("[tiny-base] ") and answer.endswith("Assistant:")


def test_header_values_never_reach_output_store_or_logs(allowed, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    allowed.reply_with(lambda r: f"hello, your header was {r.headers.get('x-team-token')}")
    outcome = _run(blueprint(allowed.url), tmp_path)
    assert outcome.status == "completed"
    data = outcome.path.read_text()
    assert "your header was Bearer ***" in data
    assert SECRET not in data and SECRET not in caplog.text
    home = Path(os.environ["BLUEPRINT_HOME"])
    for path in home.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


@pytest.mark.parametrize("defined", [True, False])
def test_a_variable_not_allowed_is_the_same_error_whether_it_exists_or_not(
    fake_llm, monkeypatch, defined
):
    monkeypatch.setenv("BLUEPRINT_MODEL_ALLOW", "127.0.0.1")
    if defined:
        monkeypatch.setenv("TEAM_TOKEN", SECRET)
    prepared = prepare_run(
        open_store(), blueprint(fake_llm.url), source="c.yml", options=RunOptions(judge=False)
    )
    (problem,) = prepared.problems
    assert problem.startswith(
        "Custom model 'local-chat': header 'X-Team-Token': Environment variable TEAM_TOKEN is "
        "not allowed."
    )
    assert "BLUEPRINT_CALL_ENV" in problem and SECRET not in problem
    assert prepared.run_id is None and fake_llm.calls == []


def test_an_allowed_variable_that_is_not_set_says_so(fake_llm, monkeypatch):
    monkeypatch.setenv("BLUEPRINT_MODEL_ALLOW", "127.0.0.1")
    monkeypatch.setenv("BLUEPRINT_CALL_ENV", "TEAM_TOKEN")
    prepared = prepare_run(
        open_store(), blueprint(fake_llm.url), source="c.yml", options=RunOptions(judge=False)
    )
    assert [p for p in prepared.problems if "TEAM_TOKEN is not defined" in p]


def test_a_local_address_needs_the_model_allow_list(fake_llm, monkeypatch):
    monkeypatch.setenv("BLUEPRINT_CALL_ENV", "TEAM_TOKEN")
    monkeypatch.setenv("TEAM_TOKEN", SECRET)
    monkeypatch.setenv("BLUEPRINT_CALL_ALLOW", "127.0.0.1")  # $call's list does not count
    prepared = prepare_run(
        open_store(), blueprint(fake_llm.url), source="c.yml", options=RunOptions(judge=False)
    )
    assert len(prepared.problems) == 2
    assert all("not in the custom model allow-list" in p for p in prepared.problems)
    assert all("BLUEPRINT_MODEL_ALLOW" in p for p in prepared.problems)
    monkeypatch.setenv("BLUEPRINT_MODEL_ALLOW", "*")  # a wildcard never opens private addresses
    prepared = prepare_run(
        open_store(), blueprint(fake_llm.url), source="c.yml", options=RunOptions(judge=False)
    )
    assert prepared.problems and all("loopback address" in p for p in prepared.problems)


def test_the_cache_tells_custom_models_apart_by_address_and_name(allowed, tmp_path):
    _run(blueprint(allowed.url), tmp_path)
    assert len(allowed.calls) == 2
    _run(blueprint(allowed.url), tmp_path)
    assert len(allowed.calls) == 2  # all cached
    moved = blueprint(allowed.url).replace("modelName: tiny-chat", "modelName: tiny-chat-2")
    _run(moved, tmp_path)
    assert [c.model for c in allowed.calls[2:]] == ["tiny-chat-2"]


def test_a_custom_model_can_be_chosen_by_its_id_with_models(allowed, tmp_path):
    store = open_store()
    options = RunOptions(out_dir=tmp_path, judge=False, models=["local-base"])
    prepared = prepare_run(store, blueprint(allowed.url), source="c.yml", options=options)
    assert prepared.problems == [] and prepared.plan.models == ["local-base"]
