"""The store's queries in SQL both backends run; a backend supplies connections and errors."""

from __future__ import annotations

import hashlib
import json
import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import astuple
from datetime import UTC, datetime
from typing import Any

from engine.jsonfast import loads
from engine.store.conversations import ConversationQueries
from engine.store.drafts import DraftQueries
from engine.store.members import MemberQueries
from engine.store.migrations import now
from engine.store.preferences import PreferenceQueries
from engine.store.reviews import ReviewQueries
from engine.store.rows import (
    CallCost,
    CallRow,
    CellRow,
    JudgmentRow,
    ModelTotals,
    RunRecord,
    RunStatus,
    RunTotals,
    new_run_id,
)
from engine.store.share_links import Audience, ShareLink, new_share_token
from engine.store.writer import (
    CALL_COLUMNS,
    CELL_COLUMNS,
    JUDGMENT_COLUMNS,
    TOTALS_SET,
    totals_values,
)

__all__ = ["SQLStore", "quote"]


def quote(name: str) -> str:
    """A table or column name as a quoted SQL identifier (valid on SQLite and PostgreSQL)."""
    return '"' + name.replace('"', '""') + '"'


def _run(row: tuple[Any, ...], names: list[str]) -> RunRecord:
    data = dict(zip(names, row, strict=True))
    data["options"] = json.loads(data["options"] or "{}")
    data["summary"] = json.loads(data["summary"]) if data.get("summary") else None
    return RunRecord.model_validate(data)  # extra columns are dropped


_SHARE_COLUMNS = "token, run_id, audience, created_at, expires_at, revoked_at, created_by"


