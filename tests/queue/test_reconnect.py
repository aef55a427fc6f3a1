"""Every user of the team database lives through a drop of all its connections (a restart, a failover).

Each test closes every connection of the test's database with `pg_terminate_backend`, as a
PostgreSQL restart, a failover or a pgbouncer restart does, at one of the moments a team meets
it: idle before a run, in the middle of a run, just before a Stop.
"""

from __future__ import annotations

import time

import psycopg
import pytest

from engine.queue.enqueue import enqueue_run
from engine.run.service import prepare_run
from engine.store import open_store
from studio.core import runs
from tests.queue.conftest import (
    allow_connections,
    blueprint,
    drop_connections,
    following,
    server_calls,
    wait_for,
    worker_env,
)

pytestmark = pytest.mark.slow


def _workers(url: str) -> int:
    """How many workers are registered in procrastinate's table."""
    with psycopg.connect(url) as conn:
        if conn.execute("SELECT to_regclass('procrastinate_workers')").fetchone() == (None,):
            return 0  # the first worker has not made the queue's tables yet
        row = conn.execute("SELECT COUNT(*) FROM procrastinate_workers").fetchone()
    return int(row[0]) if row else 0


def _connections(url: str, where: str = "TRUE") -> int:
    """Connections to the database besides the one asking (those that match `where`)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
            f"AND pid <> pg_backend_pid() AND {where}"
        ).fetchone()
    return int(row[0]) if row else 0


def _listening(url: str) -> bool:
    """Whether a worker listens for Stop (its connection is back after a drop)."""
    return _connections(url, "application_name = 'blueprint-stops'") > 0


def _one_worker(url, fake, start_worker, tmp_path):
    """One worker (concurrency 8) registered on the database; its environment and process."""
    fake.control({"latency_ms": 50})
    env = worker_env(url, fake, tmp_path / "home")
    worker = start_worker(env, "--concurrency", "8")
    wait_for(lambda: _workers(url) == 1, 60, "the worker to register")
    return env, worker


def test_a_queued_run_completes_after_drops_while_idle_and_mid_run_and_its_follower_says_so(
    queue_db, fake_llm, start_worker, tmp_path
):
    env, worker = _one_worker(queue_db, fake_llm, start_worker, tmp_path)
    store = open_store(queue_db)  # this process's pool, dropped too
    assert store.list_runs() == []
    assert drop_connections(queue_db) >= 3  # the worker's pools, listeners and writer

    (tmp_path / "q.yml").write_text(blueprint(prompts=150))  # 300 calls: 5 parts
    with following(env, tmp_path, "q.yml", "--out", "out") as follower:
        run_id = follower.stdout.readline().split()[1]
        wait_for(lambda: store.get_run(run_id).done_calls >= 60, 120, "60 calls done")
        assert store.get_run(run_id).status == "running"
        assert drop_connections(queue_db) >= 3  # mid-run: the follower's too
        out, err = follower.communicate(timeout=300)
    assert follower.returncode == 0, err  # the run's real end, not 2 for the drop
    assert "completed: 300/300 cells" in out
    assert "Traceback" not in err
    run = store.get_run(run_id)
    assert run.status == "completed" and len(store.cells(run_id)) == 300
    assert all(c.status == "scored" for c in store.cells(run_id))
    seen = server_calls(fake_llm)
    assert len(seen) == 300
    assert max(seen.values()) == 1  # no answer was lost with a connection: none asked twice
    assert worker.poll() is None  # the worker lived through both drops


def test_a_run_started_from_the_studio_after_a_drop_completes_every_part(
    queue_db, fake_llm, start_worker, tmp_path, monkeypatch
):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("BLUEPRINT_DATABASE_URL", queue_db)  # the studio on the team store
    start_worker(worker_env(queue_db, fake_llm, tmp_path / "home"), "--concurrency", "8")
    wait_for(lambda: _workers(queue_db) == 1, 60, "the worker to register")
    store = open_store(queue_db)
    assert store.list_runs() == []
    assert drop_connections(queue_db) >= 3

    choice = runs.RunChoice(models=("openai:m1", "openai:m2"), judge=False)
    prepared = runs.start(store, blueprint(prompts=150), "s.yml", choice)  # the Run button
    assert prepared.run_id is not None and not prepared.problems
    run_id = prepared.run_id
    wait_for(lambda: store.get_run(run_id).status not in ("planned", "running"), 180, "the end")
    run = store.get_run(run_id)
    assert run.status == "completed", run.error
    assert run.done_cells == 300 and len(store.cells(run_id)) == 300
    assert max(server_calls(fake_llm).values()) == 1


def test_stop_pressed_just_after_a_drop_is_not_lost(
    queue_db, fake_llm, start_worker, tmp_path, monkeypatch
):
    fake_llm.control({"latency_ms": 200})
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("BLUEPRINT_DATABASE_URL", queue_db)
    store = open_store(queue_db)
    prepared = prepare_run(store, blueprint(prompts=100), source="stop.yml")
    run_id = prepared.run_id
    enqueue_run(queue_db, run_id, prepared.plan)
    start_worker(worker_env(queue_db, fake_llm, tmp_path / "home"), "--concurrency", "4")
    wait_for(lambda: store.get_run(run_id).done_calls >= 8, 60, "some calls done")

    assert drop_connections(queue_db) >= 3
    assert runs.stop(store, run_id)  # the studio's Stop, on a pool whose connections are gone
    wait_for(lambda: store.get_run(run_id).status == "stopped", 30, "the run to stop")
    run = store.get_run(run_id)
    assert run.done_cells < 200 and run.resumable
    wait_for(lambda: _listening(queue_db), 30, "the worker to listen for Stop again")

    assert runs.resume(store, run_id) == []  # and the rest is done after all
    wait_for(lambda: store.get_run(run_id).status == "completed", 120, "the resumed run")
    assert len(store.cells(run_id)) == 200
    assert max(server_calls(fake_llm).values()) == 1


def test_a_worker_holds_few_connections_idle_and_its_pools_sizes_at_most_busy(
    queue_db, fake_llm, start_worker, tmp_path, monkeypatch
):
    from engine.queue.worker import pool_sizes

    fake_llm.control({"latency_ms": 20})
    start_worker(worker_env(queue_db, fake_llm, tmp_path / "home"), "--concurrency", "32")
    wait_for(lambda: _workers(queue_db) == 1 and _listening(queue_db), 60, "the worker to start")
    mine = "application_name IN ('blueprint-worker', 'blueprint-writer', 'blueprint-stops')"
    idle = _connections(queue_db, mine)
    busiest = idle
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    store = open_store(queue_db)
    prepared = prepare_run(store, blueprint(prompts=200), source="c.yml")
    enqueue_run(queue_db, prepared.run_id, prepared.plan)
    while store.get_run(prepared.run_id).status not in ("completed", "stopped", "failed"):
        busiest = max(busiest, _connections(queue_db, mine))
    # besides the pools: the writer, the one that ends a run, procrastinate's LISTEN and Stop's
    most = sum(pool_sizes(32)) + 4
    print(
        f"\nconnections of a worker (concurrency 32): {idle} idle, {busiest} busy, {most} at most"
    )
    assert idle <= 6  # pools of one or two, the writer and two listeners
    assert busiest <= most


def test_the_follower_ends_with_a_resume_hint_once_no_part_of_the_run_is_left_to_run(
    queue_db, fake_llm, tmp_path
):
    """Parts that failed for good leave the run unfinished: the follower says so, never hangs."""
    (tmp_path / "q.yml").write_text(blueprint(prompts=5))
    env = worker_env(queue_db, fake_llm, tmp_path / "home")
    with following(env, tmp_path, "q.yml") as follower:
        run_id = follower.stdout.readline().split()[1]
        assert follower.stderr.readline().startswith("queued in 1 part(s)")
        with psycopg.connect(queue_db, autocommit=True) as conn:  # as after its last attempt
            conn.execute(
                "UPDATE procrastinate_jobs SET status='failed' WHERE args->>'run_id'=%s",
                (run_id,),
            )
        _, err = follower.communicate(timeout=60)
    assert follower.returncode == 1
    assert "no part of the run is queued or running" in err
    assert f"blueprint run --queue --resume {run_id}" in err


def test_a_run_completes_when_the_database_is_away_for_seconds_mid_run(
    queue_db, fake_llm, start_worker, tmp_path
):
    """A restart takes seconds: nothing connects meanwhile, and the worker must not give up."""
    env, worker = _one_worker(queue_db, fake_llm, start_worker, tmp_path)
    store = open_store(queue_db)
    (tmp_path / "q.yml").write_text(blueprint(prompts=150))
    with following(env, tmp_path, "q.yml") as follower:
        run_id = follower.stdout.readline().split()[1]
        wait_for(lambda: store.get_run(run_id).done_calls >= 60, 120, "60 calls done")
        allow_connections(queue_db, False)
        try:
            assert drop_connections(queue_db) >= 3
            away = time.monotonic() + 4  # the outage lasts 4 s; every connection attempt fails
            wait_for(lambda: time.monotonic() > away, 30, "the outage to pass")
        finally:
            allow_connections(queue_db, True)
        out, err = follower.communicate(timeout=300)
    assert follower.returncode == 0, err
    assert "completed: 300/300 cells" in out
    run = store.get_run(run_id)
    assert run.status == "completed" and len(store.cells(run_id)) == 300
    (tmp_path / "next.yml").write_text(blueprint(prompts=10).replace("number", "next number"))
    with following(env, tmp_path, "next.yml") as follower:  # and it takes the next run
        out, err = follower.communicate(timeout=120)
    assert follower.returncode == 0, err
    assert worker.poll() is None  # the worker waited for the database, then went on
