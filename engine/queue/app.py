"""The procrastinate app of team mode: its queues, its two tasks, and the stall timings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from procrastinate import App, JobContext, PsycopgConnector, RetryStrategy

__all__ = [
    "HEARTBEAT_S",
    "PART_TASK",
    "QUEUE",
    "STALLED_AFTER_S",
    "SWEEP_QUEUE",
    "build_app",
]

QUEUE = "blueprint-runs"
"""The queue of run parts."""
SWEEP_QUEUE = "blueprint-sweep"
"""The queue of the periodic sweep that hands a dead worker's parts to others."""
PART_TASK = "blueprint.run_part"
HEARTBEAT_S = 2.0
"""Seconds between a worker's heartbeats (procrastinate's `update_heartbeat_interval`)."""
STALLED_AFTER_S = 10.0
"""A worker silent this long is dead: its parts are queued again for other workers.

Well above any pause of a healthy worker (a part never blocks its event loop that long), so a
live worker's part is not run twice.
"""
SWEEP_CRON = "* * * * * */2"
"""How often the sweep runs (croniter's sixth field is seconds: every 2 s)."""

PartRunner = Callable[[str, int], Awaitable[None]]
"""Executes one part of a run: `(run_id, part)`."""


def build_app(url: str, run_part: PartRunner | None = None, *, pool_size: int = 4) -> App:
    """The app on the store's database; a worker passes `run_part`, an enqueuer does not.

    Args:
        url: The PostgreSQL address (`BLUEPRINT_DATABASE_URL`).
        run_part: What a worker does with a part (None: this app only enqueues).
        pool_size: Connections of procrastinate's pool.
    """
    app = App(
        connector=PsycopgConnector(conninfo=url, min_size=1, max_size=pool_size),
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

    @app.periodic(cron=SWEEP_CRON)
    @app.task(
        name="blueprint.retry_stalled",
        queue=SWEEP_QUEUE,
        queueing_lock="blueprint.retry_stalled",
        pass_context=True,
    )
    async def retry_stalled(context: JobContext, timestamp: int) -> None:
        stalled = await app.job_manager.get_stalled_jobs(
            queue=QUEUE, seconds_since_heartbeat=STALLED_AFTER_S
        )
        for job in stalled:
            await app.job_manager.retry_job(job)

    return app