class SQLStore(
    DraftQueries, ConversationQueries, ReviewQueries, PreferenceQueries, MemberQueries, ABC
):
    """The `engine.store.base.Store` contract in SQL with `?` placeholders, for any backend."""

    # `location` and `_query` (one statement, its own transaction) are a backend's, declared
    # in `DraftQueries`.

    # --- the whole store, table by table (for `blueprint db copy`) ----------------------

    @abstractmethod
    def table_graph(self) -> dict[str, set[str]]:
        """Every data table (not the migration log) and the tables its foreign keys name."""

    @abstractmethod
    def table_columns(self, table: str) -> list[str]:
        """The columns of `table`, in order."""

    @abstractmethod
    def stream(self, sql: str, size: int = 1000) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of a query without parameters, in batches of at most `size`."""

    @abstractmethod
    def load(
        self, tables: Iterable[tuple[str, list[str], Iterable[list[tuple[Any, ...]]]]]
    ) -> None:
        """Insert batches of rows into tables, all in one transaction (all or nothing).

        Raises:
            StoreError: A row could not be written; nothing was.
        """

    def count_rows(self, table: str) -> int:
        """The number of rows in `table`."""
        return int(self._read(f"SELECT COUNT(*) FROM {quote(table)}")[0][0])

    def _write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        self._query(sql, params, writing=True)

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._query(sql, params)[1]

    def applied_migrations(self) -> list[str]:
        """The names of the migrations applied, in order."""
        return [str(r[0]) for r in self._read("SELECT name FROM schema_migrations ORDER BY name")]

    # --- blueprints (drafts: `engine.store.drafts`) -------------------------------------------------------

    def save_blueprint(self, text: str, title: str | None, source: str | None) -> str:
        """Store blueprint text by content hash; return the hash."""
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        self._write(
            "INSERT INTO blueprints(hash, title, source, text, created_at) VALUES (?,?,?,?,?) "
            "ON CONFLICT (hash) DO NOTHING",
            (digest, title, source, text, now()),
        )
        return digest

    def blueprint_text(self, digest: str) -> str | None:
        """Return stored blueprint text by hash."""
        rows = self._read("SELECT text FROM blueprints WHERE hash = ?", (digest,))
        return str(rows[0][0]) if rows else None

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
        run_id = run_id or new_run_id()
        self._write(
            "INSERT INTO runs(id, blueprint_hash, title, config_id, status, options, total_calls, "
            "total_cells, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                run_id,
                blueprint_hash,
                title,
                config_id,
                "planned",
                json.dumps(options),
                total_calls,
                total_cells,
                now(),
            ),
        )
        return run_id

    def _runs(self, sql: str, params: tuple[Any, ...]) -> list[RunRecord]:
        names, rows = self._query(sql, params)
        return [_run(r, names) for r in rows]

    def get_run(self, run_id: str) -> RunRecord | None:
        """Return a run, or None."""
        runs = self._runs("SELECT * FROM runs WHERE id = ?", (run_id,))
        return runs[0] if runs else None

    def list_runs(self, limit: int = 200) -> list[RunRecord]:
        """Return runs, newest first."""
        return self._runs("SELECT * FROM runs ORDER BY created_at DESC LIMIT ?", (limit,))

    records_pid = True
    """Whether a run's process id means something to readers (the store is on one machine)."""

    def _pid(self, pid: int | None) -> int | None:
        if not self.records_pid:
            return None
        return pid if pid is not None else os.getpid()

    def set_run_status(
        self, run_id: str, status: RunStatus, error: str | None = None, *, pid: int | None = None
    ) -> None:
        """Set a run's status (and error), stamping start and finish times."""
        stamp = now()
        if status == "running":
            self._write(
                "UPDATE runs SET status=?, error=NULL, started_at=COALESCE(started_at, ?), "
                "heartbeat_at=?, pid=? WHERE id=?",
                (status, stamp, stamp, self._pid(pid), run_id),
            )
        else:
            self._write(
                "UPDATE runs SET status=?, error=?, finished_at=?, heartbeat_at=NULL WHERE id=?",
                (status, error, stamp, run_id),
            )

    def request_stop(self, run_id: str) -> None:
        """Ask a run to stop, wherever it runs (its worker reads this flag)."""
        self._write(
            "UPDATE runs SET stop_requested_at=COALESCE(stop_requested_at, ?) WHERE id=?",
            (now(), run_id),
        )

    def stop_requested(self, run_id: str) -> bool:
        """Whether someone asked the run to stop (`request_stop`)."""
        rows = self._read("SELECT stop_requested_at FROM runs WHERE id=?", (run_id,))
        return bool(rows and rows[0][0])

    def touch_run(self, run_id: str) -> None:
        """Mark a running run alive and count its finished cells and calls from the store.

        For runs executed in parts by several workers, whose own counters each see a part.
        """
        self._write(
            "UPDATE runs SET heartbeat_at=?, "
            "done_cells=(SELECT COUNT(*) FROM cells WHERE run_id=?), "
            "done_calls=(SELECT COALESCE(SUM(1 + reuses), 0) FROM calls "
            "WHERE run_id=? AND error IS NULL) WHERE id=?",
            (now(), run_id, run_id, run_id),
        )

    def save_totals(self, run_id: str, totals: RunTotals) -> None:
        """Store a run's counters."""
        self._write(f"UPDATE runs SET {TOTALS_SET} WHERE id=?", (*totals_values(totals), run_id))

    def complete_run(
        self,
        run_id: str,
        totals: RunTotals,
        summary: dict[str, Any],
        comparison_path: str | None,
    ) -> None:
        """Mark a run `completed` with its counters, per-model summary and comparison file."""
        self._write(
            f"UPDATE runs SET {TOTALS_SET}, comparison_path=?, summary=?, status='completed', "
            "error=NULL, finished_at=?, heartbeat_at=NULL WHERE id=?",
            (*totals_values(totals), comparison_path, json.dumps(summary), now(), run_id),
        )

    def save_executive_summary(self, run_id: str, summary: dict[str, Any]) -> None:
        """Store (or replace) a run's executive summary, Weval's `executiveSummary` object."""
        self._write(
            "INSERT INTO executive_summaries (run_id, summary, created_at) VALUES (?,?,?) "
            "ON CONFLICT (run_id) DO UPDATE SET summary=excluded.summary, "
            "created_at=excluded.created_at",
            (run_id, json.dumps(summary), now()),
        )

    def executive_summary(self, run_id: str) -> dict[str, Any] | None:
        """Return a run's executive summary, or None when none was written."""
        rows = self._read("SELECT summary FROM executive_summaries WHERE run_id=?", (run_id,))
        if not rows:
            return None
        value = json.loads(rows[0][0])
        return value if isinstance(value, dict) else None

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
        where, params = "run_id=?", [run_id]
        if prompt_id is not None:
            where += " AND prompt_id=?"
            params.append(prompt_id)
        rows = self._read(
            f"SELECT {CELL_COLUMNS} FROM cells WHERE {where} "
            "ORDER BY prompt_id, model_id LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [CellRow(*r) for r in rows]

    def cell_keys(self, run_id: str) -> set[tuple[str, str]]:
        """Return the (prompt id, effective model id) of every finished cell of a run."""
        rows = self._read("SELECT prompt_id, model_id FROM cells WHERE run_id=?", (run_id,))
        return {(str(p), str(m)) for p, m in rows}

    def cell_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Return `{base model: {status: number of cells}}` for a run's finished cells."""
        rows = self._read(
            "SELECT base_model, status, COUNT(*) FROM cells WHERE run_id=? "
            "GROUP BY base_model, status",
            (run_id,),
        )
        out: dict[str, dict[str, int]] = {}
        for model, status, n in rows:
            out.setdefault(str(model), {})[str(status)] = int(n)
        return out

    def model_totals(self, run_id: str) -> dict[str, ModelTotals]:
        """Return per effective model: cells, tokens in/out, cost (USD) and mean latency (ms)."""
        rows = self._read(
            "SELECT model_id, COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(cost_usd), "
            "AVG(latency_ms) FROM cells WHERE run_id=? GROUP BY model_id",
            (run_id,),
        )
        return {
            str(m): ModelTotals(int(n), int(i or 0), int(o or 0), float(c or 0), float(lat or 0))
            for m, n, i, o, c, lat in rows
        }

    def call_costs(self, run_id: str) -> list[CallCost]:
        """Return a run's logged calls summed per kind, model and cell model (its cost).

        Calls answered from the cache cost nothing; a paid call with no recorded cost has no
        known price (`CallCost.unpriced`); failed calls are left out.
        """
        rows = self._read(
            "SELECT kind, model_id, cell_model, "
            "SUM(CASE WHEN cached = 0 THEN COALESCE(cost_usd, 0) ELSE 0 END), "
            "SUM(CASE WHEN cached = 0 AND cost_usd IS NULL THEN 1 ELSE 0 END) "
            "FROM calls WHERE run_id=? AND error IS NULL GROUP BY kind, model_id, cell_model",
            (run_id,),
        )
        return [
            CallCost(str(k), str(m), None if c is None else str(c), float(usd or 0), int(n or 0))
            for k, m, c, usd, n in rows
        ]

    def run_calls(self, run_id: str, kind: str | None = None) -> dict[str, CallRow]:
        """Return the logged calls of a run by key, finished or failed (to resume).

        With `kind` (`generate`, `judge`, `extract`, `embed`), only the calls of that kind.
        """
        if kind is None:
            rows = self._read(f"SELECT {CALL_COLUMNS} FROM calls WHERE run_id=?", (run_id,))
        else:
            rows = self._read(
                f"SELECT {CALL_COLUMNS} FROM calls WHERE run_id=? AND kind=?", (run_id, kind)
            )
        calls: dict[str, CallRow] = {}
        for r in rows:
            values = list(r)
            values[8] = bool(values[8])  # `cached`: 0/1 in SQLite; a bool as the row is built
            call = CallRow(*values)
            calls[call.key] = call
        return calls

    def judgments(self, run_id: str, prompt_id: str, model_id: str) -> list[JudgmentRow]:
        """Return the raw judgments of one cell."""
        rows = self._read(
            f"SELECT {JUDGMENT_COLUMNS} FROM judgments WHERE run_id=? AND prompt_id=? "
            "AND model_id=? ORDER BY point_index, judge_id",
            (run_id, prompt_id, model_id),
        )
        return [JudgmentRow(*r) for r in rows]

    # --- cache ------------------------------------------------------------------------

    def cache_get(self, key: str) -> dict[str, Any] | None:
        """Return a cached answer (decoded), or None."""
        return self.cache_lookup([key]).get(key)

    def cache_lookup(self, keys: list[str]) -> dict[str, dict[str, Any]]:
        """Return the cached answers (decoded) of those `keys` that are cached."""
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT key, value FROM cache WHERE key IN ({marks})"
            for key, value in self._read(sql, tuple(chunk)):
                data = loads(value)
                if isinstance(data, dict):
                    found[str(key)] = data
        return found

    # --- share links --------------------------------------------------------------------

    def create_share_link(
        self,
        run_id: str,
        audience: Audience,
        expires_at: datetime | None = None,
        created_by: str | None = None,
    ) -> ShareLink:
        """Make a new share link (a fresh random token) to a run; return it."""
        expires = expires_at.astimezone(UTC).isoformat(timespec="seconds") if expires_at else None
        link = ShareLink(new_share_token(), run_id, audience, now(), expires, None, created_by)
        self._write(
            f"INSERT INTO share_links({_SHARE_COLUMNS}) VALUES (?,?,?,?,?,?,?)", astuple(link)
        )
        return link

    def share_links(self, run_id: str) -> list[ShareLink]:
        """Return a run's share links, newest first (revoked and expired ones included)."""
        rows = self._read(
            f"SELECT {_SHARE_COLUMNS} FROM share_links WHERE run_id=? "
            "ORDER BY created_at DESC, token",
            (run_id,),
        )
        return [ShareLink(*r) for r in rows]

    def share_link(self, token: str) -> ShareLink | None:
        """Resolve a link's token (whatever its state), or None when no link has it."""
        rows = self._read(f"SELECT {_SHARE_COLUMNS} FROM share_links WHERE token=?", (token,))
        return ShareLink(*rows[0]) if rows else None

    def revoke_share_link(self, token: str) -> ShareLink | None:
        """Revoke a link (kept, marked revoked); return it, or None when no link has it."""
        self._write(
            "UPDATE share_links SET revoked_at=? WHERE token=? AND revoked_at IS NULL",
            (now(), token),
        )
        return self.share_link(token)
