"""The Form's fields follow the YAML: plain checks of `form_sync`, then the form through AppTest."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from engine.blueprint import parse_blueprint
from engine.store import open_store
from studio import state
from studio.core.gallery import BLANK
from studio.views.editor import form_sync
from studio.views.editor.drafting_panel import RESULT_KEY
from tests.studio.helpers import app, buttons, texts

OLD, MINE, THEIRS = "title: Old\n", "title: Mine\n", "title: Theirs\n"


# --- the rules, on plain dicts ------------------------------------------------------------


def test_a_field_is_given_the_yaml_value_only_when_it_shows_another() -> None:
    session: dict[str, Any] = {}
    form_sync.show(session, "form:h:title", "Capitals")
    assert session == {"form:h:title": "Capitals"}
    session["form:h:title"] = "Capitals typed"  # what the browser sent back
    form_sync.show(session, "form:h:title", "Capitals")
    assert session["form:h:title"] == "Capitals"
    # a field that shows the YAML's value is not written to (what is being typed stays)
    written: list[str] = []

    class Watched(dict[str, Any]):
        def __setitem__(self, key: str, value: Any) -> None:
            written.append(key)
            super().__setitem__(key, value)

    watched = Watched({"form:h:title": "Capitals", "form:h:tags": ["a", "b"]})
    form_sync.show(watched, "form:h:title", "Capitals")
    form_sync.show(watched, "form:h:tags", ["a", "b"])
    assert written == []
    form_sync.show(watched, "form:h:tags", ["a"])
    assert written == ["form:h:tags"]


def test_a_field_drawn_before_a_change_elsewhere_is_stale() -> None:
    session: dict[str, Any] = {}
    drawn_at = form_sync.revision(session)
    assert not form_sync.is_stale(session, drawn_at)
    assert not form_sync.is_stale(session, None)  # a button, not a field
    form_sync.bump(session)
    assert form_sync.is_stale(session, drawn_at)
    assert not form_sync.is_stale(session, form_sync.revision(session))


def test_only_a_text_saved_elsewhere_is_newer() -> None:
    assert form_sync.newer_elsewhere(THEIRS, MINE, MINE) == THEIRS
    assert form_sync.newer_elsewhere(MINE, MINE, OLD) is None  # this tab's own save
    assert form_sync.newer_elsewhere(OLD, MINE, OLD) is None  # this tab's change, not saved yet
    assert form_sync.newer_elsewhere(THEIRS, MINE, None) is None  # never looked: nothing known
    assert form_sync.newer_elsewhere(None, MINE, OLD) is None  # not in the store


def test_a_change_saved_elsewhere_is_taken_once_per_draft() -> None:
    store = open_store()
    store.save_draft("d1", MINE)
    session: dict[str, Any] = {}
    assert form_sync.take_newer(session, store, "d1", MINE) is None
    assert form_sync.take_newer(session, store, None, MINE) is None
    store.save_draft("d1", THEIRS)
    assert form_sync.take_newer(session, store, "d1", MINE) == THEIRS
    assert form_sync.take_newer(session, store, "d1", THEIRS) is None
    store.save_draft("d2", OLD)  # another draft: what was seen of d1 says nothing about it
    assert form_sync.take_newer(session, store, "d2", MINE) is None


# --- the form, through AppTest -------------------------------------------------------------


def _form(text: str = BLANK) -> AppTest:
    at = app().run()
    buttons(at, "Start from a blank blueprint")[0].click().run()
    at.session_state[state.TEXT] = text
    at.run()
    at.radio(key="editor_view").set_value("Form").run()
    assert not at.exception
    return at


def _field(at: AppTest, key: str) -> Any:
    return next(w for w in [*at.text_input, *at.text_area] if w.key == f"form:{key}")


def _title(at: AppTest) -> str | None:
    return parse_blueprint(at.session_state[state.TEXT]).title


def test_a_change_typed_into_a_field_that_showed_an_older_text_is_refused() -> None:
    at = _form()
    description = _field(at, "h:description")
    newer = BLANK.replace("title: My blueprint", "title: Changed elsewhere")
    at.session_state[state.TEXT] = newer  # changed outside the form since it was drawn
    description.set_value("Typed over the old text").run()
    assert not at.exception
    assert at.session_state[state.TEXT] == newer
    assert any(form_sync.STALE in w for w in texts(at, "warning"))
    assert _field(at, "h:title").value == "Changed elsewhere"
    _field(at, "h:description").set_value("Typed again").run()
    assert parse_blueprint(at.session_state[state.TEXT]).description == "Typed again"
    assert _title(at) == "Changed elsewhere"


def test_a_change_saved_by_another_person_is_shown_and_not_overwritten() -> None:
    at = _form()
    draft = at.session_state[state.DRAFT_ID]
    theirs = BLANK.replace("title: My blueprint", "title: Theirs")
    open_store().save_draft(draft, theirs, "Theirs")
    _field(at, "h:description").set_value("Mine").run()
    assert any(form_sync.STALE in w for w in texts(at, "warning"))
    assert open_store().draft(draft) == theirs
    assert _field(at, "h:title").value == "Theirs"
    # a rerun without a change in a field shows the next change made elsewhere, and says so
    again = theirs.replace("title: Theirs", "title: Theirs again")
    open_store().save_draft(draft, again, "Theirs again")
    at.run()
    assert _field(at, "h:title").value == "Theirs again"
    assert any(form_sync.CHANGED_ELSEWHERE in i for i in texts(at, "info"))


def test_accepted_drafting_text_shows_in_the_form() -> None:
    at = _form()
    drafted = BLANK.replace("title: My blueprint", "title: Drafted for me")
    at.session_state[RESULT_KEY] = {"kind": "goal", "text": drafted, "fixed": []}
    at.run()
    next(b for b in at.button if b.key == "draft-accept").click().run()
    assert not at.exception
    assert _field(at, "h:title").value == "Drafted for me"
    _field(at, "p0:id").set_value("renamed").run()
    assert _title(at) == "Drafted for me"
    assert parse_blueprint(at.session_state[state.TEXT]).prompts[0].id == "renamed"


def test_undo_shows_the_undone_value_in_the_field() -> None:
    at = _form()
    _field(at, "h:title").set_value("First title").run()
    _field(at, "h:title").set_value("Second title").run()
    at.button(key="form:undo").click().run()
    assert _field(at, "h:title").value == "First title"
    _field(at, "h:description").set_value("After undo").run()
    assert _title(at) == "First title"
