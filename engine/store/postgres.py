"""The PostgreSQL backend of the store (team mode): psycopg 3 and one connection pool per database."""

from __future__ import annotations

import atexit
import re
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import sql as pgsql
from psycopg_pool import ConnectionPool

from engine.errors import StoreError
from engine.store.migrations import MIGRATIONS, now, statements
from engine.store.sql import SQLStore
from engine.store.writer import BatchWriter, Item, grouped

__all__ = [
    "STOP_CHANNEL",
    "PostgresStore",
    "PostgresWriter",
    "close_pools",
    "is_postgres_url",
    "mask_url",
    "set_pool_max",
]

_MIGRATION_LOCK = 0x626C7565  # pg_advisory_lock key: one process migrates at a time
_POOLS: dict[str, ConnectionPool] = {}
_POOLS_LOCK = threading.Lock()
_IDLE_WRITERS: dict[str, list[psycopg.Connection[Any]]] = {}
"""Writer connections given back by closed writers, by database: the next writer takes one."""
_IDLE_WRITERS_MAX = 8
POOL_MAX = 8
"""Connections a process's pool may open at most (`set_pool_max`): the studio's sessions share it."""
POOL_WAIT_S = 10.0
"""How long a query waits for a connection (all busy, or the database refusing: a restart)."""
POOL_IDLE_S = 60.0
"""A pooled connection unused this long is closed (one per period): an idle process keeps one."""


def is_postgres_url(location: str) -> bool:
    """Whether `location` names a PostgreSQL database (`postgresql://` or `postgres://`)."""
    return location.startswith(("postgresql://", "postgres://"))


_USERINFO = re.compile(r"(://[^/@\s:]*):\S*@")
_QUERY_SECRET = re.compile(r"(password|passfile|sslpassword)=[^&\s\"']*", re.IGNORECASE)


def mask_url(url: str) -> str:
    """The URL with its password (and its query, which may hold one) replaced by `***`."""
    masked = _USERINFO.sub(r"\1:***@", url.strip())
    base, question, _ = masked.partition("?")
    return (base + ("?***" if question else ""))[:200]


def _secret_free(url: str, text: str) -> str:
    """`text` (a driver message) on one short line, without the URL's password."""
    line = _QUERY_SECRET.sub(r"\1=***", _USERINFO.sub(r"\1:***@", " ".join(text.split())))
    match = re.search(r"://[^/@\s:]*:(\S+)@", url)
    if match and len(match.group(1)) >= 4:  # shorter ones would mask parts of words
        line = line.replace(match.group(1), "***")
    return line[:160]


def pg_error(
    url: str, exc: BaseException, *, writing: bool = False, connecting: bool = False
) -> StoreError:
    """A `StoreError` that says in plain words what went wrong with the database, without secrets."""
    where = mask_url(url)
    detail = _secret_free(url, str(exc))
    if connecting or (isinstance(exc, psycopg.OperationalError) and not writing):
        return StoreError(
            f"{where}: cannot reach the database ({detail}). Check the address "
            "(BLUEPRINT_DATABASE_URL) and that PostgreSQL runs there and accepts this user."
        )
    what = "a store write failed" if writing else "the store cannot be read"
    return StoreError(f"{where}: {what} ({detail}).")


