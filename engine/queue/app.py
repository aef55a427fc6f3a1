"""The procrastinate app of team mode: its queue, its task, the stall timings and the sweep."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from procrastinate import App, JobContext, PsycopgConnector, RetryStrategy

__all__ = [
    "HEARTBEAT_S",
    "PART_TASK",
    "QUEUE",
    "STALLED_AFTER_S",
    "SWEEP_S",
    "build_app",
    "sweep_stalled",
]

logger = logging.getLogger(__name__)

QUEUE = "blueprint-runs"
"""The queue of run parts."""
PART_TASK = "blueprint.run_part"
HEARTBEAT_S = 1.0
"""Seconds between a worker's heartbeats (procrastinate's `update_heartbeat_interval`)."""
STALLED_AFTER_S = 6.0
"""A worker silent this long is dead: its parts are queued again for other workers.

Well above any pause of a healthy worker (a part never blocks its event loop that long), so a
live worker's part is not run twice. A killed worker's parts start again on another within
about `STALLED_AFTER_S + HEARTBEAT_S + SWEEP_S` seconds plus a poll (0.5 s): 8.5 s at most.
"""
SWEEP_S = 1.0
"""How often each worker looks for the parts of dead workers (one worker at a time does)."""
_SWEEP_LOCK = 0x62707377  # pg_try_advisory_lock key: one sweeper at a time over all workers

PartRunner = Callable[[str, int], Awaitable[None]]
"""Executes one part of a run: `(run_id, part)`."""


def build_app(url: str, run_part: PartRunner | None = None, *, pool_size: int = 4) -> App:
    """The app on the store's database; a worker passes `run_part`, an enqueuer does not.

    A worker's pool shrinks to one connection while idle; procrastinate checks each connection
    as it is taken, so one the server closed meanwhile (a restart, a failover) is replaced.

    Args:
        url: The PostgreSQL address (`BLUEPRINT_DATABASE_URL`).
        run_part: What a worker does with a part (None: this app only enqueues).
        pool_size: Connections of procrastinate's pool at most.
    """
    pool: dict[str, Any] = {"min_size": 1, "max_size": pool_size}
    if run_part is not None:  # the enqueuer's pool is opened for one batch (and is synchronous)
        pool["max_idle"] = 60.0
    app = App(
        connector=PsycopgConnector(conninfo=url, **pool),
        worker_defaults={
            "update_heartbeat_interval": HEARTBEAT_S,
            "stalled_worker_timeout": STALLED_AFTER_S,
            "fetch_job_polling_interval": 0.5,
            "abort_job_polling_interval": 1.0,
        },
    )

    @app.task(
        name=PART_TASK,
        queue=QUEUE,
        pass_context=True,
        retry=RetryStrategy(max_attempts=2, wait=2),
    )
    async def part(context: JobContext, run_id: str, part: int) -> None:
        if run_part is None:
            raise RuntimeError("this app only enqueues; start `blueprint worker` to run parts")
        await run_part(run_id, part)

    return app


async def sweep_stalled(app: App) -> int:
    """Queue again the parts of workers silent for `STALLED_AFTER_S`; return how many.

    Every worker calls it every `SWEEP_S` seconds, outside procrastinate's job slots (a sweep
    job would wait for a free slot behind the parts). An advisory lock lets one worker sweep
    at a time: two sweeps at once could both requeue a part, one after another worker had
    started it again, and it would then run twice.
    """
    async with app.connector.pool.connection() as conn:  # type: ignore[attr-defined]
        cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (_SWEEP_LOCK,))
        row = await cursor.fetchone()
        if not (row and row[0]):
            return 0
        try:
            stalled = list(
                await app.job_manager.get_stalled_jobs(
                    queue=QUEUE, seconds_since_heartbeat=STALLED_AFTER_S
                )
            )
            for job in stalled:
                await app.job_manager.retry_job(job)
                logger.info(
                    "a stalled part of run %s is queued again", job.task_kwargs.get("run_id")
                )
            return len(stalled)
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (_SWEEP_LOCK,))
