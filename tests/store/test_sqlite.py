"""The SQLite backend: its file, and a damaged, read-only or full store said in plain words."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store import CacheEntry, open_store
from engine.store.sqlite import SQLiteStore
from engine.store.sqlite_writer import connect_sqlite


def test_the_file_is_wal_with_the_expected_columns(tmp_path):
    open_store(tmp_path / "s.db")
    conn = sqlite3.connect(tmp_path / "s.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    cols = {r[1] for r in conn.execute("PRAGMA table_info(cells)")}
    assert {"run_id", "prompt_id", "model_id", "score", "response", "result", "cost_usd"} <= cols


def test_every_connection_commits_without_a_flush_per_commit(tmp_path):
    store = SQLiteStore(tmp_path / "s.db")
    with store._conn() as conn:  # a read or write of the store
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL, not FULL (2)
    writer = store.writer()
    try:
        assert writer._open().execute("PRAGMA synchronous").fetchone()[0] == 1
    finally:
        writer.close()


def test_each_thread_keeps_one_connection_and_a_failed_one_is_replaced(tmp_path):
    # Opening a connection costs as much as a query (SQLite reads the schema anew)
    import threading

    opened: list[sqlite3.Connection] = []

    def counting(path: Path) -> sqlite3.Connection:
        opened.append(connect_sqlite(path))
        return opened[-1]

    store = SQLiteStore(tmp_path / "s.db", connect=counting)
    digest = store.save_blueprint("a: 1", "t", None)
    for _ in range(5):
        assert store.blueprint_text(digest) == "a: 1"
    assert len(opened) == 1
    thread = threading.Thread(target=lambda: store.blueprint_text(digest))
    thread.start()
    thread.join()
    assert len(opened) == 2
    with pytest.raises(StoreError):  # no such blueprint: the write fails
        store.create_run(
            blueprint_hash="missing", title=None, config_id=None, options={}, total_calls=0,
            total_cells=0,
        )  # fmt: skip
    with pytest.raises(sqlite3.ProgrammingError):  # closed, not kept
        opened[0].execute("SELECT 1")
    assert store.blueprint_text(digest) == "a: 1" and len(opened) == 3
    # another process (a fork) never uses this one's connection
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit status
        os._exit(0 if store.blueprint_text(digest) == "a: 1" and len(opened) == 4 else 1)
    assert os.waitpid(pid, 0)[1] == 0


@pytest.mark.parametrize("content", [b"this is not a database at all" * 100, b"SQLite format 3\0"])
def test_a_garbage_or_truncated_file_says_what_to_do(tmp_path, content):
    path = tmp_path / "studio.db"
    path.write_bytes(content)
    with pytest.raises(StoreError) as info:
        open_store(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert "Move the file aside" in message and "\n" not in message


def _full(path: Path) -> sqlite3.Connection:
    """A connection to a disk with no room left: every write that needs space fails."""
    conn = connect_sqlite(path)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    return conn


def test_a_full_disk_is_a_store_error_with_what_to_do(tmp_path):
    SQLiteStore(tmp_path / "s.db")
    store = SQLiteStore(tmp_path / "s.db", connect=_full)
    writer = store.writer()
    big = "x" * 100_000
    future = writer.record_call(None, CacheEntry("k", "generate", "m", big))
    with pytest.raises(StoreError, match="the disk is full"):
        future.result(timeout=10)
    writer.close()
    with pytest.raises(StoreError, match="Free some space"):
        store.save_draft("d", big)


class _FullDuringMigration(sqlite3.Connection):
    """A disk that fills up while the tables are created.

    As on a real full disk (a tmpfs), SQLite ends the whole transaction itself before it
    reports `SQLITE_FULL`, so the connection is no longer in a transaction.
    """

    def execute(self, sql, parameters=(), /):  # type: ignore[override]
        if sql.startswith("CREATE TABLE runs") and self.in_transaction:
            super().execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, parameters)


def _connect_full_during_migration(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None, factory=_FullDuringMigration)


def test_a_store_created_on_a_full_disk_says_the_disk_is_full(tmp_path):
    # rolling back a transaction SQLite had already ended hid the cause behind
    # "the store cannot be read (cannot rollback - no transaction is active)"
    with pytest.raises(StoreError) as info:
        SQLiteStore(tmp_path / "s.db", connect=_connect_full_during_migration)
    assert "the disk is full" in str(info.value) and "Free some space" in str(info.value)
    assert "rollback" not in str(info.value)


def test_an_unwritable_home_says_what_to_do(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a regular file cannot hold a folder")
    with pytest.raises(StoreError) as info:
        open_store(blocker / "home" / "studio.db")
    assert "set BLUEPRINT_HOME to a writable folder" in str(info.value)


def _cli_run(home: Path, bp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BLUEPRINT_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "engine", "run", str(bp), "--models", "ideal", "--no-judge"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_cli_run_on_a_damaged_store_or_unusable_home_exits_2_without_a_traceback(tmp_path):
    bp = tmp_path / "bp.yml"
    bp.write_text("- id: p\n  prompt: hi\n  ideal: hello\n  should:\n    - $contains: hello\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / "studio.db").write_bytes(b"garbage" * 1000)
    out = _cli_run(home, bp)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "Move the file aside" in out.stderr
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    out = _cli_run(blocker / "home", bp)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "BLUEPRINT_HOME" in out.stderr


def test_a_write_whose_waiter_gave_up_is_kept_and_the_writer_goes_on(tmp_path):
    """A run stopping cancels the futures it awaited; the writer must neither die nor drop them."""
    store = SQLiteStore(tmp_path / "s.db")
    writer = store.writer()
    futures = [
        writer.record_call(None, CacheEntry(f"k{i}", "generate", "m", f'{{"text": "{i}"}}'))
        for i in range(300)
    ]
    cancelled = sum(f.cancel() for f in futures)  # those the thread has not taken yet
    last = writer.record_call(None, CacheEntry("last", "generate", "m", '{"text": "z"}'))
    last.result(timeout=10)  # the writer thread is alive and still writing
    writer.close()
    assert cancelled > 0, "the thread took every write before the test could cancel one"
    assert len(store.cache_lookup([f"k{i}" for i in range(300)])) == 300  # nothing was dropped
