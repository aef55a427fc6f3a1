"""Fixtures of the queue tests: a PostgreSQL database per test, workers as real processes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from tests.fakes.llm_server import FakeLLM
from tests.store.pg import fresh_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def queue_db() -> Iterator[str]:
    """A fresh database of its own for one test, dropped at its end (skipped without a server)."""
    with fresh_database("blueprint_queue") as url:
        yield url


def blueprint(prompts: int, models: int = 2) -> str:
    """A blueprint of `prompts` prompts × `models` fake models; every answer echoes its prompt."""
    names = ", ".join(f"openai:m{i}" for i in range(1, models + 1))
    lines = ["title: Queue test", f"models: [{names}]", "---"]
    for i in range(prompts):
        lines += [
            f"- id: p{i}",
            f"  prompt: Say hello number {i}",
            "  should:",
            f"    - $contains: 'number {i}'",
            "    - $word_count_between: [1, 3]",
        ]
    return "\n".join(lines) + "\n"


def worker_env(url: str, fake: FakeLLM, home: Path) -> dict[str, str]:
    """The environment of a worker process: the team store and the fake providers."""
    return {
        **os.environ,
        **fake.env(),
        "BLUEPRINT_DATABASE_URL": url,
        "BLUEPRINT_HOME": str(home),
        "PYTHONPATH": str(ROOT),
    }


WorkerStarter = Callable[..., subprocess.Popen[str]]


@pytest.fixture
def start_worker(tmp_path: Path) -> Iterator[WorkerStarter]:
    """Start `blueprint worker` processes; each is ended at the test's end (SIGTERM, then kill)."""
    started: list[subprocess.Popen[str]] = []

    def start(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
        log = (tmp_path / f"worker{len(started)}.log").open("w")
        proc = subprocess.Popen(
            [sys.executable, "-m", "engine", "worker", *args],
            env=env,
            cwd=tmp_path,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 20
    for proc in started:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll `predicate` every 0.1 s until it holds; fail with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


_NUMBER = re.compile(r"number (\d+)")


def server_calls(fake: FakeLLM) -> Counter[tuple[str, str]]:
    """(prompt id, model id) of every request the fake server received, with repeats."""
    seen: Counter[tuple[str, str]] = Counter()
    for request in list(fake.calls):
        match = _NUMBER.search(request.last_user)
        assert match is not None, request.last_user
        seen[(f"p{match.group(1)}", f"openai:{request.model}")] += 1
    return seen


def drop_connections(url: str) -> int:
    """Close every connection to the database, as a restart or failover does; return how many.

    Asked from the server's `postgres` database, so it works while the database refuses
    connections too.
    """
    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return sum(1 for (done,) in rows if done)


@contextmanager
def following(env: dict[str, str], cwd: Path, *args: str) -> Iterator[subprocess.Popen[str]]:
    """`blueprint run ARGS --queue` in a process whose output is piped; killed if left running."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine", "run", *args, "--queue"],
        env=env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def allow_connections(url: str, allow: bool) -> None:
    """Let clients connect to the test's database or not (as while PostgreSQL restarts)."""
    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(
            sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS {}").format(
                sql.Identifier(name), sql.SQL("true" if allow else "false")
            )
        )
