"""Draft versions: the typed row, and the rule that turns a stream of saves into versions.

Every save of a draft keeps its text as a version, coalesced so that typing makes a version
per pause, not per key. A save of text `new` over the latest version `last`:

1. no version yet: the text becomes version 1;
2. the same text as `last`: nothing new (an explicit save marks `last` as kept: `seal`);
3. an explicit save (a save under a name, a restore, opening a file or an example, starting
   a run): a new version;
4. `last` is kept (not an edit), or its last change is `pause_s` seconds old or more
   (`DEFAULT_VERSION_PAUSE_S`, a pause in editing): a new version;
5. the save removes more than `REMOVED_LIMIT` characters of `last` (a paste over it, a cut,
   a deleted block): a new version, so the text it replaced stays a version;
6. otherwise the save amends `last` (the same burst of typing).

Nothing is ever deleted: restoring a version saves its text as a new version.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from engine.settings import DEFAULT_VERSION_PAUSE_S

__all__ = [
    "DEFAULT_VERSION_PAUSE_S",
    "REMOVED_LIMIT",
    "DraftVersion",
    "VersionAction",
    "VersionKind",
    "removed_chars",
    "version_action",
]

REMOVED_LIMIT = 40
"""A save that removes more characters than this from the latest version starts a new one."""

VersionKind = Literal["edit", "kept"]
"""`edit`: made by typing, amended while the typing goes on; `kept`: an explicit save, never amended."""

VersionAction = Literal["none", "seal", "amend", "new"]
"""What a save does to the versions of its draft (see the module doc)."""


@dataclass(frozen=True)
class DraftVersion:
    """One version of a draft (its text is read with `Store.draft_version_text`).

    Attributes:
        draft_id: The draft.
        number: 1, 2, 3… in the order the versions were made.
        title: The blueprint's title in this version, if it has one.
        size: Its length in characters.
        kind: `edit` (typing, coalesced) or `kept` (an explicit save).
        note: Why it was kept, in words (`Restored version 2`), or None.
        author: Who made it (an e-mail in team mode), if known.
        created_at: When it was made (ISO-8601, UTC).
        updated_at: Its last change (typing amends an `edit` version until a pause).
    """

    draft_id: str
    number: int
    title: str | None
    size: int
    kind: VersionKind
    note: str | None
    author: str | None
    created_at: str
    updated_at: str


def removed_chars(old: str, new: str) -> int:
    """How many characters of `old` the edit to `new` removed (or replaced).

    Exact for one contiguous edit (what one paste or one burst of typing makes); for several
    edits far apart it counts the text between them too, so it errs towards a new version.
    """
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return len(old) - start - end


def version_action(
    last: tuple[str, VersionKind, datetime] | None,
    new: str,
    at: datetime,
    *,
    explicit: bool,
    pause_s: float = DEFAULT_VERSION_PAUSE_S,
) -> VersionAction:
    """What a save of `new` at `at` does, given the latest version `(text, kind, updated_at)`."""
    if last is None:
        return "new"
    text, kind, updated = last
    if text == new:
        return "seal" if explicit and kind == "edit" else "none"
    if explicit or kind != "edit" or (at - updated).total_seconds() >= pause_s:
        return "new"
    return "new" if removed_chars(text, new) > REMOVED_LIMIT else "amend"
