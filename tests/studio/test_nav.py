"""Getting around the studio: remembered run choices, the run in a new tab, heatmap cells,
the side-by-side model picker and the share link's copy button (issue 14)."""

from __future__ import annotations

import json

from engine.store import open_store
from studio import state
from studio.views.run import prefs
from tests.studio.helpers import app, buttons, example, make_run, texts, wait_for_status


def _run_page(text: str, source: str | None = None):
    at = app()
    at.session_state[state.TEXT] = text
    if source is not None:
        at.session_state[state.SOURCE] = source
    at.switch_page("views/run/run.py").run()
    assert not at.exception
    return at


# --- 1. the Run page remembers the models and judges per blueprint ----------------------


def test_run_choices_survive_a_page_switch_and_a_new_session():
    at = _run_page(example("functions.yml"), "functions.yml")
    assert at.multiselect(key="run_models").value == [
        "openai:gpt-4.1-mini",
        "anthropic:claude-haiku-4.5",
    ]
    at.multiselect(key="run_models").set_value(["ideal"]).run()
    at.switch_page("views/editor/editor.py").run()
    at.switch_page("views/run/run.py").run()
    assert at.multiselect(key="run_models").value == ["ideal"]
    # a reload is a new session: the same blueprint gets the same choice back
    again = _run_page(example("functions.yml"), "functions.yml")
    assert again.multiselect(key="run_models").value == ["ideal"]


def test_judges_are_remembered_and_each_blueprint_keeps_its_own():
    at = _run_page(example("or-paths.yml"), "or-paths.yml")
    at.multiselect(key="run_models").set_value(["ideal"]).run()
    at.radio(key="run_judging").set_value("custom").run()
    at.multiselect(key="run_judges").set_value(["openai:my-judge"]).run()
    assert not at.exception
    # another blueprint in the same session starts from its own defaults
    at.session_state[state.TEXT] = example("functions.yml")
    at.session_state[state.SOURCE] = "functions.yml"
    at.run()
    assert at.multiselect(key="run_models").value == [
        "openai:gpt-4.1-mini",
        "anthropic:claude-haiku-4.5",
    ]
    # and the first one comes back as it was left, also in a new session
    for page in (at, app()):
        page.session_state[state.TEXT] = example("or-paths.yml")
        page.session_state[state.SOURCE] = "or-paths.yml"
        page.switch_page("views/run/run.py").run()
        assert page.multiselect(key="run_models").value == ["ideal"]
        assert page.radio(key="run_judging").value == "custom"
        assert page.multiselect(key="run_judges").value == ["openai:my-judge"]


def test_prefs_file_is_bounded_and_a_damaged_file_reads_as_empty(tmp_path):
    (tmp_path / prefs.FILE_NAME).write_text("{not json", encoding="utf-8")
    assert prefs.load(tmp_path, "title:x") is None
    for i in range(prefs.MAX_ENTRIES + 20):
        prefs.save(tmp_path, f"title:{i}", prefs.RunPrefs(models=("ideal",)))
    kept = json.loads((tmp_path / prefs.FILE_NAME).read_text(encoding="utf-8"))
    assert len(kept) == prefs.MAX_ENTRIES
    assert "title:0" not in kept and f"title:{prefs.MAX_ENTRIES + 19}" in kept
    hostile = {"title:y": {"models": ["a" * 5000, 3, "ok"] * 100, "judging": "<b>", "judges": 1}}
    (tmp_path / prefs.FILE_NAME).write_text(json.dumps(hostile), encoding="utf-8")
    assert prefs.load(tmp_path, "title:y") == prefs.RunPrefs(models=("ok",), judging="default")
    many = prefs.RunPrefs(models=tuple(f"m{i}" for i in range(1000)))
    prefs.save(tmp_path, "title:z", many)
    assert len(prefs.load(tmp_path, "title:z").models) == prefs.MAX_ITEMS
    assert prefs.blueprint_key(None, " ", "d1") == "draft:d1"
    assert prefs.blueprint_key(None, None, None) is None


# --- 2. a new tab at the Run page shows the run in progress -----------------------------


def at_setup(at) -> bool:
    """Whether the Run page is setting up a run (its models picker is on screen)."""
    return bool([m for m in at.multiselect if m.label == "Models to run"])


def _slow_blueprint(title: str, n: int = 100) -> str:
    lines = [f"title: {title}", "---"]
    for i in range(n):
        lines += [f"- id: q{i}", f"  prompt: question {i}", "  should:", "    - $contains: New"]
    return "\n".join(lines) + "\n"


