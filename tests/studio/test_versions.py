"""Draft versions in the editor (AppTest): kept per pause, listed, compared, restored; files
opened from disk; a run's exact text opened again from its results."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from engine.settings import Settings
from engine.store import open_store
from studio import services, state
from studio.core.drafts import read_upload
from tests.studio.helpers import app, buttons, example, texts, wait_for_status

CAPITALS = "Capital cities, checked by functions"


def type_text(at: AppTest, text: str) -> None:
    """Send `text` from the code editor, as one debounced edit would."""
    key = f"blueprint_editor_{at.session_state[state.EDITOR_VERSION]}"
    events = int(at.session_state["test_events"]) if "test_events" in at.session_state else 0
    at.session_state["test_events"] = events + 1
    at.session_state[key] = {"id": f"edit-{events + 1}", "text": text}
    at.run()
    assert not at.exception


def open_example(title: str) -> AppTest:
    at = app().run()
    cards = buttons(at, "Start from this example")
    titles = [e.title for e in services.examples()]
    cards[titles.index(title)].click().run()
    assert not at.exception
    return at


def version_rows(at: AppTest) -> list[dict[str, object]]:
    (expander,) = [e for e in at.expander if e.label == "Versions"]
    frame = expander.dataframe[0].value
    return [dict(zip(frame.columns, row, strict=True)) for row in frame.itertuples(index=False)]


def diff_shown(at: AppTest) -> str:
    (expander,) = [e for e in at.expander if e.label == "Versions"]
    return "\n".join(str(c.value) for c in expander.code)


def test_typing_makes_a_version_per_pause_listed_and_compared(monkeypatch):
    base = example("functions.yml")
    monkeypatch.setenv("BLUEPRINT_VERSION_PAUSE_S", "3600")  # no pause between these edits
    at = open_example(CAPITALS)
    type_text(at, base + "# one\n")
    type_text(at, base + "# one\n# two\n")
    monkeypatch.setenv("BLUEPRINT_VERSION_PAUSE_S", "0")  # every edit comes after a pause
    latest = base + "# one\n# two\n# three\n"
    type_text(at, latest)
    rows = version_rows(at)
    assert [r["Version"] for r in rows] == [3, 2, 1]
    assert [r["What"] for r in rows] == [
        "Edits (typing)",
        "Edits (typing)",
        f"Opened the example “{CAPITALS}”.",
    ]
    assert rows[0]["Size"] == f"{len(latest):,} characters"
    assert {r["Title"] for r in rows} == {CAPITALS}
    # the diff between the two latest versions: the one line the last edit added
    diff = diff_shown(at)
    assert "+# three" in diff and "-" + "# two" not in diff
    assert any("1 line added, 0 removed" in c for c in texts(at, "caption"))


def test_a_diff_between_any_two_and_restoring_the_first_loses_nothing(monkeypatch):
    base = example("functions.yml")
    monkeypatch.setenv("BLUEPRINT_VERSION_PAUSE_S", "0")
    at = open_example(CAPITALS)
    draft = at.session_state[state.DRAFT_ID]
    edited = base.replace("Paris", "Lyon")
    type_text(at, edited)
    picker = {str(s.label): s for s in at.selectbox}
    assert (picker["Version"].value, picker["Compared with"].value) == (1, 2)  # the last change
    type_text(at, edited + "# more\n")
    picker = {str(s.label): s for s in at.selectbox}
    picker["Version"].set_value(1).run()
    picker["Compared with"].set_value(2).run()
    diff = diff_shown(at)
    assert "+" in diff and "Lyon" in diff and "Paris" in diff
    assert diff.startswith("--- version 1\n+++ version 2")
    buttons(at, "Restore this version")[0].click().run()
    assert not at.exception
    assert at.session_state[state.TEXT] == base
    store = open_store()
    assert store.draft(draft) == base
    numbers = [(v.number, v.note) for v in store.draft_versions(draft)]
    assert numbers[0] == (4, "Restored version 1")
    assert store.draft_version_text(draft, 3) == edited + "# more\n"  # kept, nothing lost
    assert any("Restored version 1 as version 4" in s for s in texts(at, "success"))


def test_pasting_over_a_draft_keeps_the_earlier_text(monkeypatch):
    monkeypatch.setenv("BLUEPRINT_VERSION_PAUSE_S", "3600")
    at = open_example(CAPITALS)
    draft = at.session_state[state.DRAFT_ID]
    typed = example("functions.yml") + "# my note\n"
    type_text(at, typed)
    pasted = example("multi-turn.yml")
    type_text(at, pasted)
    store = open_store()
    assert [v.number for v in store.draft_versions(draft)] == [3, 2, 1]
    assert store.draft_version_text(draft, 2) == typed
    assert store.draft(draft) == pasted


def test_a_blank_blueprint_twice_leaves_one_draft_until_it_is_edited():
    first = app().run()
    buttons(first, "Start from a blank blueprint")[0].click().run()
    draft = first.session_state[state.DRAFT_ID]
    second = app().run()  # another session (a new tab)
    buttons(second, "Start from a blank blueprint")[0].click().run()
    assert second.session_state[state.DRAFT_ID] == draft
    assert [d.id for d in open_store().list_drafts()] == [draft]
    type_text(second, second.session_state[state.TEXT] + "# mine\n")
    third = app().run()
    buttons(third, "Start from a blank blueprint")[0].click().run()
    assert third.session_state[state.DRAFT_ID] != draft
    assert len(open_store().list_drafts()) == 2


def test_the_draft_list_shows_titles_and_versions():
    at = open_example(CAPITALS)
    other = app().run()
    listed = texts(other, "markdown")
    assert CAPITALS in listed
    assert any("1 version" in c for c in texts(other, "caption"))
    assert at.session_state[state.DRAFT_ID] in {d.id for d in open_store().list_drafts()}


# --- opening a file from disk ------------------------------------------------------------


def test_a_yaml_file_opens_as_a_new_draft():
    at = app().run()
    text = example("or-paths.yml")
    at.file_uploader[0].set_value(("new-year.yml", text.encode(), "application/x-yaml")).run()
    assert not at.exception
    assert at.session_state[state.TEXT] == text
    assert at.session_state[state.SOURCE] == "new-year.yml"
    assert open_store().draft(at.session_state[state.DRAFT_ID]) == text
    assert "Opened the file new-year.yml." in texts(at, "success")


def test_a_binary_file_gets_a_plain_message_and_opens_nothing():
    at = app().run()
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    at.file_uploader[0].set_value(("logo.yml", png, "application/x-yaml")).run()
    assert not at.exception
    assert state.TEXT not in at.session_state or at.session_state[state.TEXT] is None
    (error,) = texts(at, "error")
    assert error.startswith("logo.yml: This file holds NUL bytes: it is a binary file")
    assert open_store().list_drafts() == []


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("notes.txt", b"title: x\n", "opens blueprint files only: .yml, .yaml or .json"),
        ("zeros.yml", b"title: x\n\x00\x00", "zeros.yml: This file holds NUL bytes"),
        ("latin.yaml", "title: café\n".encode("latin-1"), "latin.yaml:1:11: This byte (0xE9)"),
        ("big.json", b"[" + b"0," * 1000 + b"0]", "more than the 0.001 MB limit"),
    ],
)
def test_files_that_are_not_blueprint_text_are_refused_in_plain_words(name, data, says):
    with pytest.raises(Exception) as info:
        read_upload(data, name, Settings(max_input_mb=0.001))
    assert says in str(info.value)
    assert "Traceback" not in str(info.value)


def test_json_and_yaml_files_are_read_as_text():
    data = json.dumps({"title": "From JSON", "prompts": [{"prompt": "hi"}]}).encode()
    assert read_upload(data, "From.JSON") == data.decode()
    assert read_upload("title: é\n".encode(), "x.yaml") == "title: é\n"


# --- a run's exact text --------------------------------------------------------------------


def test_a_run_opens_its_exact_text_as_a_version_of_its_draft(monkeypatch):
    monkeypatch.setenv("BLUEPRINT_VERSION_PAUSE_S", "0")
    at = open_example(CAPITALS)
    draft = at.session_state[state.DRAFT_ID]
    at.switch_page("views/run/run.py").run()
    at.multiselect[0].set_value(["ideal"]).run()
    buttons(at, "Start run")[0].click().run()
    run_id = at.session_state[state.RUN_ID]
    store = open_store()
    run = wait_for_status(store, run_id, ("completed",))
    assert run.options["draft"] == [draft, 1]
    history = app()
    history.switch_page("views/history/history.py").run()
    assert list(history.dataframe[0].value["Version"]) == ["version 1"]
    # the user goes on editing after the run
    at.switch_page("views/editor/editor.py").run()
    type_text(at, example("functions.yml") + "# later\n")
    assert store.draft(draft) != example("functions.yml")
    results = app()
    results.query_params["run"] = run_id
    results.switch_page("views/results/results.py").run()
    buttons(results, "Open this version in the editor")[0].click().run()
    assert not results.exception
    assert texts(results, "title") == ["Editor"]
    assert results.session_state[state.DRAFT_ID] == draft
    assert results.session_state[state.TEXT] == example("functions.yml")
    versions = store.draft_versions(draft)
    assert [v.number for v in versions] == [3, 2, 1]
    assert versions[0].note.startswith("The text of the run of ")
    assert store.draft_version_text(draft, 2) == example("functions.yml") + "# later\n"


def test_a_run_without_a_draft_opens_as_one_new_draft():
    store = open_store()
    text = example("functions.yml")
    digest = store.save_blueprint(text, CAPITALS, "functions.yml")
    run_id = store.create_run(
        blueprint_hash=digest,
        title=CAPITALS,
        config_id=None,
        options={"source": "functions.yml", "models": ["ideal"]},
        total_calls=0,
        total_cells=0,
    )
    opened = []
    for _ in range(2):  # twice: the untouched draft is opened again, not copied
        at = app()
        at.query_params["run"] = run_id
        at.switch_page("views/results/results.py").run()
        buttons(at, "Open this version in the editor")[0].click().run()
        assert not at.exception
        assert at.session_state[state.TEXT] == text
        opened.append(at.session_state[state.DRAFT_ID])
    assert opened[0] == opened[1]
    assert [d.id for d in store.list_drafts()] == [opened[0]]


def test_continuing_a_recent_draft_keeps_adding_to_its_versions(monkeypatch):
    monkeypatch.setenv("BLUEPRINT_VERSION_PAUSE_S", "0")
    at = open_example(CAPITALS)
    draft = at.session_state[state.DRAFT_ID]
    type_text(at, example("functions.yml") + "# mine\n")
    later = app().run()  # another day, another session
    buttons(later, "Open")[0].click().run()
    assert later.session_state[state.DRAFT_ID] == draft
    assert later.session_state[state.TEXT] == example("functions.yml") + "# mine\n"
    assert [r["Version"] for r in version_rows(later)] == [2, 1]
    type_text(later, example("functions.yml") + "# mine, later\n")
    assert [v.number for v in open_store().draft_versions(draft)] == [3, 2, 1]
    assert len(open_store().list_drafts()) == 1
