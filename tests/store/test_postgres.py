"""The PostgreSQL backend: chosen by address or BLUEPRINT_DATABASE_URL, same schema, no secrets."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

import psycopg
import pytest

from engine.errors import StoreError
from engine.store import MIGRATIONS, CacheEntry, CallRow, CellRow, open_store
from engine.store.postgres import (
    PostgresStore,
    PostgresWriter,
    close_pools,
    mask_url,
    migrate_postgres,
)
from engine.store.sqlite import SQLiteStore
from engine.store.writer import Item, grouped
from tests.store.test_contract import new_run


def test_open_store_follows_the_database_url_and_an_explicit_location_wins(
    pg_url, tmp_path, monkeypatch
):
    monkeypatch.setenv("BLUEPRINT_DATABASE_URL", pg_url)
    assert isinstance(open_store(), PostgresStore)
    assert isinstance(open_store(tmp_path / "s.db"), SQLiteStore)
    monkeypatch.setenv("BLUEPRINT_DATABASE_URL", "mysql://x")
    with pytest.raises(StoreError, match="not a PostgreSQL address"):
        open_store()
    monkeypatch.delenv("BLUEPRINT_DATABASE_URL")
    assert isinstance(open_store(), SQLiteStore)


def test_both_backends_have_the_same_tables_and_columns(pg_url, tmp_path):
    assert (
        PostgresStore(pg_url).applied_migrations()
        == SQLiteStore(tmp_path / "s.db").applied_migrations()
    )
    lite = sqlite3.connect(tmp_path / "s.db")
    tables = [r[0] for r in lite.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    lite_schema = {t: [r[1] for r in lite.execute(f"PRAGMA table_info({t})")] for t in tables}
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        ).fetchall()
        wide = conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'runs' "
            "AND column_name IN ('cost_usd', 'input_tokens')"
        ).fetchall()
    pg_schema: dict[str, list[str]] = {}
    for table, column in rows:
        pg_schema.setdefault(table, []).append(column)
    assert pg_schema == lite_schema
    # 64-bit counters and 8-byte costs, as on SQLite
    assert dict(wide) == {"cost_usd": "double precision", "input_tokens": "bigint"}


def test_the_password_never_appears_in_the_location_or_an_error():
    url = "postgresql://ann:hunter2secret@127.0.0.1:1/nodb?password=hunter2secret"
    assert "hunter2secret" not in mask_url(url)
    with pytest.raises(StoreError) as info:
        PostgresStore(url)
    message = str(info.value)
    assert "hunter2secret" not in message and "\n" not in message
    assert message.startswith("postgresql://ann:***@127.0.0.1:1/nodb")
    assert "cannot reach the database" in message


def test_two_processes_starting_at_once_migrate_once(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("DROP SCHEMA IF EXISTS fresh CASCADE")
        admin.execute("CREATE SCHEMA fresh")
    url = f"{pg_url}?options=-csearch_path%3Dfresh"
    barrier = threading.Barrier(3)
    results: list[list[str]] = []

    def start() -> None:
        with psycopg.connect(url) as conn:
            barrier.wait()
            results.append(migrate_postgres(conn))

    threads = [threading.Thread(target=start) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    # every start succeeded, and each migration was applied by exactly one of them
    assert sorted(name for names in results for name in names) == sorted(n for n, _ in MIGRATIONS)
    assert len(results) == 3
    assert PostgresStore(url).applied_migrations() == [n for n, _ in MIGRATIONS]


def _drop(url: str, where: str = "TRUE") -> int:
    """End the database's other sessions (matching `where`), as a restart does; return how many."""
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = current_database() AND pid <> pg_backend_pid() AND {where}"
        ).fetchall()
    return len(rows)


def test_a_writer_whose_connection_was_lost_applies_its_batch_on_a_new_one(pg_url):
    store = PostgresStore(pg_url)
    writer = store.writer()
    writer.record_call(None, CacheEntry("k0", "generate", "m", "{}")).result(timeout=10)
    assert _drop(pg_url, "application_name = 'blueprint-writer'") == 1
    writer.record_call(None, CacheEntry("k1", "generate", "m", "{}")).result(timeout=10)
    writer.record_call(None, CacheEntry("k2", "generate", "m", "{}")).result(timeout=10)
    writer.close()
    assert set(store.cache_lookup(["k0", "k1", "k2"])) == {"k0", "k1", "k2"}  # none lost


def test_the_store_reads_and_writes_as_before_after_every_connection_was_dropped(pg_url):
    store = PostgresStore(pg_url)
    run_id = new_run(store)
    assert store.get_run(run_id) is not None
    assert _drop(pg_url) >= 1  # the pool's idle connection
    assert store.get_run(run_id) is not None  # a checked connection, not the dead one
    store.request_stop(run_id)
    assert store.stop_requested(run_id)


def _writer_sessions(url: str) -> list[int]:
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name = 'blueprint-writer' ORDER BY pid"
        ).fetchall()
    return [int(r[0]) for r in rows]


