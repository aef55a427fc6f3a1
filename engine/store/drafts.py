"""The store's queries about studio drafts and their versions (portable SQL, both backends)."""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from datetime import UTC, datetime
from typing import Any, cast

from engine.errors import StoreError
from engine.store.rows import DraftRow
from engine.store.versions import (
    DEFAULT_VERSION_PAUSE_S,
    DraftVersion,
    VersionKind,
    version_action,
)

__all__ = ["DraftQueries"]

# The author is set when the draft is made and never changed by later saves.
_SAVE_DRAFT = (
    "INSERT INTO drafts(id, title, text, updated_at, author) VALUES (?,?,?,?,?) "
    "ON CONFLICT (id) DO UPDATE SET title=excluded.title, text=excluded.text, "
    "updated_at=excluded.updated_at"
)
_DRAFT_ROWS = (
    "SELECT d.id, d.title, d.updated_at, "
    "(SELECT COUNT(*) FROM draft_versions v WHERE v.draft_id = d.id), d.author FROM drafts d"
)
_LAST = (
    "SELECT number, text, kind, updated_at FROM draft_versions WHERE draft_id=? "
    "ORDER BY number DESC LIMIT 1"
)
# The next number is computed in the statement; two savers racing for it: one insert wins,
# the other inserts nothing (ON CONFLICT) and tries again.
_NEW = (
    "INSERT INTO draft_versions(draft_id, number, text, title, kind, note, author, created_at, "
    "updated_at) SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM draft_versions "
    "WHERE draft_id=? ON CONFLICT (draft_id, number) DO NOTHING RETURNING number"
)
_AMEND = (
    "UPDATE draft_versions SET text=?, title=?, author=COALESCE(?, author), updated_at=? "
    "WHERE draft_id=? AND number=? AND updated_at=? RETURNING number"
)
_SEAL = (
    "UPDATE draft_versions SET kind='kept', note=COALESCE(note, ?), author=COALESCE(author, ?) "
    "WHERE draft_id=? AND number=? RETURNING number"
)
_VERSIONS = (
    "SELECT draft_id, number, title, LENGTH(text), kind, note, author, created_at, updated_at "
    "FROM draft_versions WHERE draft_id=? ORDER BY number DESC"
)
# A lost race means another save of the same draft just succeeded; the loser waits a random
# moment that grows with each loss (so two savers stop colliding) and tries again.
_TRIES = 40
_BACKOFF_S = 0.002


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def _moment(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class DraftQueries(ABC):
    """Drafts and their versions, over a backend's `_query` (see `engine.store.base.Store`)."""

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the data lives (a file path or a database address without secrets)."""

    @abstractmethod
    def _query(
        self, sql: str, params: tuple[Any, ...] = (), *, writing: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one statement in its own transaction; return the column names and the rows.

        Raises:
            StoreError: The statement failed; the message says what to do.
        """

    def save_draft(
        self,
        draft_id: str,
        text: str,
        title: str | None = None,
        *,
        explicit: bool = False,
        note: str | None = None,
        author: str | None = None,
        pause_s: float = DEFAULT_VERSION_PAUSE_S,
    ) -> int:
        """Create or replace a studio draft and keep its text as a version; return its number.

        Versions are coalesced by `engine.store.versions.version_action`: typing amends the
        latest version until a pause of `pause_s` seconds; an `explicit` save (with `note`
        saying why) always keeps a version of its own.

        Raises:
            StoreError: The store cannot be written, or other saves of the same draft kept
                winning the race for the next version number.
        """
        for attempt in range(_TRIES):
            if attempt:
                time.sleep(random.uniform(0, _BACKOFF_S * min(attempt, 10)))
            rows = self._query(_LAST, (draft_id,))[1]
            last = rows[0] if rows else None
            at = datetime.now(UTC)
            action = version_action(
                (str(last[1]), cast("VersionKind", last[2]), _moment(str(last[3])))
                if last
                else None,
                text,
                at,
                explicit=explicit,
                pause_s=pause_s,
            )
            if last is not None and action == "none":
                return int(last[0])
            stamp = _stamp(at)
            self._query(_SAVE_DRAFT, (draft_id, title, text, stamp, author), writing=True)
            if last is not None and action == "seal":
                self._query(_SEAL, (note, author, draft_id, last[0]), writing=True)
                return int(last[0])
            if last is not None and action == "amend":
                params = (text, title, author, stamp, draft_id, last[0], last[3])
                if self._query(_AMEND, params, writing=True)[1]:
                    return int(last[0])
                continue
            kind: VersionKind = "kept" if explicit else "edit"
            values = (draft_id, text, title, kind, note, author, stamp, stamp, draft_id)
            done = self._query(_NEW, values, writing=True)[1]
            if done:
                return int(done[0][0])
        raise StoreError(
            f"{self.location}: the draft {draft_id} is being saved from elsewhere at the same "
            "time, so this version could not be numbered. Save again."
        )

    def draft(self, draft_id: str) -> str | None:
        """Return a draft's text (its latest version), if any."""
        rows = self._query("SELECT text FROM drafts WHERE id = ?", (draft_id,))[1]
        return str(rows[0][0]) if rows else None

    def list_drafts(self, author: str | None = None) -> list[DraftRow]:
        """Return saved drafts, newest first, with their numbers of versions.

        With `author`, only that author's drafts (team mode); without, every draft.
        """
        where, params = ("WHERE d.author = ? ", (author,)) if author is not None else ("", ())
        rows = self._query(f"{_DRAFT_ROWS} {where}ORDER BY d.updated_at DESC, d.id", params)[1]
        return [DraftRow(str(i), t, str(u), int(n), a) for i, t, u, n, a in rows]

    def drafts_with_text(self, text: str, author: str | None = None) -> list[DraftRow]:
        """Return the drafts whose latest text is exactly `text`, newest first (of `author`)."""
        where, params = (
            ("AND d.author = ? ", (text, author)) if author is not None else ("", (text,))
        )
        rows = self._query(
            f"{_DRAFT_ROWS} WHERE d.text = ? {where}ORDER BY d.updated_at DESC", params
        )[1]
        return [DraftRow(str(i), t, str(u), int(n), a) for i, t, u, n, a in rows]

    def draft_author(self, draft_id: str) -> tuple[bool, str | None]:
        """Return whether the draft exists, and its author (None when made in personal mode)."""
        rows = self._query("SELECT author FROM drafts WHERE id = ?", (draft_id,))[1]
        return (True, rows[0][0]) if rows else (False, None)

    def draft_versions(self, draft_id: str) -> list[DraftVersion]:
        """Return a draft's versions, newest first (empty for an unknown draft)."""
        rows = self._query(_VERSIONS, (draft_id,))[1]
        return [
            DraftVersion(str(d), int(n), t, int(s or 0), k, note, a, str(c), str(u))
            for d, n, t, s, k, note, a, c, u in rows
        ]

    def draft_version_text(self, draft_id: str, number: int) -> str | None:
        """Return the text of one version of a draft, or None when there is no such version."""
        rows = self._query(
            "SELECT text FROM draft_versions WHERE draft_id=? AND number=?", (draft_id, number)
        )[1]
        return str(rows[0][0]) if rows else None
