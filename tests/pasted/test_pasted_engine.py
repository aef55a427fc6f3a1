"""A chat app's pasted answers as a run (`engine.run.pasted`): scored like any run, judged by
the fake judge, stored, resumable; a prompt left unanswered is not a failure."""

from __future__ import annotations

import json
import textwrap
from typing import Any

import pytest

from engine.blueprint import parse_blueprint
from engine.errors import ConfigError
from engine.modelids import app_model_id
from engine.run import RunOptions, stored_comparison
from engine.run.pasted import answer_turns, prepare_pasted
from engine.run.rescore import prepare_rescore
from engine.run.service import prepare_resume, prepare_run, run_sync
from engine.store import Store, open_store
from tests.fakes.llm_replies import FakeRequest, judge_reply
from tests.fakes.llm_server import FakeLLM

BLUEPRINT = textwrap.dedent(
    """\
    title: Capitals, asked in an app
    system: You are terse.
    evaluationConfig:
      llm-coverage:
        judges:
          - model: openai:judge-a
    ---
    - id: france
      prompt: What is the capital of France?
      should:
        - $icontains: paris
        - Names Paris as the capital.
    - id: spain
      prompt: What is the capital of Spain?
      should:
        - $icontains: madrid
    - id: trip
      messages:
        - user: I am planning a trip to Italy.
        - assistant: null
        - user: Which city is its capital?
      should:
        - $icontains: rome
    """
)


@pytest.fixture
def env(fake_llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> FakeLLM:
    """The fake judge: the point is met when the answer names Paris."""
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)

    def reply(request: FakeRequest):
        return judge_reply(
            request,
            lambda criterion, text: "CLASS_EXACT" if "paris" in text.lower() else "CLASS_UNMET",
        )

    fake_llm.reply_with(reply)
    return fake_llm


def scored(store: Store, answers: dict[str, Any], model: str = "chatgpt-web") -> str:
    prepared = prepare_pasted(store, BLUEPRINT, model, answers, source="capitals.yml")
    assert prepared.problems == [] and prepared.run_id is not None
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    return prepared.run_id


def coverage(store: Store, run_id: str) -> dict[str, Any]:
    run = store.get_run(run_id)
    assert run is not None
    text = store.blueprint_text(run.blueprint_hash)
    assert text is not None
    data = stored_comparison(store, run_id, parse_blueprint(text)).to_weval()
    return data["evaluationResults"]["llmCoverageScores"]


def test_app_names_are_checked_and_never_a_provider():
    assert app_model_id("chatgpt-web") == "app:chatgpt-web"
    assert app_model_id("app:claude.ai") == "app:claude.ai"
    for bad in ("", "app:", "openai:gpt-4.1", "chat gpt", "-x", "a" * 65, "app:x/y"):
        with pytest.raises(ValueError, match="app:chatgpt-web"):
            app_model_id(bad)


def test_each_prompt_needs_one_answer_per_turn_the_model_writes():
    assert answer_turns(parse_blueprint(BLUEPRINT)) == {"france": 1, "spain": 1, "trip": 2}


def test_pasted_answers_are_scored_and_judged_and_the_unanswered_prompt_has_no_cell(env):
    store = open_store()
    run_id = scored(
        store,
        {
            "france": "Paris is the capital of France.",
            "trip": ["Lovely! Where in Italy?", "Rome is the capital."],
        },
    )
    run = store.get_run(run_id)
    assert run is not None and run.options["models"] == ["app:chatgpt-web"]
    rows = {c.prompt_id: c for c in store.cells(run_id)}
    assert set(rows) == {"france", "trip"}  # spain: not answered, no cell, no failure
    assert all(not c.failed for c in rows.values())
    cells = coverage(store, run_id)
    [france_model] = cells["france"]
    assert france_model.startswith("app:chatgpt-web")
    assert cells["france"][france_model]["avgCoverageExtent"] == 1.0
    assert "spain" not in cells or cells["spain"] == {}
    assert cells["trip"][france_model]["avgCoverageExtent"] == 1.0
    # the conversation the app had, its two answers in their places, no system prompt
    history = rows["trip"].history
    assert [m["role"] for m in history] == ["user", "assistant", "user", "assistant"]
    assert history[1]["content"] == "Lovely! Where in Italy?"
    # the judge read the pasted answer (no generation call was made)
    assert all(c.kind != "generate" for c in store.run_calls(run_id).values())
    assert any("Paris is the capital" in json.dumps(r.body) for r in env.calls)


def test_a_wrong_answer_scores_low_and_is_not_a_failure(env):
    store = open_store()
    run_id = scored(store, {"france": "Lyon, I think.", "spain": "Madrid."})
    cells = coverage(store, run_id)
    [model] = cells["france"]
    assert cells["france"][model]["avgCoverageExtent"] == 0.0
    assert cells["spain"][model]["avgCoverageExtent"] == 1.0
    assert "error" not in cells["france"][model]


@pytest.mark.parametrize(
    ("answers", "says"),
    [
        ({}, "No prompt has an answer"),
        ({"france": "  ", "spain": ""}, "No prompt has an answer"),
        ({"trip": ["Where in Italy?", ""]}, "needs the app's answer to each of its 2 turn(s)"),
        ({"nowhere": "Paris"}, "no prompt 'nowhere'"),
    ],
)
def test_unusable_answers_are_problems_and_nothing_is_recorded(env, answers, says):
    store = open_store()
    prepared = prepare_pasted(store, BLUEPRINT, "app:x", answers)
    assert prepared.run_id is None
    assert any(says in p for p in prepared.problems), prepared.problems
    assert store.list_runs() == []


def test_a_bad_name_is_refused():
    with pytest.raises(ConfigError, match="app:chatgpt-web"):
        prepare_pasted(open_store(), BLUEPRINT, "openai:gpt-4.1", {"france": "Paris"})


def test_an_interrupted_pasted_run_resumes_from_its_own_options(env):
    store = open_store()
    prepared = prepare_pasted(store, BLUEPRINT, "app:chatgpt-web", {"france": "Paris."})
    assert prepared.run_id is not None  # recorded, never started
    resumed = prepare_resume(store, prepared.run_id)
    assert resumed.problems == []
    assert [c.key for c in resumed.plan.cells] == [c.key for c in prepared.plan.cells]
    assert run_sync(prepared.run_id, resumed.plan, store, resumed.options).status == "completed"
    [cell] = store.cells(prepared.run_id)
    assert cell.prompt_id == "france" and cell.score == 1.0


def test_an_app_model_in_an_ordinary_run_is_refused_in_plain_words(env):
    prepared = prepare_run(
        open_store(),
        BLUEPRINT,
        source="capitals.yml",
        options=RunOptions(models=["app:chatgpt-web"]),
        record=False,
    )
    assert any("stands for a chat app's pasted answers" in p for p in prepared.problems)


def test_a_pasted_run_can_be_rescored_with_an_edited_blueprint(env):
    store = open_store()
    run_id = scored(store, {"france": "Paris is the capital.", "spain": "Madrid."})
    edited = BLUEPRINT.replace("$icontains: madrid", "$icontains: barcelona")
    prepared = prepare_rescore(store, run_id, edited)
    assert prepared.problems == [] and prepared.run_id is not None
    assert list(prepared.unanswered) == ["trip"]  # still not answered, never generated
    assert run_sync(prepared.run_id, prepared.plan, store, prepared.options).status == "completed"
    scores = {c.prompt_id: c.score for c in store.cells(prepared.run_id)}
    assert scores == {"france": 1.0, "spain": 0.0}