@lru_cache(maxsize=256)
def pg_sql(sql: str) -> str:
    """The store's `?`-placeholder SQL for psycopg (`%s`, and a literal `%` doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


def migrate_postgres(conn: psycopg.Connection[Any]) -> list[str]:
    """Apply the migrations not yet recorded, in order, under an advisory lock; return their names."""
    conn.autocommit = True
    conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
        applied: list[str] = []
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            with conn.transaction():
                for statement in statements(sql, "postgres"):
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_migrations VALUES (%s, %s)", (name, now()))
            applied.append(name)
        return applied
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))


def set_pool_max(size: int) -> None:
    """Make the pools this process opens from now on hold at most `size` connections."""
    global POOL_MAX
    POOL_MAX = max(1, size)


def _pool(url: str) -> ConnectionPool:
    """The process's pool for `url`, opened (and the database migrated) on first use.

    Each connection is checked with one round trip as it is taken from the pool, so one that
    the server closed meanwhile (a restart, a failover, `pg_terminate_backend`) is replaced
    instead of failing its user's query.
    """
    with _POOLS_LOCK:
        pool = _POOLS.get(url)
        if pool is not None and not pool.closed:
            return pool
        try:
            with psycopg.connect(url, connect_timeout=10) as conn:
                migrate_postgres(conn)
            pool = ConnectionPool(
                url,
                min_size=1,
                max_size=POOL_MAX,
                open=False,
                timeout=POOL_WAIT_S,
                max_idle=POOL_IDLE_S,
                check=ConnectionPool.check_connection,
                kwargs={"connect_timeout": 10},
            )
            pool.open(wait=True, timeout=10)
        except psycopg.Error as exc:
            raise pg_error(url, exc, connecting=True) from None
        _POOLS[url] = pool
        return pool


def close_pools() -> None:
    """Close every pool this process opened (before its databases are dropped, and at exit)."""
    with _POOLS_LOCK:
        for pool in _POOLS.values():
            pool.close()
        _POOLS.clear()
        for conns in _IDLE_WRITERS.values():
            for conn in conns:
                conn.close()
        _IDLE_WRITERS.clear()


def _idle_writer(url: str) -> psycopg.Connection[Any] | None:
    """A connection a closed writer gave back that still answers, or None."""
    while True:
        with _POOLS_LOCK:
            conns = _IDLE_WRITERS.get(url)
            if not conns:
                return None
            conn = conns.pop()
        try:
            conn.execute("")  # one round trip: a server restart since is seen here, not later
        except psycopg.Error:
            conn.close()
            continue
        return conn


def _give_back(url: str, conn: psycopg.Connection[Any]) -> None:
    """Keep a writer's healthy connection for the next writer (a few per database), else close it."""
    healthy = not (conn.closed or conn.broken) and (
        conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    )
    with _POOLS_LOCK:
        conns = _IDLE_WRITERS.setdefault(url, [])
        if healthy and len(conns) < _IDLE_WRITERS_MAX:
            conns.append(conn)
            return
    conn.close()


atexit.register(close_pools)

STOP_CHANNEL = "blueprint_stop"
"""The channel on which `request_stop` notifies the workers (its payload: the run's id)."""


