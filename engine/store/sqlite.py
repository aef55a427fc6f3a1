"""The SQLite backend of the store: one file in `$BLUEPRINT_HOME`, WAL, one connection per thread."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.errors import StoreError
from engine.settings import home_dir
from engine.store.migrations import migrate
from engine.store.sql import SQLStore, quote
from engine.store.sqlite_writer import SQLiteWriter, connect_sqlite, store_error

__all__ = ["Connect", "SQLiteStore"]

Connect = Callable[[Path], sqlite3.Connection]
"""Opens a connection to the store's file (tests pass one that fails on purpose)."""


class SQLiteStore(SQLStore):
    """The store in one SQLite file (see `engine.store.base.Store` for the contract)."""

    dialect = "sqlite"

    def __init__(self, path: Path | str | None = None, *, connect: Connect | None = None) -> None:
        self._connect = connect or connect_sqlite
        self._local = threading.local()
        try:
            self.path = Path(path) if path is not None else home_dir() / "studio.db"
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._conn() as conn:
                conn.execute("PRAGMA journal_mode = WAL")
                migrate(conn)
        except sqlite3.Error as exc:
            raise store_error(self.path if path is None else Path(path), exc) from None
        except OSError as exc:
            where = Path(path) if path is not None else Path(os.environ.get("BLUEPRINT_HOME", "~"))
            raise StoreError(
                f"{where}: cannot create the store there ({exc.strerror or 'not allowed'}). "
                "Make the folder writable, or set BLUEPRINT_HOME to a writable folder."
            ) from None

    @property
    def location(self) -> str:
        """The database file."""
        return str(self.path)

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection to the file, opened on its first use.

        Opening one costs about as much as a query (SQLite reads the schema anew), and a run
        makes a dozen queries before its first call. Statements run in autocommit mode and are
        read to the end, so an idle connection holds no transaction; one that failed, or was
        left in a transaction, is closed and opened anew. A process made by `fork` opens its
        own.
        """
        held = getattr(self._local, "held", None)
        if held is not None and held[0] == os.getpid():
            conn = held[1]
        else:
            conn = self._connect(self.path)
            self._local.held = (os.getpid(), conn)
        try:
            yield conn
        except BaseException:
            self._drop(conn)
            raise
        if conn.in_transaction:
            self._drop(conn)

    def _drop(self, conn: sqlite3.Connection) -> None:
        self._local.held = None
        with contextlib.suppress(sqlite3.Error):
            conn.close()

    def _query(
        self, sql: str, params: tuple[Any, ...] = (), *, writing: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        try:
            with self._conn() as conn:
                cursor = conn.execute(sql, params)
                names = [d[0] for d in cursor.description or ()]
                return names, list(cursor)
        except sqlite3.Error as exc:
            raise store_error(self.path, exc, writing=writing) from None

    def table_graph(self) -> dict[str, set[str]]:
        """Every data table (not the migration log) and the tables its foreign keys name."""
        tables = self._read(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite%' AND name <> 'schema_migrations'"
        )
        return {
            str(t): {str(fk[2]) for fk in self._read(f"PRAGMA foreign_key_list({quote(t)})")}
            for (t,) in tables
        }

    def table_columns(self, table: str) -> list[str]:
        """The columns of `table`, in order."""
        return [str(r[1]) for r in self._read(f"PRAGMA table_info({quote(table)})")]

    def stream(self, sql: str, size: int = 1000) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of a query without parameters, in batches of at most `size`."""
        conn: sqlite3.Connection | None = None
        try:  # a connection of its own: the caller may query between batches
            conn = self._connect(self.path)
            cursor = conn.execute(sql)
            while batch := cursor.fetchmany(size):
                yield batch
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None
        finally:
            if conn is not None:
                conn.close()

    def load(
        self, tables: Iterable[tuple[str, list[str], Iterable[list[tuple[Any, ...]]]]]
    ) -> None:
        """Insert batches of rows into tables, all in one transaction (all or nothing)."""
        try:
            with self._conn() as conn:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    for table, columns, batches in tables:
                        names = ", ".join(quote(c) for c in columns)
                        sql = f"INSERT INTO {quote(table)} ({names}) VALUES ({','.join('?' * len(columns))})"
                        for batch in batches:
                            conn.executemany(sql, batch)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
        except sqlite3.Error as exc:
            raise store_error(self.path, exc, writing=True) from None

    def writer(self) -> SQLiteWriter:
        """Start a background writer with its own connection."""
        return SQLiteWriter(self.path, self._connect)
