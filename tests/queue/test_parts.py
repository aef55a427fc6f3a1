"""Splitting a run into parts, the end of a run by its last part, and the shared rate limit."""

from __future__ import annotations

import threading
import time

import click
import psycopg
import pytest

from engine.blueprint import parse_blueprint
from engine.cli.worker_cmd import parse_rate
from engine.errors import StoreError
from engine.queue.app import QUEUE
from engine.queue.enqueue import enqueue_run
from engine.queue.worker import PartExecutor
from engine.run import RunOptions
from engine.run.plan import plan_run
from engine.run.service import prepare_run
from engine.run.shard import part_of, prompt_ranges
from engine.store import CacheEntry, open_store
from engine.store.postgres import PostgresWriter
from engine.store.queue_book import QueueBook
from tests.queue.conftest import blueprint


def _plan(prompts: int, models: int = 2):
    return plan_run(parse_blueprint(blueprint(prompts, models)), judge=False)


def test_parts_cover_every_prompt_once_in_ranges_of_about_the_asked_calls():
    plan = _plan(prompts=45, models=2)  # 90 calls, 2 per prompt
    ranges = prompt_ranges(plan, 20)
    assert ranges[0] == (0, 10) and ranges[-1] == (40, 45)
    assert [b for _, b in ranges[:-1]] == [a for a, _ in ranges[1:]]  # consecutive, no gap
    cells = [c.key for r in ranges for c in part_of(plan, *r).cells]
    assert sorted(cells) == sorted(c.key for c in plan.cells)  # every cell in exactly one part
    assert prompt_ranges(plan, 10_000) == [(0, 45)]


def test_a_runs_last_calls_go_in_half_size_parts_so_its_workers_finish_together():
    plan = _plan(prompts=300, models=2)  # 600 calls, 2 per prompt
    sizes = [2 * (b - a) for a, b in prompt_ranges(plan, 100)]
    assert sizes == [100, 100, 100, 100, 50, 50, 50, 50]
    assert sum(sizes) == plan.total_calls


