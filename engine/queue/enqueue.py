"""Queueing a recorded run: its parts in the store, one procrastinate job per part."""

from __future__ import annotations

import os

from procrastinate.types import JSONValue

from engine.errors import ConfigError
from engine.queue.app import PART_TASK, build_app
from engine.run.plan import RunPlan
from engine.run.shard import prompt_ranges
from engine.store.postgres import is_postgres_url
from engine.store.queue_book import QueueBook
from engine.store.queue_schema import ensure_queue_schema

__all__ = ["PART_CALLS", "enqueue_run", "requeue_run", "team_database_url"]

PART_CALLS = 100
"""About how many calls one part of a run makes (its prompts are never split)."""


def team_database_url(environ: dict[str, str] | None = None) -> str:
    """The team database (`BLUEPRINT_DATABASE_URL`), required to queue runs or run workers.

    Raises:
        ConfigError: It is not set, or not a PostgreSQL address.
    """
    url = (
        (environ if environ is not None else dict(os.environ))
        .get("BLUEPRINT_DATABASE_URL", "")
        .strip()
    )
    if not is_postgres_url(url):
        raise ConfigError(
            "Runs on a queue need the team store: set BLUEPRINT_DATABASE_URL="
            "postgresql://USER@HOST:PORT/DATABASE (see docs/deploy.md). Without it, "
            "`blueprint run` runs in this process and needs no worker."
        )
    return url


def enqueue_run(url: str, run_id: str, plan: RunPlan, *, part_calls: int = PART_CALLS) -> int:
    """Split a recorded run into parts and queue them for `blueprint worker`; return the parts.

    Raises:
        StoreError: The database cannot be reached or written.
    """
    ensure_queue_schema(url)
    ranges = prompt_ranges(plan, part_calls)
    QueueBook(url).plan_shards(run_id, ranges)
    app = build_app(url, pool_size=1)
    with app.open():
        jobs: list[dict[str, JSONValue]] = [
            {"run_id": run_id, "part": i} for i in range(len(ranges))
        ]
        app.tasks[PART_TASK].batch_defer(*jobs)
    return len(ranges)


def requeue_run(url: str, run_id: str, plan: RunPlan, *, part_calls: int = PART_CALLS) -> int:
    """Queue an interrupted, stopped or failed run again; finished calls are not repeated.

    Raises:
        StoreError: The database cannot be reached or written.
    """
    QueueBook(url).restart(run_id)
    return enqueue_run(url, run_id, plan, part_calls=part_calls)
