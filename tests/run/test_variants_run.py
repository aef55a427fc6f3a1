"""A run with temperatures and system prompts: its comparison JSON carries the per-base-model view."""

from __future__ import annotations

import json
import textwrap

import pytest

from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store

BLUEPRINT = textwrap.dedent(
    """
    title: Variants
    models: [openai:fake-a]
    temperatures: [0, 0.5]
    systems: [Be brief., null]
    ---
    - id: greet
      prompt: Say hello
      should:
        - $icontains: brief
    """
)


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def test_variants_are_merged_per_base_model_and_system_prompt(env, tmp_path):
    # the fake echoes the last user message; answer with the system prompt instead
    env.reply_with(lambda r: r.system or "no system")
    store = open_store()
    prepared = prepare_run(
        store, BLUEPRINT, source="bp.yml", options=RunOptions(judge=False, out_dir=tmp_path)
    )
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    data = json.loads(outcome.path.read_text())
    assert len(data["effectiveModels"]) == 4
    variants = data["blueprintStudio"]["variants"]["greet"]
    assert set(variants) == {"openai:fake-a[sp_idx:0]", "openai:fake-a[sp_idx:1]"}
    brief = variants["openai:fake-a[sp_idx:0]"]
    assert brief["avgCoverageExtent"] == 1 and brief["stdDev"] == 0 and brief["sampleCount"] == 2
    assert brief["pointAssessments"][0]["sampleCount"] == 2
    assert variants["openai:fake-a[sp_idx:1]"]["avgCoverageExtent"] == 0
    # Weval's own keys are untouched
    assert (
        "openai:fake-a[temp:0.5][sp_idx:1]"
        in data["evaluationResults"]["llmCoverageScores"]["greet"]
    )


def test_a_run_without_variants_writes_no_variants_block(env, tmp_path):
    store = open_store()
    text = BLUEPRINT.replace("temperatures: [0, 0.5]\n", "").replace(
        "systems: [Be brief., null]\n", ""
    )
    prepared = prepare_run(
        store, text, source="bp.yml", options=RunOptions(judge=False, out_dir=tmp_path)
    )
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    data = json.loads(outcome.path.read_text())
    assert "variants" not in data["blueprintStudio"]
