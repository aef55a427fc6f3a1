"""The SQLite store's background writer, and how SQLite failures are told to a user."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import suppress
from pathlib import Path

from engine.errors import StoreError
from engine.store.writer import BatchWriter, Item, grouped

__all__ = ["SQLiteWriter", "connect_sqlite", "store_error"]


def connect_sqlite(path: Path) -> sqlite3.Connection:
    """Open a connection the way the store uses them (autocommit; BEGIN for transactions).

    `synchronous = NORMAL` is a setting of each connection, not of the file: in WAL mode a
    commit then survives the process being killed, and is not flushed to the disk one by one
    (a flush per commit cost ~3.5 ms here, on every write of a run).
    """
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


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


class SQLiteWriter(BatchWriter[sqlite3.Connection]):
    """A thread that owns one SQLite connection and applies writes in small committed batches."""

    def __init__(
        self,
        path: Path,
        connect: Callable[[Path], sqlite3.Connection] = connect_sqlite,
        batch: int = 64,
    ) -> None:
        self._path = path
        self._connect = connect
        super().__init__(batch)

    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect(self._path)
        except sqlite3.Error as exc:
            raise store_error(self._path, exc) from None

    def _close(self, conn: sqlite3.Connection) -> None:
        conn.close()

    def _apply(self, conn: sqlite3.Connection, items: list[Item]) -> None:
        # The whole batch at once, one `executemany` per run of one statement (a tenth of the
        # CPU of a statement and two savepoints per item); when a statement fails, the batch
        # is rolled back and applied again item by item, so one bad write keeps the others.
        try:
            conn.execute("BEGIN IMMEDIATE")
            for sql, rows in grouped(items):
                conn.executemany(sql, rows)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            if len(items) == 1:
                error = store_error(self._path, exc, writing=True)
                items[0][1].set_exception(error)
                return
            self._apply_each(conn, items)
            return
        for _, future in items:
            future.set_result(None)

    def _apply_each(self, conn: sqlite3.Connection, items: list[Item]) -> None:
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
                future.set_exception(error)
            return
        for future in done:
            future.set_result(None)
        for future, err in failed:
            future.set_exception(err)
