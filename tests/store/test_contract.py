"""The store's contract, run against every backend (SQLite, and PostgreSQL where a server answers)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store import (
    MIGRATIONS,
    CacheEntry,
    CallRow,
    CellRow,
    JudgmentRow,
    RunTotals,
    Store,
    new_run_id,
)
from engine.store.postgres import PostgresStore
from engine.store.rows import STALE_AFTER_S
from engine.store.sqlite import SQLiteStore


def _sqlite(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    return lambda: SQLiteStore(tmp_path / "s.db")


def _postgres(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    url = request.getfixturevalue("pg_url")  # the session's database, emptied
    return lambda: PostgresStore(url)


BACKENDS: dict[str, Callable[[pytest.FixtureRequest, Path], Callable[[], Store]]] = {
    "sqlite": _sqlite,
    "postgres": _postgres,
}
"""Each backend gives an opener of a fresh, empty store."""


@pytest.fixture(params=sorted(BACKENDS))
def open_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    """Open the backend's store; a second call reopens the same store."""
    return BACKENDS[request.param](request, tmp_path)


@pytest.fixture
def store(open_backend: Callable[[], Store]) -> Store:
    return open_backend()


def new_run(store: Store, total_cells: int = 3) -> str:
    digest = store.save_blueprint("title: t\n", "t", "t.yml")
    return store.create_run(
        blueprint_hash=digest,
        title="t",
        config_id=None,
        options={"a": 1},
        total_calls=3,
        total_cells=total_cells,
    )


def test_migrations_are_recorded_in_order_and_idempotent(open_backend):
    store = open_backend()
    names = store.applied_migrations()
    assert names == [name for name, _ in MIGRATIONS]
    open_backend()  # reopening applies nothing twice
    assert len(store.applied_migrations()) == len(MIGRATIONS)


def test_run_ids_are_unguessable_and_never_read_as_options():
    ids = {new_run_id() for _ in range(5000)}
    assert len(ids) == 5000
    assert all(len(i) >= 22 for i in ids)  # 16 random bytes, url-safe base64
    # about 1 in 32 random ids would start with - or _ (then `--resume ID` reads an option)
    assert not [i for i in ids if i[0] in "-_"]


def test_run_lifecycle_and_interrupted_when_the_process_is_gone(store):
    run_id = new_run(store, total_cells=1)
    run = store.get_run(run_id)
    assert run.status == "planned" and run.options == {"a": 1}
    store.set_run_status(run_id, "running")
    assert store.get_run(run_id).live_status == "running"
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    store.set_run_status(run_id, "running", pid=int(dead.stdout))
    run = store.get_run(run_id)
    if store.records_pid:  # one machine (SQLite): a gone process means interrupted at once
        assert run.live_status == "interrupted"
    else:  # workers on other machines: a pid means nothing here, the heartbeat alone tells
        assert run.pid is None and run.live_status == "running"
        old = (datetime.now(UTC) - timedelta(seconds=STALE_AFTER_S + 1)).isoformat()
        run = run.model_copy(update={"heartbeat_at": old})
        assert run.live_status == "interrupted"
    assert run.resumable
    store.set_run_status(run_id, "completed")
    assert store.get_run(run_id).live_status == "completed"
    assert [r.id for r in store.list_runs()] == [run_id]


def test_writer_commits_before_resolving(store):
    writer = store.writer()
    futures = [
        writer.record_call(None, CacheEntry(f"k{i}", "generate", "m", "{}")) for i in range(200)
    ]
    futures[-1].result(timeout=10)
    # a separate connection sees every committed row once the last future resolved
    assert len(store.cache_lookup([f"k{i}" for i in range(200)])) == 200
    # a cell of a run that does not exist breaks a foreign key: the write fails, and says so
    bad = writer.record_cell(CellRow("nope", "p", "m", "m", "scored"))
    try:
        bad.result(timeout=10)
        raised = False
    except Exception as exc:
        raised = "store write failed" in str(exc)
    assert raised
    writer.close()


def test_an_event_loop_waits_for_commits_batch_by_batch(store):
    writer = store.writer()
    keys = [f"k{i}" for i in range(300)]

    async def main() -> None:
        writes = [writer.record_call(None, CacheEntry(k, "generate", "m", "{}")) for k in keys]
        bad = writer.record_cell(CellRow("nope", "p", "m", "m", "scored"))  # no such run
        waits = [asyncio.ensure_future(writer.committed(w)) for w in writes]
        waits[7].cancel()  # a waiter that gives up: its write is made all the same
        await asyncio.gather(*waits[8:])
        # each write is committed once its wait is over: a separate connection sees it
        assert len(store.cache_lookup(keys)) == 300
        with pytest.raises(StoreError, match="store write failed"):
            await writer.committed(bad)
        await writer.committed(writes[0])  # already resolved: returns at once

    asyncio.run(main())
    writer.close()
    assert len(store.cache_lookup(keys)) == 300


def test_flushed_resolves_after_every_earlier_write_even_a_failed_one(store):
    """A queue worker's parts share one writer: a part ends once its writes are committed."""
    writer = store.writer()
    keys = [f"f{i}" for i in range(150)]

    async def main() -> None:
        for k in keys:  # written without waiting, as judgments are
            writer.record_call(None, CacheEntry(k, "generate", "m", "{}"))
        bad = writer.record_cell(CellRow("nope", "p", "m", "m", "scored"))
        await writer.committed(writer.flushed())
        assert len(store.cache_lookup(keys)) == 150
        assert bad.done() and isinstance(bad.exception(), StoreError)

    asyncio.run(main())
    writer.close()