class PostgresStore(SQLStore):
    """The store in a PostgreSQL database (see `engine.store.base.Store` for the contract)."""

    dialect = "postgres"
    records_pid = False  # workers on other machines: liveness is the heartbeat alone

    def __init__(self, url: str) -> None:
        self._url = url
        self._pool = _pool(url)

    @property
    def location(self) -> str:
        """The database address, its password masked."""
        return mask_url(self._url)

    def _query(
        self, sql: str, params: tuple[Any, ...] = (), *, writing: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        # A read whose connection was lost while it ran (the server closed every connection)
        # is asked once more on a fresh one; a write is not: it may have been committed.
        for attempt in (1, 2):
            conn: psycopg.Connection[Any] | None = None
            try:
                with self._pool.connection() as conn:
                    cursor = conn.execute(pg_sql(sql), params)
                    if cursor.description is None:
                        return [], []
                    return [d.name for d in cursor.description], list(cursor.fetchall())
            except psycopg.Error as exc:
                if attempt == 1 and not writing and conn is not None and conn.broken:
                    continue
                raise pg_error(self._url, exc, writing=writing) from None
        raise AssertionError("unreachable")

    def request_stop(self, run_id: str) -> None:
        """Ask a run to stop and tell the workers at once (`STOP_CHANNEL`), besides the flag."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute(
                    "UPDATE runs SET stop_requested_at=COALESCE(stop_requested_at, %s) WHERE id=%s",
                    (now(), run_id),
                )
                conn.execute("SELECT pg_notify(%s, %s)", (STOP_CHANNEL, run_id))
        except psycopg.Error as exc:
            raise pg_error(self._url, exc, writing=True) from None

    def applied_migrations(self) -> list[str]:
        """The names of the migrations applied, in order."""
        return [str(r[0]) for r in self._read("SELECT name FROM schema_migrations ORDER BY name")]

    def table_graph(self) -> dict[str, set[str]]:
        """Every data table (not the migration log, nor a queue's) and those its keys name."""
        tables = self._read(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename <> 'schema_migrations' AND tablename NOT LIKE 'procrastinate%'"
        )
        graph: dict[str, set[str]] = {str(t): set() for (t,) in tables}
        for child, parent in self._read(
            "SELECT c.relname, p.relname FROM pg_constraint k "
            "JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid "
            "WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace"
        ):
            if child in graph:
                graph[str(child)].add(str(parent))
        return graph

    def table_columns(self, table: str) -> list[str]:
        """The columns of `table`, in order."""
        rows = self._read(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
        return [str(r[0]) for r in rows]

    def load(
        self, tables: Iterable[tuple[str, list[str], Iterable[list[tuple[Any, ...]]]]]
    ) -> None:
        """Insert batches of rows into tables with COPY, all in one transaction (all or nothing)."""
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
                for table, columns, batches in tables:
                    names = pgsql.SQL(", ").join(pgsql.Identifier(c) for c in columns)
                    statement = pgsql.SQL("COPY {} ({}) FROM STDIN").format(
                        pgsql.Identifier(table), names
                    )
                    with cursor.copy(statement) as copy:
                        for batch in batches:
                            for row in batch:
                                copy.write_row(row)
        except psycopg.Error as exc:
            raise pg_error(self._url, exc, writing=True) from None

    def stream(self, sql: str, size: int = 1000) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of a query without parameters in batches of `size` (a server-side cursor)."""
        try:
            with self._pool.connection() as conn, conn.cursor(name="blueprint_stream") as cursor:
                cursor.execute(sql)
                while batch := cursor.fetchmany(size):
                    yield list(batch)
        except psycopg.Error as exc:
            raise pg_error(self._url, exc) from None

    def writer(self) -> PostgresWriter:
        """Start a background writer with its own connection."""
        return PostgresWriter(self._url)


class PostgresWriter(BatchWriter["psycopg.Connection[Any]"]):
    """A thread that owns one PostgreSQL connection and applies writes in committed batches.

    Its connection is given back when it closes and the next writer of the same database takes
    it: each personal run starts a writer (a queue worker keeps one for all its parts), and a
    new connection costs PostgreSQL a process (milliseconds of CPU) where a kept one costs a
    round trip.
    """

    def __init__(self, url: str, batch: int = 64) -> None:
        self._url = url
        self._fresh: psycopg.Connection[Any] | None = None
        """A connection made during a batch to replace a lost one, for the batches after it."""
        super().__init__(batch)

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            return psycopg.connect(
                self._url, autocommit=True, connect_timeout=10, application_name="blueprint-writer"
            )
        except psycopg.Error as exc:
            raise pg_error(self._url, exc, connecting=True) from None

    def _open(self) -> psycopg.Connection[Any]:
        kept = _idle_writer(self._url)
        return kept if kept is not None else self._connect()

    def _close(self, conn: psycopg.Connection[Any]) -> None:
        if self._fresh is not None:
            conn.close()
            conn, self._fresh = self._fresh, None
        _give_back(self._url, conn)

    def _ready(self, conn: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
        if self._fresh is not None:
            conn.close()
            conn, self._fresh = self._fresh, None
        if not (conn.closed or conn.broken):
            return conn
        conn.close()  # lost (the server restarted, a network cut): connect again
        return self._connect()

    def _apply(self, conn: psycopg.Connection[Any], items: list[Item], again: bool = True) -> None:
        # The whole batch at once, pipelined, one `executemany` per run of one statement; in
        # PostgreSQL one failed statement spoils its transaction, so when one fails the batch
        # is applied again item by item. A batch whose connection was lost (the server closed
        # it, e.g. restarting) is applied once more on a new connection: its answers are kept.
        try:
            with conn.pipeline(), conn.transaction(), conn.cursor() as cursor:
                for sql, rows in grouped(items):
                    cursor.executemany(pg_sql(sql), rows)
        except psycopg.Error as exc:
            if conn.broken and again:
                try:
                    self._fresh = self._connect()
                except StoreError:
                    pass
                else:
                    self._apply(self._fresh, items, again=False)
                    return
            if conn.broken or len(items) == 1:
                error = pg_error(self._url, exc, writing=True)
                for _, future in items:
                    future.set_exception(error)
            else:
                self._apply_each(conn, items)
            return
        for _, future in items:
            future.set_result(None)

    def _apply_each(self, conn: psycopg.Connection[Any], items: list[Item]) -> None:
        failed: list[tuple[Future[None], StoreError]] = []
        done: list[Future[None]] = []
        try:
            with conn.transaction():
                for statements_, future in items:
                    try:
                        with conn.transaction():  # a savepoint: one failed write keeps the rest
                            for sql, params in statements_:
                                conn.execute(pg_sql(sql), params)
                    except psycopg.Error as exc:
                        if conn.broken:
                            raise
                        failed.append((future, pg_error(self._url, exc, writing=True)))
                    else:
                        done.append(future)
        except psycopg.Error as exc:
            error = pg_error(self._url, exc, writing=True)
            for _, future in items:
                future.set_exception(error)
            return
        for future in done:
            future.set_result(None)
        for future, err in failed:
            future.set_exception(err)
