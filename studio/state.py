"""Every `st.session_state` key the studio uses, with typed helpers.

Session state never holds an API key: keys stay in the environment or
`.streamlit/secrets.toml`, read by the engine when a run starts.

Keys:
    TEXT (`"blueprint_text"`): the blueprint text being edited. This is the editor's value:
        pages read it, and AppTest tests set it directly
        (`at.session_state["blueprint_text"] = "..."; at.run()`) because the code editor is
        a custom component that AppTest cannot type into. When it changes outside the editor
        (a test, an example, a fix), the editor is remounted with the new text.
    SOURCE (`"blueprint_source"`): a file name for the text (`functions.yml`), used as the
        blueprint's source by the linter and the run; None for a new blueprint.
    DRAFT_ID (`"draft_id"`): the id of the autosaved draft in the store's `drafts` table;
        also kept in the URL as `?draft=<id>` so a refresh restores the text.
    EDITOR_VERSION (`"editor_version"`): bumped to remount the editor with new text.
    EDITOR_SEED (`"editor_seed"`): the text the current editor instance was mounted with.
    EDITOR_SHOWN (`"editor_shown"`): the text the editor is known to show now.
    EDITOR_EVENT (`"editor_event"`): the id of the last editor event handled.
    EDITOR_UNSAVED (`"editor_unsaved"`): True while an edit taken from the editor is not yet
        autosaved (a rerun stopped by the next key leaves the save to the next run).
    RUN_ID (`"run_id"`): the run being watched or shown (the sidebar drops query params, so
        the run id is kept here too and written back to the URL).
    UPLOADED (`"uploaded_results"`): a comparison file opened on the Results page,
        as `(file name, Results)`.
    NOTICE (`"notice"`): a one-time message shown after a rerun (`(kind, text)`).
"""

from __future__ import annotations

import secrets
from typing import Any, cast

import streamlit as st

__all__ = [
    "DRAFT_ID",
    "EDITOR_EVENT",
    "EDITOR_SEED",
    "EDITOR_SHOWN",
    "EDITOR_UNSAVED",
    "EDITOR_VERSION",
    "NOTICE",
    "RUN_ID",
    "SOURCE",
    "TEXT",
    "UPLOADED",
    "draft_id",
    "get_text",
    "new_draft_id",
    "pop_notice",
    "run_id",
    "set_notice",
    "set_run_id",
    "set_text",
    "source",
]

TEXT = "blueprint_text"
SOURCE = "blueprint_source"
DRAFT_ID = "draft_id"
EDITOR_VERSION = "editor_version"
EDITOR_SEED = "editor_seed"
EDITOR_SHOWN = "editor_shown"
EDITOR_EVENT = "editor_event"
EDITOR_UNSAVED = "editor_unsaved"
RUN_ID = "run_id"
UPLOADED = "uploaded_results"
NOTICE = "notice"


def get_text() -> str | None:
    """The blueprint text being edited, or None when nothing is open."""
    value = st.session_state.get(TEXT)
    return value if isinstance(value, str) else None


def source() -> str | None:
    """The file name of the text being edited, if any."""
    value = st.session_state.get(SOURCE)
    return value if isinstance(value, str) else None


def set_text(text: str, *, source_name: str | None = None, keep_source: bool = True) -> None:
    """Replace the blueprint text from outside the editor (example, fix, open); remounts it."""
    st.session_state[TEXT] = text
    if not keep_source or source_name is not None:
        st.session_state[SOURCE] = source_name
    remount(text)


def remount(text: str) -> None:
    """Mount a fresh editor instance showing `text`."""
    st.session_state[EDITOR_VERSION] = int(st.session_state.get(EDITOR_VERSION, 0)) + 1
    st.session_state[EDITOR_SEED] = text
    st.session_state[EDITOR_SHOWN] = text


def new_draft_id() -> str:
    """A fresh random draft id (URL-safe)."""
    return secrets.token_urlsafe(12)


def draft_id() -> str | None:
    """The session's draft id, if a draft was started."""
    value = st.session_state.get(DRAFT_ID)
    return value if isinstance(value, str) else None


def run_id() -> str | None:
    """The run being watched or shown, if any."""
    value = st.session_state.get(RUN_ID)
    return value if isinstance(value, str) else None


def set_run_id(value: str | None) -> None:
    """Remember the run being watched or shown."""
    st.session_state[RUN_ID] = value


def set_notice(kind: str, text: str) -> None:
    """Show `text` once on the next run (`kind`: success, info, warning, error)."""
    st.session_state[NOTICE] = (kind, text)


def pop_notice() -> tuple[str, str] | None:
    """The pending one-time message, removed from the session."""
    value = st.session_state.pop(NOTICE, None)
    return cast("tuple[str, str]", value) if isinstance(value, tuple) else None


def get(key: str, default: Any = None) -> Any:
    """Read any documented key."""
    return st.session_state.get(key, default)
