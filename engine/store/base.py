"""The store interface every backend implements (SQLite, PostgreSQL for teams), and `open_store`."""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from engine.errors import StoreError
from engine.store.conversations import ConversationStore
from engine.store.members import MemberStore
from engine.store.preferences import PreferenceRow
from engine.store.reviews import ReviewRow
from engine.store.rows import (
    CacheEntry,
    CallCost,
    CallRow,
    CellRow,
    DraftRow,
    JudgmentRow,
    ModelTotals,
    RunRecord,
    RunStatus,
    RunTotals,
    new_run_id,
)
from engine.store.share_links import Audience, ShareLink
from engine.store.versions import DEFAULT_VERSION_PAUSE_S, DraftVersion

__all__ = ["RunWriter", "Store", "new_run_id", "open_store"]


class RunWriter(Protocol):
    """Writes of a long run, applied in the background in small committed batches.

    Each method returns a future that resolves only after its write is committed (a finished
    call is on disk before it is counted); it fails with `StoreError` when the write failed.
    """

    def record_call(self, call: CallRow | None, cache: CacheEntry | None = None) -> Future[None]:
        """Log a call of a run (None: no run) and put its answer in the cache (if given)."""
        ...

    def record_reuse(self, run_id: str, key: str) -> Future[None]:
        """Count one more call of a run answered by its logged call `key` (cache or shared)."""
        ...

    def record_cell(self, cell: CellRow) -> Future[None]:
        """Record (or replace) a finished cell."""
        ...

    def record_judgment(self, judgment: JudgmentRow) -> Future[None]:
        """Record (or replace) one judge's answer about one point."""
        ...

    def heartbeat(self, run_id: str, totals: RunTotals) -> Future[None]:
        """Mark a running run alive and store its counters so far."""
        ...

    @property
    def usable(self) -> bool:
        """False when the writer could not open its connection: every write fails, make another."""
        ...

    def flushed(self) -> Future[None]:
        """A write of nothing that resolves once every write queued before it is committed."""
        ...

    async def committed(self, future: Future[None]) -> None:
        """Wait in the running event loop for `future`, a write of this writer, to resolve.

        Raises:
            StoreError: The write failed.
        """
        ...

    def close(self) -> None:
        """Commit what is queued and stop."""
        ...


