"""Drafts for the studio's pages: which draft to open text in, uploads, and a run's version.

Pure: no Streamlit import. The pages pass the store, the new id and who is editing.
"""

from __future__ import annotations

from pathlib import PurePath

from engine.blueprint.inputs import blueprint_from_bytes
from engine.errors import BlueprintError, InputError
from engine.settings import Settings
from engine.store import DraftVersion, RunRecord, Store

__all__ = [
    "OPENABLE",
    "SAVED_PREFIX",
    "draft_for_run",
    "open_as_draft",
    "read_upload",
    "reusable_draft",
    "version_note",
]

SAVED_PREFIX = "saved:"
"""Drafts saved under a name have the id `saved:<name>`; the others are autosaved drafts."""

OPENABLE = ("yml", "yaml", "json")
"""The file types the editor opens from disk."""


def reusable_draft(store: Store, text: str) -> str | None:
    """An autosaved draft that holds exactly `text` and was never edited, to open it again.

    Opening the same example (or a blank blueprint) twice then leaves one draft, not two.
    """
    for row in store.drafts_with_text(text):
        if not row.id.startswith(SAVED_PREFIX) and row.versions <= 1:
            return row.id
    return None


def open_as_draft(
    store: Store,
    text: str,
    title: str | None,
    *,
    new_id: str,
    note: str,
    author: str | None = None,
) -> str:
    """Keep `text` as a draft of its own (an untouched one with the same text, else `new_id`).

    Its first version is kept (explicit), so typing over it starts a new version.
    Returns the draft's id.
    """
    draft = reusable_draft(store, text) or new_id
    store.save_draft(draft, text, title, explicit=True, note=note, author=author)
    return draft


def draft_for_run(
    store: Store,
    run: RunRecord,
    text: str,
    *,
    new_id: str,
    author: str | None = None,
) -> tuple[str, int]:
    """The draft and version that hold the exact text a run used, made when needed.

    The draft the run came from (when the run knows it and the store still has it) gets the
    text as a new version, unless its latest version is that text already; otherwise the text
    opens as a draft of its own. Returns `(draft id, version number)`.
    """
    when = run.created_at[:16].replace("T", " ")
    note = f"The text of the run of {when} UTC"
    known = run.options.get("draft")
    came_from = known[0] if isinstance(known, list) and known else None
    if isinstance(came_from, str) and store.draft(came_from) is not None:
        number = store.save_draft(
            came_from, text, run.title, explicit=True, note=note, author=author
        )
        return came_from, number
    draft = open_as_draft(store, text, run.title, new_id=new_id, note=note, author=author)
    return draft, store.draft_versions(draft)[0].number


def read_upload(data: bytes, name: str, settings: Settings | None = None) -> str:
    """The text of a blueprint file opened from disk (`.yml`, `.yaml` or `.json`).

    Raises:
        InputError: Another kind of file, too large (the engine's input limit), binary or
            not UTF-8; the message says so in plain words and what to do.
    """
    suffix = PurePath(name).suffix.lower().lstrip(".")
    if suffix not in OPENABLE:
        raise InputError(
            f"{name}: the editor opens blueprint files only: .yml, .yaml or .json. "
            "Save the blueprint under one of these names."
        )
    try:
        return blueprint_from_bytes(data, file=name, settings=settings)
    except BlueprintError as exc:
        raise InputError(str(exc)) from None


def version_note(version: DraftVersion) -> str:
    """What a version is, in words: its note, else how it was made."""
    if version.note:
        return version.note
    return "Edits (typing)" if version.kind == "edit" else "Saved"
