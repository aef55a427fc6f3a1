"""The blueprint editor: Ace (streamlit-code-editor) with YAML highlighting and lint marks.

Behind two functions, `keep_edit` and `blueprint_editor`, so the component can change.
Measured gotchas (see the studio research notes): the YAML worker erases our annotations
unless `useWorker` is False; the component's own themes load a web font, a stock Ace theme
does not; the component returns empty text until the first edit, so the text of record is
`state.TEXT`, never the component's value.

The edit is read from session state *before* the page is drawn, so the same run lints the
new text and draws its marks: no extra rerun, and the editor (an iframe) is never rebuilt
while the user types.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import streamlit as st
from code_editor import code_editor
from streamlit.runtime.scriptrunner import get_script_run_ctx

from engine.lint import Diagnostic
from studio import state
from studio.core import markers

__all__ = ["blueprint_editor", "cursor_line", "edit_lock", "keep_edit"]

# One lock per session (striped: a fixed number, so nothing grows with the sessions served).
_LOCKS = tuple(threading.RLock() for _ in range(64))


def _key() -> str:
    return f"blueprint_editor_{int(st.session_state.get(state.EDITOR_VERSION, 0))}"


def cursor_line() -> int | None:
    """The 1-based line of the editor's cursor at its last report, if it reported one."""
    response: Any = st.session_state.get(_key())
    cursor = response.get("cursor") if isinstance(response, dict) else None
    row = cursor.get("row") if isinstance(cursor, dict) else None
    return row + 1 if isinstance(row, int) and row >= 0 else None


@contextmanager
def edit_lock() -> Iterator[None]:
    """Hold this browser session's edit lock (re-entrant; one lock outside a Streamlit run).

    Hold it around each save of the session's draft, so saves from overlapping runs of a
    page are made one at a time (see `keep_edit`).
    """
    ctx = get_script_run_ctx(suppress_warning=True)
    session = ctx.session_id if ctx is not None else ""
    with _LOCKS[zlib.crc32(session.encode()) % len(_LOCKS)]:
        yield


def keep_edit(save: Callable[[str], None]) -> None:
    """Take the user's latest edit into `state.TEXT` and save it with `save`.

    Streamlit starts the run for a new key while the run for the key before may still be
    going (it stops at its next Streamlit call), so two runs of the page can be here at once,
    and an older run's save could land after a newer one's and put back an older text. So
    taking and saving happen under the session's lock, in the order the edits arrived: a run
    that comes second finds the newer text already taken, or takes and saves it itself.
    """
    with edit_lock():
        edited = take_edit()
        if edited is not None:
            save(edited)
            edit_saved()


def take_edit() -> str | None:
    """Take the user's latest edit into `state.TEXT`; return the text still to be saved, or None.

    Every key reaches the studio as its own rerun, and the next key's rerun can stop this one
    at any access to the session state. So the steps are ordered for a run stopped anywhere:
    the text is marked "to save" first and the event handled last, and the text stays to be
    saved until `edit_saved` (a run stopped before its save leaves it to the next run).
    """
    response: Any = st.session_state.get(_key())
    if isinstance(response, dict):
        event = str(response.get("id") or "")
        new = response.get("text")
        if event and event != st.session_state.get(state.EDITOR_EVENT):
            if isinstance(new, str) and new != state.get_text():
                st.session_state[state.EDITOR_UNSAVED] = True
                st.session_state[state.EDITOR_SHOWN] = new
                st.session_state[state.TEXT] = new
            st.session_state[state.EDITOR_EVENT] = event
    return state.get_text() if st.session_state.get(state.EDITOR_UNSAVED) else None


def edit_saved() -> None:
    """Note that the text `take_edit` returned has been saved."""
    st.session_state.pop(state.EDITOR_UNSAVED, None)


def blueprint_editor(diagnostics: Sequence[Diagnostic]) -> None:
    """Show the editor for `state.TEXT` with `diagnostics` marked at their lines.

    The editor is remounted (a new key) only when the text changed outside it (an example,
    a fix, a test), so it always shows the text of record.
    """
    text = state.get_text() or ""
    if st.session_state.get(state.EDITOR_SHOWN) != text:
        state.remount(text)
    seed = st.session_state.get(state.EDITOR_SEED, text)
    code_editor(
        seed,
        lang="yaml",
        key=_key(),
        height=[18, 36],
        response_mode=["debounce"],  # send the text on change (each key: see editor_props)
        props=markers.editor_props(diagnostics),
        keybindings=markers.KEYBINDINGS,
        options=markers.EDITOR_OPTIONS,
        component_props={"css": markers.MARKER_CSS},
    )