def test_a_closed_writers_connection_serves_the_next_writer_unless_it_was_lost(pg_url):
    close_pools()  # no connection kept by an earlier test
    store = PostgresStore(pg_url)
    first = store.writer()
    first.record_call(None, CacheEntry("k0", "generate", "m", "{}")).result(timeout=10)
    first.close()
    kept = _writer_sessions(pg_url)
    assert len(kept) == 1  # kept for the next writer, not closed
    second = store.writer()
    second.record_call(None, CacheEntry("k1", "generate", "m", "{}")).result(timeout=10)
    second.close()
    assert _writer_sessions(pg_url) == kept  # the same session served it: no new connection
    with psycopg.connect(pg_url, autocommit=True) as admin:  # the kept session ends meanwhile
        admin.execute("SELECT pg_terminate_backend(%s, 5000)", (kept[0],))  # waits for its end
    third = store.writer()
    third.record_call(None, CacheEntry("k2", "generate", "m", "{}")).result(timeout=10)
    third.close()  # a lost connection is not handed out: the write went through a new one
    assert set(store.cache_lookup(["k0", "k1", "k2"])) == {"k0", "k1", "k2"}
    assert _writer_sessions(pg_url) not in ([], kept)
    close_pools()
    assert _writer_sessions(pg_url) == []  # and the kept ones close with the pools


def _call(run_id: str, key: str) -> CallRow:
    return CallRow(run_id, key, "generate", "m", "p", "m", '{"text": "hi"}')


def _held_batch(url: str, writer: PostgresWriter, writes: Callable[[], list[Future[None]]]):
    """Queue `writes()` while the writer is held up, so that they make one batch after it."""
    with psycopg.connect(url) as blocker:
        blocker.execute("SELECT key FROM cache WHERE key='first' FOR UPDATE")
        held = writer.record_call(None, CacheEntry("first", "generate", "m", "{}"))
        time.sleep(0.2)  # the writer waits for the lock with `held` alone in its batch
        futures = writes()
    held.result(timeout=10)
    return futures


def test_a_batch_keeps_the_order_of_each_tables_writes_and_a_failed_one_spoils_only_itself(
    pg_url,
):
    store = PostgresStore(pg_url)
    run_id = new_run(store)
    writer = store.writer()
    writer.record_call(None, CacheEntry("first", "generate", "m", "{}")).result(timeout=10)
    together = _held_batch(
        pg_url,
        writer,
        lambda: [
            writer.record_call(_call(run_id, "a"), CacheEntry("a", "generate", "m", "{}")),
            writer.record_reuse(run_id, "a"),
            writer.record_cell(CellRow(run_id, "p", "m", "m", "scored")),
            writer.record_call(_call(run_id, "b")),
            writer.record_reuse(run_id, "b"),
            writer.record_reuse(run_id, "a"),
            writer.record_call(_call(run_id, "c"), CacheEntry("c", "generate", "m", "{}")),
        ],
    )
    for future in together:
        future.result(timeout=10)
    # each reuse came after its call, though the batch wrote the tables one after another
    assert {k: c.reuses for k, c in store.run_calls(run_id).items()} == {"a": 2, "b": 1, "c": 0}
    assert [c.prompt_id for c in store.cells(run_id)] == ["p"]
    assert set(store.cache_lookup(["a", "c"])) == {"a", "c"}
    # a write that fails (a cell of no run) fails alone; the rest of its batch is written
    bad, good = _held_batch(
        pg_url,
        writer,
        lambda: [
            writer.record_cell(CellRow("no-such-run", "p", "m", "m", "scored")),
            writer.record_call(_call(run_id, "d"), CacheEntry("d", "generate", "m", "{}")),
        ],
    )
    with pytest.raises(StoreError, match="store write failed"):
        bad.result(timeout=10)
    good.result(timeout=10)
    writer.close()
    assert "d" in store.run_calls(run_id)


def test_a_batch_is_grouped_by_table_in_order_and_an_unknown_statement_stays_in_place():
    def item(*statements: tuple[str, tuple[object, ...]]) -> Item:
        return list(statements), Future()

    cell, call, reuse = (
        "INSERT INTO cells(x) VALUES (?)",
        "INSERT INTO calls(x) VALUES (?)",
        ("UPDATE calls SET reuses = reuses + 1 WHERE key=?"),
    )
    batch = [
        item((cell, (1,)), (call, (1,))),
        item((call, (2,))),
        item((reuse, (2,)), (cell, (2,))),
        item(("SELECT pg_notify(?, '')", ("x",))),
        item((call, (3,))),
    ]
    assert grouped(batch) == [
        (cell, [(1,), (2,)]),
        (call, [(1,), (2,)]),
        (reuse, [(2,)]),
        ("SELECT pg_notify(?, '')", [("x",)]),
        (call, [(3,)]),
    ]
