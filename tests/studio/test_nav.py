"""Getting around the studio: remembered run choices, the run in a new tab, heatmap cells,
the side-by-side model picker and the share link's copy button (issue 14)."""

from __future__ import annotations

import json

from studio import prefs, state
from tests.studio.helpers import app, example


def _run_page(text: str, source: str | None = None):
    at = app()
    at.session_state[state.TEXT] = text
    if source is not None:
        at.session_state[state.SOURCE] = source
    at.switch_page("app_pages/run.py").run()
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
    at.switch_page("app_pages/editor.py").run()
    at.switch_page("app_pages/run.py").run()
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
        page.switch_page("app_pages/run.py").run()
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
    assert prefs.blueprint_key(None, " ", "d1") == "draft:d1"
    assert prefs.blueprint_key(None, None, None) is None
