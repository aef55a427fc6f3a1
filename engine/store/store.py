"""The SQLite store: runs, cells, calls, judgments, caches and drafts in `$BLUEPRINT_HOME`.

Readers open one short connection per operation. Long runs write through `StoreWriter`, a
background thread with its own connection that commits in small batches; each write's
future resolves only after its batch is committed, so a finished call is on disk before it
is counted.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from engine.errors import StoreError
from engine.settings import home_dir
from engine.store.migrations import migrate, now

__all__ = ["RunRecord", "Store", "StoreWriter", "new_run_id"]

STALE_AFTER_S = 15.0
_TOTALS = ("cells", "input_tokens", "output_tokens", "cost_usd", "latency_ms")


def new_run_id() -> str:
    """Return an unguessable run id (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


class RunRecord(BaseModel):
    """One run as stored."""

    model_config = ConfigDict(extra="ignore")

    id: str
    blueprint_hash: str
    title: str | None
    config_id: str | None
    status: str
    options: dict[str, Any]
    total_calls: int
    done_calls: int
    cached_calls: int
    failed_calls: int
    total_cells: int
    done_cells: int
    cost_usd: float
    input_tokens: int
    output_tokens: int
    created_at: str
    started_at: str | None
    finished_at: str | None
    heartbeat_at: str | None
    pid: int | None
    error: str | None
    comparison_path: str | None
    summary: dict[str, Any] | None

    @property
    def live_status(self) -> str:
        """The status as a reader should show it: a `running` run with no heartbeat is interrupted."""
        if self.status != "running":
            return self.status
        if self.heartbeat_at is None or (self.pid is not None and not _alive(self.pid)):
            return "interrupted"
        beat = datetime.fromisoformat(self.heartbeat_at)
        age = (datetime.now(UTC) - beat).total_seconds()
        return "running" if age < STALE_AFTER_S else "interrupted"

    @property
    def resumable(self) -> bool:
        """Whether `blueprint run --resume` can finish this run."""
        return self.live_status in ("interrupted", "stopped", "failed")


def _alive(pid: int) -> bool:
    """Whether a process with this id exists on this machine (the store is local)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.row_factory = sqlite3.Row
    return conn


class Store:
    """The system of record: one SQLite file, opened per operation."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else home_dir() / "studio.db"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.connect() as conn:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                migrate(conn)
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the store at {self.path}: {exc}") from None

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """Yield a short-lived connection (autocommit; use BEGIN for transactions)."""
        conn = _connect(self.path)
        try:
            yield conn
        finally:
            conn.close()

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one write statement in its own transaction."""
        with self.connect() as conn:
            conn.execute(sql, params)

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """Run one read query."""
        with self.connect() as conn:
            return list(conn.execute(sql, params))

    # --- blueprints and drafts -------------------------------------------------------

    def save_blueprint(self, text: str, title: str | None, source: str | None) -> str:
        """Store blueprint text by content hash; return the hash."""
        import hashlib

        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        self.execute(
            "INSERT OR IGNORE INTO blueprints(hash, title, source, text, created_at) VALUES (?,?,?,?,?)",
            (digest, title, source, text, now()),
        )
        return digest

    def blueprint_text(self, digest: str) -> str | None:
        """Return stored blueprint text by hash."""
        rows = self.query("SELECT text FROM blueprints WHERE hash = ?", (digest,))
        return str(rows[0]["text"]) if rows else None

    def save_draft(self, draft_id: str, text: str, title: str | None = None) -> None:
        """Create or replace a studio draft."""
        self.execute(
            "INSERT OR REPLACE INTO drafts(id, title, text, updated_at) VALUES (?,?,?,?)",
            (draft_id, title, text, now()),
        )

    def draft(self, draft_id: str) -> str | None:
        """Return a draft's text, if any."""
        rows = self.query("SELECT text FROM drafts WHERE id = ?", (draft_id,))
        return str(rows[0]["text"]) if rows else None

    def list_drafts(self) -> list[dict[str, Any]]:
        """Return saved drafts, newest first."""
        rows = self.query("SELECT id, title, updated_at FROM drafts ORDER BY updated_at DESC")
        return [dict(r) for r in rows]

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
        self.execute(
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

    def get_run(self, run_id: str) -> RunRecord | None:
        """Return a run, or None."""
        rows = self.query("SELECT * FROM runs WHERE id = ?", (run_id,))
        return _run(rows[0]) if rows else None

    def list_runs(self, limit: int = 200) -> list[RunRecord]:
        """Return runs, newest first."""
        rows = self.query("SELECT * FROM runs ORDER BY created_at DESC LIMIT ?", (limit,))
        return [_run(r) for r in rows]

    def set_run_status(self, run_id: str, status: str, error: str | None = None) -> None:
        """Set a run's status (and error), stamping start and finish times."""
        stamp = now()
        if status == "running":
            self.execute(
                "UPDATE runs SET status=?, error=NULL, started_at=COALESCE(started_at, ?), "
                "heartbeat_at=?, pid=? WHERE id=?",
                (status, stamp, stamp, os.getpid(), run_id),
            )
        else:
            self.execute(
                "UPDATE runs SET status=?, error=?, finished_at=?, heartbeat_at=NULL WHERE id=?",
                (status, error, stamp, run_id),
            )

    def cells(
        self,
        run_id: str,
        *,
        prompt_id: str | None = None,
        offset: int = 0,
        limit: int = 1_000_000,
    ) -> list[dict[str, Any]]:
        """Return a page of a run's cells (or one prompt's), ordered by prompt and model."""
        where, params = "run_id=?", [run_id]
        if prompt_id is not None:
            where += " AND prompt_id=?"
            params.append(prompt_id)
        rows = self.query(
            f"SELECT * FROM cells WHERE {where} ORDER BY prompt_id, model_id LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [dict(r) for r in rows]

    def cell_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Return `{base model: {status: number of cells}}` for a run's finished cells."""
        rows = self.query(
            "SELECT base_model, status, COUNT(*) AS n FROM cells WHERE run_id=? "
            "GROUP BY base_model, status",
            (run_id,),
        )
        out: dict[str, dict[str, int]] = {}
        for row in rows:
            out.setdefault(str(row["base_model"]), {})[str(row["status"])] = int(row["n"])
        return out

    def model_totals(self, run_id: str) -> dict[str, dict[str, float]]:
        """Return per effective model: cells, tokens in/out, cost (USD) and mean latency (ms)."""
        rows = self.query(
            "SELECT model_id, COUNT(*) AS cells, SUM(input_tokens) AS input_tokens, "
            "SUM(output_tokens) AS output_tokens, SUM(cost_usd) AS cost_usd, "
            "AVG(latency_ms) AS latency_ms FROM cells WHERE run_id=? GROUP BY model_id",
            (run_id,),
        )
        return {str(r["model_id"]): {k: float(r[k] or 0) for k in _TOTALS} for r in rows}

    def calls(self, run_id: str) -> dict[str, dict[str, Any]]:
        """Return the finished calls of a run by key (used to resume without repeating)."""
        rows = self.query("SELECT * FROM calls WHERE run_id=? AND error IS NULL", (run_id,))
        return {str(r["key"]): dict(r) for r in rows}

    def judgments(self, run_id: str, prompt_id: str, model_id: str) -> list[dict[str, Any]]:
        """Return the raw judgments of one cell."""
        rows = self.query(
            "SELECT * FROM judgments WHERE run_id=? AND prompt_id=? AND model_id=? "
            "ORDER BY point_index, judge_id",
            (run_id, prompt_id, model_id),
        )
        return [dict(r) for r in rows]

    def cache_get(self, key: str) -> Any:
        """Return a cached value (decoded JSON), or None."""
        rows = self.query("SELECT value FROM cache WHERE key=?", (key,))
        return json.loads(rows[0]["value"]) if rows else None

    def cache_has(self, keys: list[str]) -> set[str]:
        """Return which of `keys` are cached."""
        found: set[str] = set()
        with self.connect() as conn:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                found.update(
                    r[0]
                    for r in conn.execute(f"SELECT key FROM cache WHERE key IN ({marks})", chunk)
                )
        return found

    def writer(self) -> StoreWriter:
        """Start a background writer with its own connection."""
        return StoreWriter(self.path)


def _run(row: sqlite3.Row) -> RunRecord:
    data = dict(row)
    data["options"] = json.loads(data["options"] or "{}")
    data["summary"] = json.loads(data["summary"]) if data.get("summary") else None
    return RunRecord(**data)


WriteOp = Callable[[sqlite3.Connection], Any]


class StoreWriter:
    """A thread that owns one connection and applies writes in small committed batches."""

    def __init__(self, path: Path, batch: int = 64) -> None:
        self._path = path
        self._batch = batch
        self._queue: queue.Queue[tuple[WriteOp, Future[Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="store-writer", daemon=True)
        self._thread.start()

    def submit(self, op: WriteOp) -> Future[Any]:
        """Queue a write; the future resolves after it is committed."""
        future: Future[Any] = Future()
        self._queue.put((op, future))
        return future

    def close(self) -> None:
        """Commit what is queued and stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _loop(self) -> None:
        conn = _connect(self._path)
        try:
            stop = False
            while not stop:
                item = self._queue.get()
                if item is None:
                    break
                items = [item]
                while len(items) < self._batch:
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is None:
                        stop = True
                        break
                    items.append(nxt)
                self._apply(conn, items)
        finally:
            conn.close()

    @staticmethod
    def _apply(conn: sqlite3.Connection, items: list[tuple[WriteOp, Future[Any]]]) -> None:
        results: list[tuple[Future[Any], Any, BaseException | None]] = []
        try:
            conn.execute("BEGIN IMMEDIATE")
            for op, future in items:
                try:
                    results.append((future, op(conn), None))
                except sqlite3.Error as exc:
                    results.append((future, None, StoreError(f"store write failed: {exc}")))
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            error = StoreError(f"store write failed: {exc}")
            for _, future in items:
                future.set_exception(error)
            return
        for future, value, exc2 in results:
            if exc2 is not None:
                future.set_exception(exc2)
            else:
                future.set_result(value)