class Store(MemberStore, ConversationStore, Protocol):
    """The system of record: drafts, blueprints, runs, cells, calls, judgments and the cache.

    Every statement against the tables lives in a backend; callers see typed rows only.
    Read and write methods raise `StoreError` (with a message that says what to do) when the
    store cannot be read or written.
    """

    @property
    def location(self) -> str:
        """Where the data lives (a file path or a database address without secrets)."""
        ...

    # --- schema ----------------------------------------------------------------------

    def applied_migrations(self) -> list[str]:
        """The names of the migrations applied, in order."""
        ...

    # --- blueprints and drafts -------------------------------------------------------

    def save_blueprint(self, text: str, title: str | None, source: str | None) -> str:
        """Store blueprint text by content hash; return the hash."""
        ...

    def blueprint_text(self, digest: str) -> str | None:
        """Return stored blueprint text by hash."""
        ...

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

        Versions are coalesced (`engine.store.versions`): typing amends the latest version
        until a pause of `pause_s` seconds, or an edit that removes much of it; an `explicit`
        save (a save under a name, a restore, an opened file, a run; `note` says why) always
        keeps a version of its own. The same text as the latest version adds none.
        """
        ...

    def draft(self, draft_id: str) -> str | None:
        """Return a draft's text (its latest version), if any."""
        ...

    def list_drafts(self, author: str | None = None) -> list[DraftRow]:
        """Return saved drafts, newest first, with their numbers of versions.

        With `author`, only that author's drafts (team mode: a draft belongs to its author).
        """
        ...

    def drafts_with_text(self, text: str, author: str | None = None) -> list[DraftRow]:
        """Return the drafts whose latest text is exactly `text`, newest first (of `author`)."""
        ...

    def draft_author(self, draft_id: str) -> tuple[bool, str | None]:
        """Return whether the draft exists, and its author (None when made in personal mode)."""
        ...

    def draft_versions(self, draft_id: str) -> list[DraftVersion]:
        """Return a draft's versions, newest first (empty for an unknown draft)."""
        ...

    def draft_version_text(self, draft_id: str, number: int) -> str | None:
        """Return the text of one version of a draft, or None when there is no such version."""
        ...

    # --- runs ------------------------------------------------------------------------

    def create_run(
        self,
        *,
        blueprint_hash: str,
        title: str | None,
        config_id: str | None,
        options: dict[str, Any],
        total_calls: int,
        total_cells: int,
        run_id: str | None = None,
    ) -> str:
        """Record a new run in status `planned`; return its id."""
        ...

    def get_run(self, run_id: str) -> RunRecord | None:
        """Return a run, or None."""
        ...

    def list_runs(self, limit: int = 200) -> list[RunRecord]:
        """Return runs, newest first."""
        ...

    def set_run_status(
        self, run_id: str, status: RunStatus, error: str | None = None, *, pid: int | None = None
    ) -> None:
        """Set a run's status (and error), stamping start and finish times.

        `running` records a first heartbeat and, where the store is on one machine (SQLite),
        the process (`pid`, default this one).
        """
        ...

    def request_stop(self, run_id: str) -> None:
        """Ask a run to stop, wherever it runs (its worker reads this flag)."""
        ...

    def stop_requested(self, run_id: str) -> bool:
        """Whether someone asked the run to stop (`request_stop`)."""
        ...

    def touch_run(self, run_id: str) -> None:
        """Mark a running run alive and count its finished cells and calls from the store."""
        ...

    def save_totals(self, run_id: str, totals: RunTotals) -> None:
        """Store a run's counters."""
        ...

    def complete_run(
        self,
        run_id: str,
        totals: RunTotals,
        summary: dict[str, Any],
        comparison_path: str | None,
    ) -> None:
        """Mark a run `completed` with its counters, per-model summary and comparison file.

        One write: the run is never seen completed without its summary.
        """
        ...

    def save_executive_summary(self, run_id: str, summary: dict[str, Any]) -> None:
        """Store (or replace) a run's executive summary, Weval's `executiveSummary` object."""
        ...

    def executive_summary(self, run_id: str) -> dict[str, Any] | None:
        """Return a run's executive summary, or None when none was written."""
        ...

    # --- cells, calls, judgments -------------------------------------------------------

    def cells(
        self,
        run_id: str,
        *,
        prompt_id: str | None = None,
        offset: int = 0,
        limit: int = 1_000_000,
    ) -> list[CellRow]:
        """Return a page of a run's cells (or one prompt's), ordered by prompt and model."""
        ...

    def cell_keys(self, run_id: str) -> set[tuple[str, str]]:
        """Return the (prompt id, effective model id) of every finished cell of a run."""
        ...

    def cell_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Return `{base model: {status: number of cells}}` for a run's finished cells."""
        ...

    def model_totals(self, run_id: str) -> dict[str, ModelTotals]:
        """Return per effective model: cells, tokens in/out, cost (USD) and mean latency (ms)."""
        ...

    def call_costs(self, run_id: str) -> list[CallCost]:
        """Return a run's logged calls summed per kind, model and cell model (its cost)."""
        ...

    def run_calls(self, run_id: str, kind: str | None = None) -> dict[str, CallRow]:
        """Return the logged calls of a run by key, finished or failed (to resume).

        With `kind` (`generate`, `judge`, `extract`, `embed`), only the calls of that kind.
        """
        ...

    def judgments(self, run_id: str, prompt_id: str, model_id: str) -> list[JudgmentRow]:
        """Return the raw judgments of one cell."""
        ...

    # --- cache ------------------------------------------------------------------------

    def cache_get(self, key: str) -> dict[str, Any] | None:
        """Return a cached answer (decoded), or None."""
        ...

    def cache_lookup(self, keys: list[str]) -> dict[str, dict[str, Any]]:
        """Return the cached answers (decoded) of those `keys` that are cached."""
        ...

    def writer(self) -> RunWriter:
        """Start a background writer for a run's many small writes."""
        ...

    # --- share links --------------------------------------------------------------------

    def create_share_link(
        self,
        run_id: str,
        audience: Audience,
        expires_at: datetime | None = None,
        created_by: str | None = None,
    ) -> ShareLink:
        """Make a new share link (a fresh random token) to a run; return it.

        Raises:
            StoreError: The run does not exist, or the store cannot be written.
        """
        ...

    def share_links(self, run_id: str) -> list[ShareLink]:
        """Return a run's share links, newest first (revoked and expired ones included)."""
        ...

    def share_link(self, token: str) -> ShareLink | None:
        """Resolve a link's token (whatever its state), or None when no link has it."""
        ...

    def revoke_share_link(self, token: str) -> ShareLink | None:
        """Revoke a link (kept, marked revoked); return it, or None when no link has it."""
        ...

    # --- review verdicts (`engine.store.reviews`) ---------------------------------------

    def save_reviews(self, reviews: Sequence[ReviewRow]) -> None:
        """Record verdicts; each replaces its author's earlier verdict on the same point.

        Raises:
            ValueError: A comment is longer than 2,000 characters (nothing is saved).
        """
        ...

    def delete_reviews(self, keys: Collection[tuple[str, str, str, str]], author: str) -> int:
        """Withdraw an author's verdicts on the points `keys` (see `ReviewRow.key`); count them."""
        ...

    def reviews(self, prompt_ids: Collection[str]) -> list[ReviewRow]:
        """Return every verdict on answers to these prompts, oldest first.

        A verdict is keyed by its answer's text, not its run: match it to a run's points with
        `engine.review.match_reviews`.
        """
        ...

    # --- preferences between two answers (`engine.store.preferences`) --------------------

    def save_preference(self, row: PreferenceRow) -> None:
        """Record a pick; it replaces the same reviewer's earlier pick on the same pair."""
        ...

    def preferences(self, run_id: str) -> list[PreferenceRow]:
        """Every pick on a run's answers, oldest first."""
        ...


def open_store(location: Path | str | None = None) -> Store:
    """Open (and migrate) the store named by `location`, else by `BLUEPRINT_DATABASE_URL`.

    A `postgresql://` (or `postgres://`) address opens the PostgreSQL store; anything else is
    a SQLite file. Without a location: `BLUEPRINT_DATABASE_URL` when it is set, else the
    SQLite file `$BLUEPRINT_HOME/studio.db`.

    Raises:
        StoreError: The store cannot be opened; the message says what to do.
    """
    if location is None:
        location = os.environ.get("BLUEPRINT_DATABASE_URL", "").strip() or None
        if location is not None and not location.startswith(("postgresql://", "postgres://")):
            raise StoreError(
                "BLUEPRINT_DATABASE_URL: not a PostgreSQL address. Write "
                "postgresql://USER@HOST:PORT/DATABASE, or unset it to use the personal store."
            )
    if isinstance(location, str) and location.startswith(("postgresql://", "postgres://")):
        from engine.store.postgres import PostgresStore

        return PostgresStore(location)
    from engine.store.sqlite import SQLiteStore

    return SQLiteStore(location)
