"""Drafts for the studio's pages: which draft to open text in, uploads, and a run's version.

Pure: no Streamlit import. The pages pass the store, the new id and who is editing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import PurePath

from engine.blueprint.depth import check_nesting
from engine.blueprint.inputs import blueprint_from_bytes
from engine.blueprint.text import mask_unicode_breaks
from engine.compare.load import MAX_FILE_BYTES
from engine.errors import BlueprintError, InputError
from engine.settings import Settings
from engine.store import DraftRow, DraftVersion, RunRecord, Store

__all__ = [
    "COMPARISON_UPLOAD_MB",
    "OPENABLE",
    "SAVED_PREFIX",
    "Owner",
    "draft_for_run",
    "may_open",
    "open_as_draft",
    "read_upload",
    "reusable_draft",
    "upload_limit_mb",
    "version_note",
    "visible_drafts",
]

SAVED_PREFIX = "saved:"
"""Drafts saved under a name have the id `saved:<name>`; the others are autosaved drafts."""

OPENABLE = ("yml", "yaml", "json")
"""The file types the editor opens from disk."""

COMPARISON_UPLOAD_MB = MAX_FILE_BYTES // (1024 * 1024)
"""The largest comparison file the Results page opens, in MB (as `blueprint compare`)."""


def upload_limit_mb(settings: Settings) -> int:
    """The largest blueprint file the editor opens, in whole MB: the engine's input limit."""
    return max(1, math.ceil(settings.max_input_mb))


@dataclass(frozen=True)
class Owner:
    """Who is editing, as far as drafts go.

    Attributes:
        team: True in team mode, where a draft belongs to its author.
        email: The member's e-mail (team mode).
        admin: True for an admin, who also sees the drafts made before logins (no author:
            made in personal mode and copied in with `blueprint db copy`).
    """

    team: bool = False
    email: str | None = None
    admin: bool = False

    def owns(self, author: str | None) -> bool:
        """Whether a draft of `author` is this person's to list, open and edit."""
        if not self.team:
            return True
        if author is None:
            return self.admin
        return author == self.email


PERSONAL = Owner()
"""Personal mode: every draft is the one user's."""


def visible_drafts(store: Store, owner: Owner = PERSONAL) -> list[DraftRow]:
    """The drafts this person may list, newest first."""
    if not owner.team:
        return store.list_drafts()
    if owner.admin:
        return [row for row in store.list_drafts() if owner.owns(row.author)]
    return store.list_drafts(author=owner.email) if owner.email else []


def may_open(store: Store, draft_id: str, owner: Owner = PERSONAL) -> bool:
    """Whether the draft exists and is this person's (team mode: its author's only)."""
    exists, author = store.draft_author(draft_id)
    return exists and owner.owns(author)


def reusable_draft(store: Store, text: str, owner: Owner = PERSONAL) -> str | None:
    """An autosaved draft that holds exactly `text` and was never edited, to open it again.

    Opening the same example (or a blank blueprint) twice then leaves one draft, not two.
    Only this person's drafts are reused.
    """
    author = owner.email if owner.team else None
    for row in store.drafts_with_text(text, author=author):
        if not row.id.startswith(SAVED_PREFIX) and row.versions <= 1 and owner.owns(row.author):
            return row.id
    return None


def open_as_draft(
    store: Store,
    text: str,
    title: str | None,
    *,
    new_id: str,
    note: str,
    owner: Owner = PERSONAL,
) -> str:
    """Keep `text` as a draft of its own (an untouched one with the same text, else `new_id`).

    Its first version is kept (explicit), so typing over it starts a new version. The draft
    is `owner`'s. Returns the draft's id.
    """
    draft = reusable_draft(store, text, owner) or new_id
    store.save_draft(draft, text, title, explicit=True, note=note, author=owner.email)
    return draft


def draft_for_run(
    store: Store,
    run: RunRecord,
    text: str,
    *,
    new_id: str,
    owner: Owner = PERSONAL,
) -> tuple[str, int]:
    """The draft and version that hold the exact text a run used, made when needed.

    The draft the run came from (when the run knows it, the store still has it and it is
    `owner`'s) gets the text as a new version, unless its latest version is that text
    already; otherwise the text opens as a draft of `owner`'s own (a teammate's run never
    adds versions to another member's draft). Returns `(draft id, version number)`.
    """
    when = run.created_at[:16].replace("T", " ")
    note = f"The text of the run of {when} UTC"
    known = run.options.get("draft")
    came_from = known[0] if isinstance(known, list) and known else None
    if isinstance(came_from, str) and may_open(store, came_from, owner):
        number = store.save_draft(
            came_from, text, run.title, explicit=True, note=note, author=owner.email
        )
        return came_from, number
    draft = open_as_draft(store, text, run.title, new_id=new_id, note=note, owner=owner)
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
        text = blueprint_from_bytes(data, file=name, settings=settings)
        check_nesting(mask_unicode_breaks(text)[0])  # lines as the loader counts them
    except BlueprintError as exc:
        if exc.file is None:  # the nesting check's error: name the file
            raise InputError(f"{name}:{exc.line}:{exc.column}: {exc.message}") from None
        raise InputError(str(exc)) from None
    return text


def version_note(version: DraftVersion) -> str:
    """What a version is, in words: its note, else how it was made."""
    if version.note:
        return version.note
    return "Edits (typing)" if version.kind == "edit" else "Saved"