def test_a_new_tab_at_the_run_page_shows_the_run_in_progress(llm_env, scripted_llm):
    scripted_llm.latency_ms = 1000  # the run lasts while the tabs open on a busy machine
    text = _slow_blueprint("slow")
    first = _run_page(text)
    first.multiselect(key="run_models").set_value(["openai:fake-a", "openai:fake-b"]).run()
    buttons(first, "Start run")[0].click().run()
    run_id = first.session_state[state.RUN_ID]
    store = open_store()
    wait_for_status(store, run_id, ("running",))
    try:
        # a new tab: a new session, no run in the link, no blueprint open
        tab = app()
        tab.switch_page("views/run/run.py").run()
        assert not tab.exception
        assert tab.query_params["run"] in (run_id, [run_id])
        assert buttons(tab, "Stop")
        assert len(tab.get("progress")) == 1
        # a new tab with the same blueprint open (its draft restored) shows it too
        same = _run_page(text)
        assert same.query_params["run"] in (run_id, [run_id])
        # one with another blueprint open sets up a run of that one
        other = _run_page(_slow_blueprint("another", 2))
        assert "run" not in other.query_params
        assert not buttons(other, "Stop")
        assert at_setup(other)
    finally:  # let it finish quickly (stopping a run is tested elsewhere)
        scripted_llm.latency_ms = 0
        wait_for_status(store, run_id, ("completed",), timeout=60)


# --- 3. a heatmap cell opens that prompt × model ----------------------------------------


def _results_page(run_id: str):
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    return at


def test_a_heatmap_cell_opens_that_prompt_and_model(llm_env):
    run_id = make_run(
        open_store(), example("functions.yml"), ["ideal", "openai:fake-a"], environ=llm_env
    )
    at = _results_page(run_id)
    heat = at.dataframe[0].value
    prompts, columns = list(heat.index), list(heat.columns)
    assert len(prompts) >= 2
    at.session_state["heatmap-table"] = {"selection": {"cells": [(1, columns[1])]}}
    at.run()
    assert not at.exception
    assert at.selectbox(key="res_prompt").value == prompts[1]
    assert at.session_state["res_tab"] == "Why this score"
    assert str(at.selectbox(key="res_model").value).startswith("openai:fake-a")
    assert at.query_params["prompt"] in (prompts[1], [prompts[1]])
    # picking another prompt afterwards is not undone by the cell still selected
    at.selectbox(key="res_prompt").set_value(prompts[0]).run()
    assert at.selectbox(key="res_prompt").value == prompts[0]


# --- 4. "Answers side by side" lets the user pick the models ----------------------------


def _answer_boxes(at) -> list[str]:
    """The names heading the answers shown side by side."""
    return [t for t in texts(at, "markdown") if t in ("**ideal**",) or t.startswith("**openai:")]


def test_answers_side_by_side_shows_the_models_picked(llm_env):
    models = ["ideal", "openai:fake-a", "openai:fake-b", "openai:fake-c"]
    run_id = make_run(open_store(), example("functions.yml"), models, environ=llm_env)
    at = _results_page(run_id)
    at.session_state["res_tab"] = "Answers side by side"
    at.run()
    picker = at.multiselect(key="res_side_models")
    assert len(picker.value) == 3  # the first few, one row
    shown = _answer_boxes(at)
    assert shown == ["**ideal**", "**openai:fake-a**", "**openai:fake-b**"]
    picker.set_value([picker.value[0], next(m for m in picker.options if "fake-c" in m)]).run()
    shown = _answer_boxes(at)
    assert any("fake-c" in b for b in shown) and not any("fake-a" in b for b in shown)
    # the pick survives a visit to another tab
    at.session_state["res_tab"] = "Time & cost"
    at.run()
    at.session_state["res_tab"] = "Answers side by side"
    at.run()
    assert any("fake-c" in b for b in _answer_boxes(at))
    at.multiselect(key="res_side_models").set_value([]).run()
    assert any("Pick at least one model" in i for i in texts(at, "info"))


# --- 5. the share link has a copy button ------------------------------------------------


def test_the_share_link_is_in_a_box_with_a_copy_button(or_paths_run):
    _store, run_id = or_paths_run
    at = _results_page(run_id)
    (box,) = [c for c in at.code if "/results?run=" in str(c.value)]
    assert box.value == f"/results?run={run_id}"  # AppTest has no URL: the path alone
    assert box.language in (None, "", "plaintext")
