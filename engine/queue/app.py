"""The procrastinate app of team mode: its queue, its task and the stall timings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from procrastinate import App, JobContext, PsycopgConnector, RetryStrategy

__all__ = [
    "HEARTBEAT_S",
    "PART_TASK",
    "QUEUE",
    "STALLED_AFTER_S",
    "SWEEP_S",
    "build_app",
]

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
"""How often each worker looks for the parts of dead workers (`QueueBook.requeue_stalled`)."""

PartRunner = Callable[[str, int], Awaitable[None]]
"""Executes one part of a run: `(run_id, part)`."""


def build_app(url: str, run_part: PartRunner | None = None, *, pool_size: int = 4) -> App:
    """The app on the store's database; a worker passes `run_part`, an enqueuer does not.

    procrastinate checks each connection of its pool as it is taken, so one the server closed
    meanwhile (a restart, a failover) is replaced. A worker's pool needs few: its statements
    (fetch a part, finish it, beat) take milliseconds, seconds apart.

    Args:
        url: The PostgreSQL address (`BLUEPRINT_DATABASE_URL`).
        run_part: What a worker does with a part (None: this app only enqueues).
        pool_size: Connections of procrastinate's pool at most (`pool_sizes`).
    """
    app = App(
        connector=PsycopgConnector(conninfo=url, min_size=1, max_size=pool_size, max_idle=60.0),
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
