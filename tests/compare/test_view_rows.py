"""A stored run's comparison view read from its rows is the view of its assembled comparison."""

from __future__ import annotations

import textwrap

import pytest

from engine.blueprint import parse_blueprint
from engine.compare import load_run_view
from engine.compare.view import view_from_comparison
from engine.run import RunOptions
from engine.run.assemble import stored_comparison
from engine.run.service import prepare_run, run_sync
from engine.store import Store, open_store

BLUEPRINT = textwrap.dedent(
    """
    title: Rows and comparison
    models: [openai:fake-a, openai:fake-b]
    ---
    - id: twice
      prompt: Say hello twice
      should:
        - $icontains: hello
        - $icontains: hello
      should_not:
        - $contains: Goodbye
    - id: judged
      weight: 2
      prompt: Be polite
      should:
        - It is polite.
        - - $icontains: please
          - $icontains: thanks
    - id: tea
      prompt: How hot should the water be for green tea?
      ideal: Water at about 80 degrees. Steep it for two minutes.
    - id: broken
      prompt: This one fails to generate
      should:
        - $contains: anything
    """
)


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def _run(store: Store) -> str:
    options = RunOptions(judges=["openai:judge-1"])
    prepared = prepare_run(store, BLUEPRINT, source="rows.yml", options=options)
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed", outcome.error
    return str(prepared.run_id)


def _assembled(store: Store, run_id: str):
    run = store.get_run(run_id)
    assert run is not None
    text = store.blueprint_text(run.blueprint_hash)
    assert text is not None
    blueprint = parse_blueprint(text, source=run.options.get("source"))
    view = view_from_comparison(stored_comparison(store, run_id, blueprint), run_id)
    view.timestamp = view.timestamp or run.created_at
    return view


def _fail_generation_of_broken(env) -> None:
    env.fail_when(lambda r: "fails to generate" in r.last_user, "400")


def test_the_rows_give_the_assembled_comparisons_view(env):
    _fail_generation_of_broken(env)
    store = open_store()
    run_id = _run(store)
    view = load_run_view(run_id, store)
    assert view == _assembled(store, run_id)
    # what the comparison holds: failed cells, repeated and inverted points, weights, answers
    model = "openai:fake-a[temp:0]"
    assert view.cells[("broken", model)].failed and view.cells[("broken", model)].score is None
    twice = view.cells[("twice", model)]
    assert len(twice.points) == 3 and any(inverted for _, inverted, _ in twice.points)
    assert view.prompt_weights["judged"] == 2.0 and view.prompt_weights["twice"] is None
    assert view.responses[("broken", model)].startswith("<<error>>")
    assert ("tea", model) in view.cells  # its extracted key points were judged


def test_a_prompt_whose_key_points_could_not_be_extracted_is_left_out_as_the_report_does(env):
    env.fail_when(lambda r: "<IDEAL_RESPONSE>" in r.last_user, "400")
    store = open_store()
    run_id = _run(store)
    view = load_run_view(run_id, store)
    assert view == _assembled(store, run_id)
    assert not any(pid == "tea" for pid, _ in view.cells)
    assert ("tea", "openai:fake-a[temp:0]") in view.responses
