"""The executive summary grades models as Weval does: one graded model per canonical id, its
13 dimensions in Weval's order, and the report carrying the system prompts Weval's carries."""

from __future__ import annotations

import json
import textwrap

import pytest

from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store
from engine.summary import GRADING_DIMENSIONS
from engine.summary.canonical import canonical_model_id
from tests.fakes.scripted import answer_as

SUMMARIZER = "openai:summarizer"

# src/lib/grading-criteria.ts (weval-org/app 51dc4d3): GRADING_DIMENSIONS, in order
WEVAL_DIMENSIONS = [
    "adherence",
    "clarity",
    "tone",
    "depth",
    "coherence",
    "helpfulness",
    "credibility",
    "empathy",
    "creativity",
    "safety",
    "humility",
    "argumentation",
    "efficiency",
]

TWO_ROUTES = textwrap.dedent(
    """
    title: Two routes
    models:
      - openai:gpt-4.1-mini
      - openrouter:openai/gpt-4.1-mini
      - anthropic:claude-3-5-haiku-20241022
    systems: [Answer in one line., null]
    ---
    - id: greet
      prompt: Say hello
      should:
        - $icontains: hello
    """
)

ANSWER = """<key_finding>Model B was terse.</key_finding>
<grade model="Model A" dimension="efficiency">REASONING: short.
SCORE: 7/10</grade>
<grade model="Model B" dimension="humility">REASONING: careful.
SCORE: 6/10</grade>
<grade model="Model B" dimension="adherence">REASONING: did it.
SCORE: 9/10</grade>"""


@pytest.fixture
def run(fake_llm, monkeypatch, tmp_path):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    fake_llm.reply_with(answer_as("summarizer", ANSWER))
    store = open_store()
    options = RunOptions(judge=False, out_dir=tmp_path, summary_model=SUMMARIZER)
    prepared = prepare_run(store, TWO_ROUTES, source="bp.yml", options=options)
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed" and outcome.summary_error is None
    [call] = [c for c in fake_llm.calls if c.model == "summarizer"]
    return json.loads(outcome.path.read_text()), call


@pytest.mark.parametrize(
    ("model_id", "graded"),
    [
        # src/app/utils/modelIdUtils.ts parseModelIdForDisplay (weval-org/app 51dc4d3)
        ("openai:gpt-4.1-mini[temp:0][sp_idx:1]", "openai:gpt-4.1-mini"),
        ("openrouter:openai/gpt-4.1-mini[temp:0.7]", "openai:gpt-4.1-mini"),
        ("anthropic:claude-3-5-haiku-20241022", "anthropic:claude-3-5-haiku"),
        ("openrouter:anthropic/claude-sonnet-4-20250514", "anthropic:claude-sonnet-4"),
        ("openrouter:x-ai/grok-3-mini-beta", "xai:grok-3-mini"),
        ("together:meta-llama/Llama-3-8b-chat-hf", "meta:Llama-3-8b-chat-hf"),
        ("openrouter:google/gemini-2.5-flash-preview", "google:gemini-2.5-flash"),
        ("openrouter:mistralai/mixtral-8x7b", "mistralai:mixtral-8x7b"),
        ("openai:fake-a[temp:0][rep:2]", "openai:fake-a"),  # no maker word: kept as written
        ("my-model", "my-model"),
    ],
)
def test_models_are_graded_under_wevals_ids(model_id, graded):
    assert canonical_model_id(model_id) == graded


def test_two_routes_to_one_model_are_one_graded_model(run):
    data, call = run
    grades = {g["modelId"]: g["grades"] for g in data["executiveSummary"]["structured"]["grades"]}
    assert set(grades) == {"anthropic:claude-3-5-haiku", "openai:gpt-4.1-mini"}
    assert grades["openai:gpt-4.1-mini"]["adherence"] == 9
    assert grades["openai:gpt-4.1-mini"]["humility"] == 6
    assert grades["anthropic:claude-3-5-haiku"]["efficiency"] == 7
    # the summarizer is asked to grade two models, and both routes answer as Model B
    system = call.body["messages"][0]["content"]
    assert '<grade model="Model A"' in system and '<grade model="Model B"' in system
    assert "Model C" not in system
    report = call.last_user
    assert report.count("### Model B[temp:0][sp_idx:0]") == 2
    assert "gpt-4.1" not in json.dumps(call.body) and "haiku" not in json.dumps(call.body)


def test_grades_follow_wevals_dimension_order(run):
    assert list(GRADING_DIMENSIONS) == WEVAL_DIMENSIONS
    data, call = run
    for grade in data["executiveSummary"]["structured"]["grades"]:
        assert list(grade["grades"]) == WEVAL_DIMENSIONS
    keys = [line.split(":")[0][2:] for line in call.body["messages"][0]["content"].splitlines()]
    assert [k for k in keys if k in WEVAL_DIMENSIONS] == WEVAL_DIMENSIONS


def test_the_report_carries_the_permuted_system_prompts(run):
    # src/app/utils/markdownGenerator.ts buildMarkdownAnonymized: each of `systems` (its first
    # 500 characters, or "no system prompt"), by the reference its variants carry
    _, call = run
    assert "[sp_idx:0]: Answer in one line." in call.last_user
    assert "[sp_idx:1]: (no system prompt)" in call.last_user