def test_the_last_part_to_finish_ends_the_run_exactly_once_and_a_rerun_part_still_can(queue_db):
    store = open_store(queue_db)
    digest = store.save_blueprint("x", None, None)
    run_id = store.create_run(
        blueprint_hash=digest, title=None, config_id=None, options={}, total_calls=3,
        total_cells=3,
    )  # fmt: skip
    book = QueueBook(queue_db)
    book.plan_shards(run_id, [(0, 1), (1, 2), (2, 3)])
    assert book.shard_range(run_id, 1) == (1, 2) and book.shard_range(run_id, 7) is None
    answers: list[bool] = []
    threads = [
        threading.Thread(target=lambda i=i: answers.append(book.finish_shard(run_id, i)))
        for i in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [False, False, True]  # finishing together: exactly one is last
    assert book.shard_counts(run_id) == (3, 3)
    assert book.finish_shard(run_id, 2)  # a part run again after its worker died ends it too
    store.set_run_status(run_id, "completed")
    assert not book.finish_shard(run_id, 2)  # ... but never a run that has ended


def test_a_providers_rate_holds_across_reservers(queue_db):
    books = [QueueBook(queue_db), QueueBook(queue_db)]
    books[0].set_rate("openai", 20, 2)
    # Each slot is known to lie between (sent + wait) and (answered + wait): the database picks
    # it at some moment of the round trip, which a loaded machine can stretch.
    early: list[float] = []
    late: list[float] = []
    lock = threading.Lock()

    def reserve(book: QueueBook) -> None:
        for _ in range(15):
            sent = time.time()
            wait = book.reserve("openai")
            answered = time.time()
            with lock:
                early.append(sent + wait)
                late.append(answered + wait)

    threads = [threading.Thread(target=reserve, args=(b,)) for b in books]
    started = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    early.sort()
    late.sort()
    # 30 calls at 20/s with a burst of 2: the last may go about (30 - 2) / 20 s in, not before
    assert late[-1] - started >= 28 / 20 - 0.05
    # GCRA: any k + 1 consecutive calls span at least (k + 1 - burst) periods. The i-th latest
    # bound is never before the i-th slot, the i-th earliest never after it, so this holds
    # whatever the round trips took (and fails when the rate is not shared: all waits 0).
    for i in range(len(early) - 10):
        assert late[i + 10] - early[i] >= 9 / 20 - 1e-6
    assert books[1].reserve("anthropic") == 0.0  # a provider without a limit never waits


def test_rates_are_read_and_bad_ones_say_how_to_write_them():
    assert parse_rate("openrouter=50") == ("openrouter", 50.0, 1)
    assert parse_rate("OpenAI=2.5/5") == ("openai", 2.5, 5)
    for bad in ("openai", "openai=0", "openai=-1", "openai=fast"):
        with pytest.raises(click.BadParameter, match="PROVIDER=CALLS_PER_SECOND"):
            parse_rate(bad)


def test_the_studio_says_a_planned_run_waits_for_a_worker_in_team_mode(monkeypatch):
    from studio.core import runs

    monkeypatch.delenv("BLUEPRINT_DATABASE_URL", raising=False)
    assert runs.status_word("planned") == "starting"  # personal: it starts in this process
    monkeypatch.setenv("BLUEPRINT_DATABASE_URL", "postgresql://u@127.0.0.1:5432/team")
    assert runs.status_word("planned") == "queued (waiting for a worker)"
    assert runs.status_word("running") == "running"


def test_a_worker_reads_ahead_the_plan_of_the_oldest_run_waiting_that_it_has_not_loaded(
    queue_db, monkeypatch
):
    """Its first part then starts calling at once: the blueprint was parsed meanwhile."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # the runs are planned, never called
    store = open_store(queue_db)
    runs = []
    for i in range(3):
        prepared = prepare_run(
            store, blueprint(4 + i), source=f"r{i}.yml", options=RunOptions(out_dir=None)
        )
        assert prepared.run_id is not None, prepared.problems
        enqueue_run(queue_db, prepared.run_id, prepared.plan, part_calls=2)
        runs.append(prepared.run_id)
    book = QueueBook(queue_db)
    assert book.waiting_runs(QUEUE, limit=5) == runs  # oldest first, once each
    with psycopg.connect(queue_db, autocommit=True) as conn:  # a worker took the first run's parts
        conn.execute(
            "UPDATE procrastinate_jobs SET status='doing' WHERE args->>'run_id'=%s", (runs[0],)
        )
    assert book.waiting_runs(QUEUE, limit=5) == runs[1:]
    assert book.waiting_runs("another-queue") == []
    executor = PartExecutor(store, book, concurrency=4, rates={})
    try:
        executor._read_ahead()
        assert list(executor._plans) == [runs[1]]
        assert len(executor._plans[runs[1]].plan.cells) == 5 * 2
        executor._read_ahead()  # the next one, not the same again
        assert list(executor._plans) == runs[1:]
    finally:
        executor.close()


def test_a_worker_whose_writer_could_not_connect_makes_a_new_one_for_its_next_part(queue_db):
    """One writer serves all of a worker's parts: a database down at that moment is not for good."""
    store = open_store(queue_db)
    executor = PartExecutor(store, QueueBook(queue_db), concurrency=4, rates={})
    try:
        assert executor._writer() is executor.writer  # connected: kept
        executor.writer.close()
        executor.writer = PostgresWriter("postgresql://postgres@127.0.0.1:1/gone")  # refused
        with pytest.raises(StoreError, match="cannot reach the database"):
            executor.writer.flushed().result(timeout=30)
        assert not executor.writer.usable
        writer = executor._writer()
        assert writer.usable and writer is executor.writer
        writer.record_call(None, CacheEntry("k-after", "generate", "m", "{}")).result(timeout=30)
        assert list(store.cache_lookup(["k-after"])) == ["k-after"]
    finally:
        executor.close()
