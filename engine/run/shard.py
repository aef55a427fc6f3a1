"""One part of a run (a range of its prompts) executed by a queue worker, beside other parts.

A part records its cells and calls like a whole run does, but leaves the run's end to whoever
finishes last (`execute_run` on the whole plan, which finds every cell done and only scores).
The worker beats once for each run it executes parts of (`heartbeat`): it stamps the run alive,
counts what the store holds (other parts count too), and reads the run's stop flag, so Stop
pressed anywhere reaches every worker within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
from collections.abc import Callable

from engine.errors import StoreError
from engine.providers import ProviderPool
from engine.run.execute import _Runner
from engine.run.outcome import RunOptions
from engine.run.plan import RunPlan
from engine.settings import Settings
from engine.store import RunWriter, Store

__all__ = ["BEAT_S", "beat", "execute_part", "heartbeat", "part_of", "prompt_ranges"]

BEAT_S = 1.0
"""Seconds between the heartbeats of a run in a worker (and its readings of the stop flag)."""


def prompt_ranges(plan: RunPlan, calls_per_part: int) -> list[tuple[int, int]]:
    """Split a plan's prompts into consecutive ranges (first, end) of about `calls_per_part` calls.

    The run's last `2 x calls_per_part` calls go in parts of half that size, so the workers
    sharing a run finish it together: the last part taken is short, and no worker waits long
    for another's. A prompt is never split; a plan without calls is one range.
    """
    prompts = plan.blueprint.prompts
    weight = dict.fromkeys((p.id for p in prompts), 0)
    judges = len(plan.judges or [])
    for cell in plan.cells:
        texts = sum(1 for p in cell.prompt.points if p.fn is None)
        weight[cell.prompt.id] += cell.turns + texts * judges
    tail, small = 2 * calls_per_part, max(1, calls_per_part // 2)
    left = sum(weight.values())
    ranges: list[tuple[int, int]] = []
    first = size = 0
    for i, prompt in enumerate(prompts):
        size += weight[prompt.id]
        if size >= (calls_per_part if left > tail else small):
            ranges.append((first, i + 1))
            first, left, size = i + 1, left - size, 0
    if first < len(prompts) or not ranges:
        ranges.append((first, len(prompts)))
    return ranges


def part_of(plan: RunPlan, first: int, end: int) -> RunPlan:
    """The plan restricted to the prompts `first` to `end` (excluded), in blueprint order."""
    ids = {p.id for p in plan.blueprint.prompts[first:end]}
    return dataclasses.replace(plan, cells=[c for c in plan.cells if c.prompt.id in ids])


def beat(store: Store, run_id: str, stop: threading.Event) -> None:
    """Stamp a run alive with its counts from the store; set `stop` when its stop flag is up."""
    store.touch_run(run_id)
    if store.stop_requested(run_id):
        stop.set()


async def heartbeat(store: Store, run_id: str, stop: threading.Event) -> None:
    """`beat` every `BEAT_S` seconds until cancelled (a failed beat is retried by the next)."""
    while True:
        with contextlib.suppress(StoreError):  # a liveness signal: the next beat retries
            await asyncio.to_thread(beat, store, run_id, stop)
        await asyncio.sleep(BEAT_S)


class _PartRunner(_Runner):
    """A runner of one part: the run's heartbeat is its executor's (one per run, not per part)."""

    async def _heartbeat(self) -> None:
        return

    def begin(self, running: bool) -> set[tuple[str, str]] | None:
        """Read what the part needs before its first call; None when the run is stopped.

        Returns:
            The run's cells already recorded (by any part), their answers prefetched.
        """
        if self.store.stop_requested(self.run_id):
            return None  # stopped before this part began: the last part ends the run
        done = self.store.cell_keys(self.run_id)
        self.prefetch(done)
        if not running:  # the first part of the run to start marks it running
            self.store.set_run_status(self.run_id, "running")
        return done


def _begun(
    run_id: str,
    part: RunPlan,
    store: Store,
    pool: ProviderPool,
    options: RunOptions,
    *,
    stop: threading.Event,
    settings: Settings,
    running: bool,
    writer: RunWriter,
) -> tuple[_PartRunner, set[tuple[str, str]] | None]:
    """Make a part's runner and `begin` it (off the event loop: it reads the store)."""
    runner = _PartRunner(run_id, part, store, pool, options, stop, None, settings, writer)
    return runner, runner.begin(running)


async def execute_part(
    run_id: str,
    part: RunPlan,
    store: Store,
    pool: ProviderPool,
    options: RunOptions,
    *,
    settings: Settings,
    stop: threading.Event,
    writer: RunWriter,
    running: bool = False,
    begun: Callable[[], None] | None = None,
) -> None:
    """Run the cells of `part` not yet recorded; the run's status is left to its last part.

    The caller keeps `heartbeat` going for the run meanwhile, with the same `stop`: it is set
    when the run's stop flag is up (the part then makes no further call). `running` says the
    run is known to be marked running already (by an earlier part). `writer` is the worker's,
    shared by the parts it executes (bigger batches, one connection); the part returns once
    all its writes are committed, so a part that ends its run leaves nothing unwritten.
    `begun` is called once the part has read what it needs and its calls are about to start.
    A budget (`max_cost_usd`) is not enforced per part: it was checked against the estimate
    when the run was queued.

    Raises:
        StoreError: Some results could not be written (the part should run again).
    """
    options = dataclasses.replace(options, max_cost_usd=None, out_dir=None)
    runner, done = await asyncio.to_thread(
        _begun,
        run_id,
        part,
        store,
        pool,
        options,
        stop=stop,
        settings=settings,
        running=running,
        writer=writer,
    )
    if begun is not None:
        begun()
    try:
        if done is not None:
            await runner.run_cells(done)
    finally:  # judgments are written without waiting: the part ends when they are committed
        await writer.committed(writer.flushed())
    if runner.local_errors:
        errors = runner.local_errors
        raise StoreError(f"{len(errors)} result(s) could not be saved: {errors[0]}")
