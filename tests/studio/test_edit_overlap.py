"""Overlapping runs of the Editor page: an older run never saves over a newer edit.

Streamlit starts the run for a new key while the run for the key before may still be going
(it stops only at its next Streamlit call), so two runs can take and save edits at once.
Seen in Chromium under load: the screen showed `france` and the store kept `franc`, saved by
the older run after the newer one. `keep_edit` takes and saves under the session's lock.
"""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from studio import state
from studio.views.editor import yaml_editor as editor


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """A session state shared by the runs (threads), as Streamlit's is."""
    shared: dict[str, object] = {}
    fake = SimpleNamespace(session_state=shared)
    monkeypatch.setattr(editor, "st", fake)
    monkeypatch.setattr(state, "st", fake)
    return shared


def test_an_older_run_saving_slowly_does_not_put_back_its_older_text(
    session: dict[str, object],
) -> None:
    key = editor._key()
    saved: list[str] = []
    older_saving = threading.Event()
    release = threading.Event()

    def slow_save(text: str) -> None:  # the older run's save is slow (a busy disk, a lock)
        older_saving.set()
        release.wait(5)
        saved.append(text)

    session[key] = {"id": "e1", "text": "icontains: franc"}
    older = threading.Thread(target=editor.keep_edit, args=(slow_save,))
    older.start()
    assert older_saving.wait(5)
    session[key] = {"id": "e2", "text": "icontains: france"}  # the next key starts a new run
    newer = threading.Thread(target=editor.keep_edit, args=(saved.append,))
    newer.start()
    newer.join(0.3)
    release.set()
    older.join(5)
    newer.join(5)
    assert saved == ["icontains: franc", "icontains: france"]
    assert state.get_text() == "icontains: france"
    assert session.get(state.EDITOR_UNSAVED) is None


def test_a_run_stopped_before_its_save_leaves_the_edit_to_the_next_run(
    session: dict[str, object],
) -> None:
    key = editor._key()

    def stopped(text: str) -> None:  # Streamlit stops the run at a call inside the save
        raise RuntimeError("stopped")

    session[key] = {"id": "e1", "text": "a: 1"}
    with pytest.raises(RuntimeError):
        editor.keep_edit(stopped)
    saved: list[str] = []
    editor.keep_edit(saved.append)  # the next run (same event: no new key since)
    assert saved == ["a: 1"]
    editor.keep_edit(saved.append)  # and only once
    assert saved == ["a: 1"]
