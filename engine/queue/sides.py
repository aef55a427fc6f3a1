"""A worker's side tasks: hearing Stop as it is pressed, and handing dead workers' parts on."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import psycopg

from engine.errors import StoreError
from engine.queue.app import QUEUE, STALLED_AFTER_S, SWEEP_S
from engine.store.postgres import STOP_CHANNEL
from engine.store.queue_book import QueueBook

__all__ = ["listen_for_stops", "sweep"]

logger = logging.getLogger(__name__)


async def listen_for_stops(url: str, on_stop: Callable[[str], None]) -> None:
    """Call `on_stop(run_id)` as each Stop is pressed (a NOTIFY on `STOP_CHANNEL`), for ever.

    A lost connection is opened again at once (a second later when that fails); a Stop pressed
    meanwhile is read from the run's flag by its heartbeat (`engine.run.shard.heartbeat`)
    within a second.
    """
    while True:
        listening = False
        try:
            async with await psycopg.AsyncConnection.connect(
                url, autocommit=True, connect_timeout=10, application_name="blueprint-stops"
            ) as conn:
                await conn.execute(f"LISTEN {STOP_CHANNEL}")
                listening = True
                while True:
                    async for note in conn.notifies(timeout=30.0):
                        on_stop(note.payload)
                    await conn.execute("SELECT 1")  # a silent half minute: still there?
        except psycopg.Error as exc:
            logger.info("listening for Stop: %s", " ".join(str(exc).split())[:200])
        if not listening:
            await asyncio.sleep(1.0)


async def sweep(book: QueueBook, clock: Callable[[], float] = time.monotonic) -> None:
    """Every `SWEEP_S` seconds, queue again the parts of workers silent `STALLED_AFTER_S` s.

    Only once this worker has reached the database without a hitch for `STALLED_AFTER_S`: after
    an outage (a restart) every worker's heartbeat is old, and a sweep right then would hand
    on the parts of live workers (itself included) that have not yet beaten again.
    """
    calm_since = clock()
    while True:
        started = clock()
        try:
            if started - calm_since >= STALLED_AFTER_S:
                requeued = await asyncio.to_thread(book.requeue_stalled, QUEUE, STALLED_AFTER_S)
                if requeued:
                    logger.info("%d part(s) of a silent worker queued again", len(requeued))
            else:
                await asyncio.to_thread(book.ping)
        except StoreError as exc:  # the database is away: the next sweep tries again
            logger.info("looking for stalled parts: %s", exc)
            calm_since = clock()
        if clock() - started > STALLED_AFTER_S / 2:  # so slow: the database was away meanwhile
            calm_since = clock()
        await asyncio.sleep(SWEEP_S)