def test_drafts(store):
    store.save_draft("d1", "a: 1\n", "first")
    store.save_draft("d1", "a: 2\n", "first")
    assert store.draft("d1") == "a: 2\n"
    assert [d.id for d in store.list_drafts()] == ["d1"]
    assert store.draft("nope") is None


def test_cell_queries(store):
    run_id = new_run(store)
    writer = store.writer()
    for pid, model, status in [("a", "m1", "scored"), ("b", "m1", "failed"), ("a", "m2", "scored")]:
        writer.record_cell(
            CellRow(run_id, pid, f"{model}[temp:0]", model, status, input_tokens=10, cost_usd=0.5)
        )
    writer.close()
    assert [c.model_id for c in store.cells(run_id, prompt_id="a")] == [
        "m1[temp:0]",
        "m2[temp:0]",
    ]
    assert store.cell_counts(run_id) == {"m1": {"scored": 1, "failed": 1}, "m2": {"scored": 1}}
    assert len(store.cells(run_id, offset=1, limit=1)) == 1
    assert store.cell_keys(run_id) == {
        ("a", "m1[temp:0]"),
        ("b", "m1[temp:0]"),
        ("a", "m2[temp:0]"),
    }
    assert [c.failed for c in store.cells(run_id)] == [False, False, True]
    totals = store.model_totals(run_id)
    assert totals["m1[temp:0]"].cells == 2 and totals["m1[temp:0]"].input_tokens == 20
    assert totals["m2[temp:0]"].cost_usd == 0.5


def test_calls_cache_and_judgments(store):
    run_id = new_run(store)
    writer = store.writer()
    answer = '{"text": "hi"}'
    writer.record_call(
        CallRow(run_id, "k1", "generate", "m", "a", "m[temp:0]", answer, None, True, 5.0, 3, 4),
        CacheEntry("k1", "generate", "m", answer),
    )
    writer.record_reuse(run_id, "k1")
    writer.record_call(CallRow(run_id, "k2", "judge", "j", error="boom"))
    writer.record_judgment(JudgmentRow(run_id, "a", "m[temp:0]", 0, "j1", "j", "raw", "YES", 1.0))
    writer.heartbeat(run_id, RunTotals(done_calls=1, input_tokens=3)).result(timeout=10)
    writer.close()
    calls = store.run_calls(run_id)
    assert set(calls) == {"k1", "k2"}
    assert set(store.run_calls(run_id, kind="judge")) == {"k2"}
    assert store.run_calls(run_id, kind="embed") == {}
    assert calls["k1"].cached is True and calls["k1"].answer == {"text": "hi"}
    assert calls["k1"].reuses == 1 and calls["k2"].reuses == 0
    assert calls["k2"].error == "boom" and calls["k2"].answer is None
    assert set(store.run_calls(run_id, "judge")) == {"k2"}
    assert store.run_calls(run_id, "extract") == {}
    assert store.cache_get("k1") == {"text": "hi"} and store.cache_get("k2") is None
    assert store.cache_lookup(["k1", "k2", "k3"]) == {"k1": {"text": "hi"}}
    [judgment] = store.judgments(run_id, "a", "m[temp:0]")
    assert judgment.class_name == "YES" and judgment.score == 1.0
    run = store.get_run(run_id)
    assert run.done_calls == 1 and run.input_tokens == 3 and run.heartbeat_at is not None


def test_totals_and_summary(store):
    run_id = new_run(store)
    store.save_totals(run_id, RunTotals(done_calls=7, cached_calls=2, cost_usd=1.5))
    run = store.get_run(run_id)
    assert (run.done_calls, run.cached_calls, run.cost_usd) == (7, 2, 1.5)
    store.set_run_status(run_id, "running")
    store.complete_run(
        run_id, RunTotals(done_calls=9, cost_usd=2.5), {"m": {"average": 0.5}}, "/tmp/x.json"
    )
    run = store.get_run(run_id)
    assert (run.done_calls, run.cached_calls, run.cost_usd) == (9, 0, 2.5)
    assert run.summary == {"m": {"average": 0.5}} and run.comparison_path == "/tmp/x.json"
    assert run.status == "completed" and run.error is None
    assert run.finished_at is not None and run.heartbeat_at is None


def test_unknown_run_reads_as_none(store):
    assert store.get_run("nope") is None
    assert store.cells("nope") == [] and store.run_calls("nope") == {}


def test_a_failed_write_is_a_store_error_not_a_crash(store):
    with pytest.raises(StoreError, match="store write failed"):
        store.create_run(  # no such blueprint
            blueprint_hash="missing",
            title=None,
            config_id=None,
            options={},
            total_calls=0,
            total_cells=0,
        )


def test_one_failed_write_in_a_batch_keeps_the_others(store):
    writer = store.writer()
    futures = []
    for i in range(100):
        futures.append(writer.record_call(None, CacheEntry(f"k{i}", "generate", "m", "{}")))
        if i == 50:  # a cell of a run that does not exist, queued among good writes
            bad = writer.record_cell(CellRow("nope", "p", "m", "m", "scored"))
    writer.close()
    with pytest.raises(StoreError, match="store write failed"):
        bad.result(timeout=10)
    assert all(f.exception(timeout=10) is None for f in futures)
    assert len(store.cache_lookup([f"k{i}" for i in range(100)])) == 100
