"""The procrastinate app of team mode: its queue, its task and the stall timings."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, LiteralString, TypeVar

import psycopg
from procrastinate import App, JobContext, PsycopgConnector, RetryStrategy
from procrastinate.connector import Notify
from procrastinate.exceptions import ConnectorException

__all__ = [
    "HEARTBEAT_S",
    "PART_TASK",
    "QUEUE",
    "STALLED_AFTER_S",
    "SWEEP_S",
    "ReconnectingConnector",
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

logger = logging.getLogger(__name__)
_T = TypeVar("_T")


async def _again(call: Callable[..., Awaitable[_T]], query: LiteralString, args: Any) -> _T:
    """`call(query, **args)`, once more on a fresh connection when its connection was lost."""
    try:
        return await call(query, **args)
    except ConnectorException as exc:
        if not isinstance(exc.__cause__, psycopg.OperationalError):
            raise
        logger.info("a queue statement lost its connection; asked again on a new one")
        return await call(query, **args)


class ReconnectingConnector(PsycopgConnector):
    """procrastinate's connector, asking a statement once more when its connection was lost.

    A worker's heartbeat or job fetch that meets a connection closed by the server (a
    restart, a failover) would otherwise stop procrastinate's worker. Asked again, the
    heartbeat and the reads are the same; a finish already committed says so and is logged;
    a fetch committed just before its answer was lost leaves its part taken until this
    worker stops (then the sweep hands it on), a window of microseconds.
    """

    async def listen_notify(self, on_notification: Notify, channels: Iterable[str]) -> None:
        """As procrastinate's, trying again each second while its connection cannot open.

        procrastinate's opens a lost connection again, but stops the worker when that fails.
        """
        while True:
            try:
                await super().listen_notify(on_notification, channels)
            except ConnectorException as exc:
                if not isinstance(exc.__cause__, psycopg.OperationalError):
                    raise
                logger.info("the queue's LISTEN connection cannot open; again in a second")
                await asyncio.sleep(1.0)

    async def execute_query_async(self, query: LiteralString, **arguments: Any) -> None:
        """As procrastinate's, asked once more after a lost connection."""
        await _again(super().execute_query_async, query, arguments)

    async def execute_query_one_async(
        self, query: LiteralString, **arguments: Any
    ) -> dict[str, Any]:
        """As procrastinate's, asked once more after a lost connection."""
        return await _again(super().execute_query_one_async, query, arguments)

    async def execute_query_all_async(
        self, query: LiteralString, **arguments: Any
    ) -> list[dict[str, Any]]:
        """As procrastinate's, asked once more after a lost connection."""
        return await _again(super().execute_query_all_async, query, arguments)


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
        connector=ReconnectingConnector(
            conninfo=url, min_size=1, max_size=pool_size, max_idle=60.0
        ),
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
