"""The SQLite store's background writer, and how SQLite failures are told to a user.

A run makes many small writes. `SQLiteWriter` is a thread with its own connection that
applies them in small batches, one transaction each; a write's future resolves only after
its batch is committed, so a finished call is on disk before it is counted.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import suppress
from pathlib import Path
from typing import Any

from engine.errors import StoreError
from engine.store.migrations import now
from engine.store.rows import CacheEntry, CallRow, CellRow, JudgmentRow, RunTotals

__all__ = [
    "CALL_COLUMNS",
    "CELL_COLUMNS",
    "TOTALS_SET",
    "SQLiteWriter",
    "connect_sqlite",
    "store_error",
    "totals_values",
]

CELL_COLUMNS = (
    "run_id, prompt_id, model_id, base_model, status, score, response, messages, tool_calls, "
    "error, latency_ms, input_tokens, output_tokens, cost_usd, result, updated_at"
)
CALL_COLUMNS = (
    "run_id, key, kind, model_id, prompt_id, cell_model, response, error, cached, latency_ms, "
    "input_tokens, output_tokens, cost_usd, created_at, reuses"
)
TOTALS_SET = (
    "done_calls=?, cached_calls=?, failed_calls=?, done_cells=?, cost_usd=?, "
    "input_tokens=?, output_tokens=?"
)
_INSERT_CELL = f"INSERT OR REPLACE INTO cells({CELL_COLUMNS}) VALUES ({','.join('?' * 16)})"
_INSERT_CALL = f"INSERT OR REPLACE INTO calls({CALL_COLUMNS}) VALUES ({','.join('?' * 15)})"
_REUSE_CALL = "UPDATE calls SET reuses = reuses + 1 WHERE run_id=? AND key=?"
_INSERT_CACHE = (
    "INSERT OR REPLACE INTO cache(key, kind, model_id, value, created_at) VALUES (?,?,?,?,?)"
)
_INSERT_JUDGMENT = "INSERT OR REPLACE INTO judgments VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
_HEARTBEAT = f"UPDATE runs SET heartbeat_at=?, {TOTALS_SET} WHERE id=?"


def connect_sqlite(path: Path) -> sqlite3.Connection:
    """Open a connection the way the store uses them (autocommit; BEGIN for transactions)."""
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 30000")
    return conn


def totals_values(t: RunTotals) -> tuple[Any, ...]:
    """The values of `TOTALS_SET`, in order."""
    return (
        t.done_calls,
        t.cached_calls,
        t.failed_calls,
        t.done_cells,
        t.cost_usd,
        t.input_tokens,
        t.output_tokens,
    )


def store_error(path: Path, exc: sqlite3.Error, *, writing: bool = False) -> StoreError:
    """A `StoreError` that says, in plain words, what went wrong with the file and what to do."""
    text = str(exc).lower()
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return StoreError(
            f"{path}: the store is damaged or is not a database. Move the file aside to "
            "start a new store, or set BLUEPRINT_HOME to another folder."
        )
    if "full" in text:
        return StoreError(
            f"{path}: the disk is full, so the store cannot be written. Free some space and "
            "try again (an interrupted run is finished with: blueprint run --resume ID)."
        )
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return StoreError(
            f"{path}: the store cannot be written here (read-only or not allowed). Make the "
            "folder writable, or set BLUEPRINT_HOME to a writable folder."
        )
    if "locked" in text or "busy" in text:
        return StoreError(
            f"{path}: the store is locked by another program. Close it, or wait and try again."
        )
    what = "a store write failed" if writing else "the store cannot be read"
    return StoreError(f"{path}: {what} ({str(exc)[:120]}).")


def _cell_values(c: CellRow) -> tuple[Any, ...]:
    return (
        c.run_id,
        c.prompt_id,
        c.model_id,
        c.base_model,
        c.status,
        c.score,
        c.response,
        c.messages,
        c.tool_calls,
        c.error,
        c.latency_ms,
        c.input_tokens,
        c.output_tokens,
        c.cost_usd,
        c.result,
        c.updated_at or now(),
    )


def _call_values(c: CallRow) -> tuple[Any, ...]:
    return (
        c.run_id,
        c.key,
        c.kind,
        c.model_id,
        c.prompt_id,
        c.cell_model,
        c.response,
        c.error,
        1 if c.cached else 0,
        c.latency_ms,
        c.input_tokens,
        c.output_tokens,
        c.cost_usd,
        c.created_at or now(),
        c.reuses,
    )


def _judgment_values(j: JudgmentRow) -> tuple[Any, ...]:
    return (
        j.run_id,
        j.prompt_id,
        j.model_id,
        j.point_index,
        j.judge_id,
        j.judge_model,
        j.raw_text,
        j.class_name,
        j.score,
        j.reflection,
        j.error,
        j.created_at or now(),
    )


_Write = list[tuple[str, tuple[Any, ...]]]


class SQLiteWriter:
    """A thread that owns one connection and applies writes in small committed batches."""

    def __init__(
        self,
        path: Path,
        connect: Callable[[Path], sqlite3.Connection] = connect_sqlite,
        batch: int = 64,
    ) -> None:
        self._path = path
        self._connect = connect
        self._batch = batch
        self._queue: queue.Queue[tuple[_Write, Future[None]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="store-writer", daemon=True)
        self._thread.start()

    def _submit(self, statements: _Write) -> Future[None]:
        future: Future[None] = Future()
        self._queue.put((statements, future))
        return future

    def record_call(self, call: CallRow | None, cache: CacheEntry | None = None) -> Future[None]:
        """Log a call of a run (None: no run) and put its answer in the cache (if given)."""
        statements: _Write = []
        if cache is not None:
            statements.append(
                (_INSERT_CACHE, (cache.key, cache.kind, cache.model_id, cache.value, now()))
            )
        if call is not None:
            statements.append((_INSERT_CALL, _call_values(call)))
        return self._submit(statements)

    def record_reuse(self, run_id: str, key: str) -> Future[None]:
        """Count one more call of a run answered by its logged call `key`."""
        return self._submit([(_REUSE_CALL, (run_id, key))])

    def record_cell(self, cell: CellRow) -> Future[None]:
        """Record (or replace) a finished cell."""
        return self._submit([(_INSERT_CELL, _cell_values(cell))])

    def record_judgment(self, judgment: JudgmentRow) -> Future[None]:
        """Record (or replace) one judge's answer about one point."""
        return self._submit([(_INSERT_JUDGMENT, _judgment_values(judgment))])

    def heartbeat(self, run_id: str, totals: RunTotals) -> Future[None]:
        """Mark a running run alive and store its counters so far."""
        return self._submit([(_HEARTBEAT, (now(), *totals_values(totals), run_id))])

    def close(self) -> None:
        """Commit what is queued and stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _loop(self) -> None:
        try:
            conn = self._connect(self._path)
        except sqlite3.Error as exc:
            self._fail_all(store_error(self._path, exc))
            return
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

    def _fail_all(self, error: StoreError) -> None:
        while (item := self._queue.get()) is not None:
            if item[1].set_running_or_notify_cancel():
                item[1].set_exception(error)

    def _apply(self, conn: sqlite3.Connection, items: list[tuple[_Write, Future[None]]]) -> None:
        # A waiter may give up (its task cancelled) while its write is queued: the write is
        # still made (the data is kept), but a cancelled future is never settled. Marking the
        # others running first means they can no longer be cancelled before they are settled.
        live = {id(future) for _, future in items if future.set_running_or_notify_cancel()}
        failed: list[tuple[Future[None], StoreError]] = []
        done: list[Future[None]] = []
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statements, future in items:
                # a single statement is atomic by itself; several need a savepoint
                several = len(statements) > 1
                if several:
                    conn.execute("SAVEPOINT item")
                try:
                    for sql, params in statements:
                        conn.execute(sql, params)
                except sqlite3.Error as exc:
                    if not conn.in_transaction:  # SQLite gave up the whole transaction (disk full)
                        raise
                    if several:
                        conn.execute("ROLLBACK TO item")
                    failed.append((future, store_error(self._path, exc, writing=True)))
                else:
                    done.append(future)
                if several:
                    conn.execute("RELEASE item")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            error = store_error(self._path, exc, writing=True)
            for _, future in items:
                if id(future) in live:
                    future.set_exception(error)
            return
        for future in done:
            if id(future) in live:
                future.set_result(None)
        for future, err in failed:
            if id(future) in live:
                future.set_exception(err)
