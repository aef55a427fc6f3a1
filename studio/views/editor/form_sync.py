"""Keeping the Form's fields a view of the YAML: values from the text, stale changes refused.

A Streamlit widget keeps the value it last sent under its key, and sends it again on the next
rerun. So each field is given the YAML's value before it is drawn whenever the two differ
(`show`), and the form keeps a revision that moves on with every change not made by a field
(undo, a restored version, the YAML view, a fix, another draft, another tab). A field's change
carries the revision it was drawn at; one drawn before the last such change is refused.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from engine.store import Store

__all__ = [
    "CHANGED_ELSEWHERE",
    "REVISION",
    "SEEN",
    "STALE",
    "bump",
    "is_stale",
    "newer_elsewhere",
    "revision",
    "show",
    "take_newer",
]

REVISION = "form_revision"
SEEN = "form_store_seen"
STALE = (
    "This field showed an older version of the blueprint; it now shows the current text. "
    "Type your change again."
)
CHANGED_ELSEWHERE = (
    "This draft was changed in another tab or by another person; the form now shows its "
    "current text. Make your change again if it still applies."
)
_UNSET = object()


def show(session: MutableMapping[Any, Any], key: str, wanted: Any) -> None:
    """Make the widget `key` show `wanted` (the YAML's value) on its next drawing.

    Only a differing value is written: a field the user is typing in, whose last sent value
    is the YAML's, keeps what they are typing.
    """
    if session.get(key, _UNSET) != wanted:
        session[key] = wanted


def revision(session: MutableMapping[Any, Any]) -> int:
    """The form's revision: how many changes not made by a field it has seen."""
    return int(session.get(REVISION, 0))


def bump(session: MutableMapping[Any, Any]) -> None:
    """Note a change not made by a field: fields drawn before it are stale."""
    session[REVISION] = revision(session) + 1


def is_stale(session: MutableMapping[Any, Any], drawn_at: int | None) -> bool:
    """Whether a field drawn at revision `drawn_at` showed an older text (None: not a field)."""
    return drawn_at is not None and drawn_at != revision(session)


def newer_elsewhere(stored: str | None, shown: str, seen: str | None) -> str | None:
    """The draft's stored text when someone else saved it since this session last looked.

    Args:
        stored: The draft's text in the store now (None: not stored).
        shown: The text this session shows.
        seen: The stored text this session saw last (None: it never looked).

    Returns:
        `stored` when it is neither what this session shows nor what it saw last; else None
        (this session's own unsaved change is newer than a store it saw unchanged).
    """
    if stored is None or seen is None or stored in (shown, seen):
        return None
    return stored


def take_newer(
    session: MutableMapping[Any, Any], store: Store, draft_id: str | None, shown: str | None
) -> str | None:
    """The text another tab or person saved to `draft_id` since this session last looked.

    Remembers what the store holds now, so each change elsewhere is taken once.
    """
    if draft_id is None or shown is None:
        return None
    stored = store.draft(draft_id)
    seen = session.get(SEEN)
    last = seen[1] if isinstance(seen, tuple) and seen[0] == draft_id else None
    if stored is not None:
        session[SEEN] = (draft_id, stored)
    return newer_elsewhere(stored, shown, last)
