"""Corpus blueprints that name Weval's collections plan and run offline through the fake server."""

from __future__ import annotations

import json

import pytest

from engine.comparison import read_comparison
from engine.providers.collections import shipped_collections
from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store
from tests.conftest import CORPUS, NO_CORPUS_REASON

corpus = pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS_REASON)


def _text(name: str) -> str:
    assert CORPUS is not None
    return (CORPUS / "blueprints" / name).read_text(encoding="utf-8")


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


@corpus
def test_a_corpus_blueprint_with_three_collections_plans(env):
    prepared = prepare_run(
        open_store(),
        _text("hallucination-probe.yml"),  # models: [CORE, FRONTIER, OPENAI_GPT4O_SNAPSHOTS]
        source="hallucination-probe.yml",
        options=RunOptions(judge=False),
        record=False,
    )
    shipped = shipped_collections()
    assert prepared.problems == []
    assert prepared.plan.models == [*shipped["CORE"], *shipped["OPENAI_GPT4O_SNAPSHOTS"]]
    assert "The model collection FRONTIER is empty; it adds no models." in prepared.plan.warnings


@corpus
def test_a_corpus_blueprint_with_core_runs_end_to_end_offline(env, tmp_path):
    store = open_store()
    prepared = prepare_run(
        store,
        _text("lost-cause-narrative-probe.yml"),  # models: [CORE]
        source="lost-cause-narrative-probe.yml",
        options=RunOptions(judge=False, out_dir=tmp_path),
    )
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    core = shipped_collections()["CORE"]
    assert len(env.calls) == len(core) * len(prepared.plan.blueprint.prompts)
    assert {c.model for c in env.calls} == {m.partition(":")[2] for m in core}
    data = json.loads(outcome.path.read_text())
    generated = [m for m in data["effectiveModels"] if m != "IDEAL_BENCHMARK"]  # it has ideals
    assert generated == sorted(f"{m}[temp:0]" for m in core)
    assert read_comparison(outcome.path).models == data["effectiveModels"]
