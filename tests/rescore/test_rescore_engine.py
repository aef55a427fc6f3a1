"""Re-scoring through the engine's API: tool calls, failed cells, re-scores of re-scores."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from engine.run import RunOptions
from engine.run.rescore import prepare_rescore
from engine.run.service import prepare_run, run_sync
from engine.store import Store, open_store
from tests.fakes.llm_server import FakeLLM

TOOLS = textwrap.dedent(
    """\
    title: Tools
    models: [openai:fake-a]
    tools:
      - name: lookup
        description: Look a word up.
    ---
    - id: ask
      prompt: Look up the word apple.
      should:
        - $tool_called: lookup
        - $tool_call_count_between: [1, 1]
    """
)

TWO_MODELS = textwrap.dedent(
    """\
    title: Two models
    models: [openai:fake-a, openai:broken]
    evaluationConfig:
      llm-coverage:
        judges:
          - model: openai:judge-a
    ---
    - id: greet
      prompt: Say hello
      should:
        - Hello is said.
        - $icontains: hello
    """
)


@pytest.fixture
def env(fake_llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> FakeLLM:
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def run(store: Store, text: str) -> str:
    prepared = prepare_run(store, text, source="bp.yml", options=RunOptions())
    assert prepared.problems == [] and prepared.run_id is not None
    run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    return prepared.run_id


def rescore(store: Store, run_id: str, text: str | None = None) -> str:
    prepared = prepare_rescore(store, run_id, text)
    assert prepared.problems == [] and prepared.run_id is not None
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    return prepared.run_id


def results(store: Store, run_id: str) -> dict[tuple[str, str], Any]:
    return {c.key: (c.status, c.score, c.result_data) for c in store.cells(run_id)}


def test_native_tool_calls_are_scored_as_the_run_had_them(env):
    env.reply_with_tool_call("lookup", {"word": "apple"})
    store = open_store()
    first = run(store, TOOLS)
    (cell,) = store.cells(first)
    assert cell.score == 1.0  # the native call was seen
    env.reset()
    again = rescore(store, first)
    assert env.calls == []
    assert results(store, again) == results(store, first)


def test_a_cell_the_run_could_not_answer_stays_failed_and_is_not_generated(env):
    env.fail_when(lambda request: request.model == "broken", "400")
    store = open_store()
    first = run(store, TWO_MODELS)
    env.reset()
    edited = TWO_MODELS.replace("Hello is said.", "A greeting is given.")
    again = rescore(store, first, edited)
    assert [c.model for c in env.calls] == ["judge-a"]  # the edited point, for the one answer
    cells = {c.model_id: c for c in store.cells(again)}
    broken = cells["openai:broken[temp:0]"]
    assert broken.failed and broken.error is not None
    assert broken.error.startswith("Generation failed: openai:broken: ")
    assert broken.error.endswith(f"(not answered in run {first}; a re-score never generates)")
    assert not cells["openai:fake-a[temp:0]"].failed


def test_a_rescore_of_a_rescore_scores_the_first_answers_and_calls_nothing_new(env):
    store = open_store()
    first = run(store, TWO_MODELS.replace("openai:broken", "openai:fake-b"))
    env.reset()
    edited = TWO_MODELS.replace("openai:broken", "openai:fake-b").replace(
        "Hello is said.", "A greeting is given."
    )
    second = rescore(store, first, edited)
    calls = len(env.calls)
    assert calls == 2 and all(c.model == "judge-a" for c in env.calls)
    third = rescore(store, second)
    assert len(env.calls) == calls  # everything judged before
    record = store.get_run(third)
    assert record is not None
    assert record.options["rescored_from"] == second and record.options["answers_from"] == first
    assert results(store, third) == results(store, second)


def test_a_run_still_going_is_rescored_as_far_as_it_got_with_a_warning(env):
    store = open_store()
    first = run(store, TWO_MODELS.replace("openai:broken", "openai:fake-b"))
    store.set_run_status(first, "planned")  # as a run that has not finished
    prepared = prepare_rescore(store, first, record=False)
    assert prepared.plan.warnings[0] == (
        f"Run {first} is still running: only the 2 answer(s) stored so far are scored."
    )
    assert prepared.problems == [] and len(prepared.plan.cells) == 2
