"""`blueprint worker`'s work: execute run parts from the queue, share limits, end finished runs."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import itertools
import logging
import os
import signal
import threading
from dataclasses import dataclass

from engine.blueprint import parse_blueprint
from engine.errors import ConfigError
from engine.providers import PriceTable, ProviderPool, load_environ
from engine.providers.collections import KnownCollections
from engine.providers.custom import custom_endpoints
from engine.providers.limits import AdaptiveLimit, call_order, reset_call_order
from engine.queue.app import QUEUE, build_app
from engine.queue.gate import PartGate, StopGate
from engine.queue.sides import listen_for_stops, sweep
from engine.run.execute import SCORING_MODULES, execute_run
from engine.run.local_models import local_models
from engine.run.outcome import RunOptions
from engine.run.plan import RunPlan, plan_run
from engine.run.service import answers_resume, saved_options
from engine.run.shard import execute_part, heartbeat, part_of
from engine.settings import Settings, load_settings
from engine.store import RunRecord, RunWriter, Store, open_store
from engine.store.postgres import set_pool_max
from engine.store.queue_book import QueueBook
from engine.store.queue_schema import ensure_queue_schema

__all__ = ["Rate", "jobs_for", "pool_sizes", "run_worker"]

_FINAL = ("completed", "stopped", "failed")

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rate:
    """A provider's rate shared by every worker: `per_second` calls, bursts up to `burst`."""

    per_second: float
    burst: int = 1


def jobs_for(concurrency: int) -> int:
    """Parts a worker holds at once: the oldest is served first, the others wait started.

    The gate serves the oldest part first (`PartGate`), so the parts in hand run one after
    another: one more part than the one running is enough to keep `concurrency` calls in
    flight while a part ends and the next starts, and a third covers a slow start. Each part
    held beyond that only makes this worker's queue longer while another worker may be idle
    at the end.
    """
    return 2 if concurrency < 16 else 3


def pool_sizes(concurrency: int) -> tuple[int, int]:
    """The most connections of a worker's two pools: (procrastinate's, the store's).

    procrastinate's fetches parts, finishes them and beats: statements of milliseconds,
    seconds apart, so two connections serve any concurrency. The store's serves, from
    threads, the parts' reads, their runs' beats, the sweep and the shared rate's
    reservations (one per call): a few more as the calls in flight grow. Besides them a
    worker holds four connections: its writer, the writer of the part that ends a run (kept
    for the next), procrastinate's LISTEN connection and the one on which Stop is heard
    (`STOP_CHANNEL`). Idle, each pool shrinks towards one connection (one closed a minute).
    """
    return 2, min(8, 2 + concurrency // 16)


@dataclass
class _Loaded:
    plan: RunPlan
    options: RunOptions
    running: bool = False
    """Whether the run was marked running when this part was picked (by an earlier part)."""


@dataclass
class _Held:
    """What the parts of one run that this worker is executing share: stop flag, beat, pool.

    The run's heartbeat (alive, and its counts from the store) and its stop flag are read once
    a second per run and worker, not per part. The provider pool is the run's too: its
    connections and each provider's adaptive limit carry over from one part to the next,
    instead of every part opening new connections and starting its limits low again.
    """

    stop: threading.Event
    beat: asyncio.Task[None]
    pool: ProviderPool
    parts: int = 0


class PartExecutor:
    """Runs parts in one worker process: one gate on calls in flight over all of them.

    The runs' pools share the gate and each provider's adaptive limit: a run that starts
    where another ends calls at the speed the provider allowed the one before it.

    Args:
        store: The team store.
        book: The queue's bookkeeping in the same database.
        concurrency: Calls in flight at once in this worker, over all its parts.
        rates: Providers whose rate is shared by all workers (others: only `concurrency`).
    """

    def __init__(
        self, store: Store, book: QueueBook, concurrency: int, rates: dict[str, Rate]
    ) -> None:
        self.store = store
        self.book = book
        self.concurrency = concurrency
        self.rates = rates
        self.gate = PartGate(concurrency)
        self.limits: dict[str, AdaptiveLimit] = {}
        """Each provider's adaptive limit, one for all the runs this worker executes."""
        self.settings: Settings = load_settings()
        self._plans: dict[str, _Loaded] = {}
        self._loading: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._held: dict[str, _Held] = {}
        self._order = itertools.count(1)
        self._ahead: asyncio.Task[None] | None = None
        self.writer = store.writer()
        """The writer of every part this worker executes (closed by `close`)."""

    async def _throttle(self, provider: str) -> None:
        if provider in self.rates:
            wait = await asyncio.to_thread(self.book.reserve, provider)
            if wait > 0:
                await asyncio.sleep(wait)

    def _pool(self, plan: RunPlan, stop: threading.Event) -> ProviderPool:
        return ProviderPool(
            global_limit=self.concurrency,
            prices=PriceTable(self.settings.prices),
            local=local_models(plan.blueprint),
            custom=custom_endpoints(plan.custom, load_environ(), self.settings),
            gate=StopGate(self.gate, stop),
            throttle=self._throttle if self.rates else None,
            limits=self.limits,
        )

    def _load(self, run_id: str) -> _Loaded | None:
        """The run's plan and options (parsed once per run in this worker); None when it is over."""
        run = self.store.get_run(run_id)
        if run is None or run.status in _FINAL:
            return None
        with self._lock:
            run_lock = self._loading.setdefault(run_id, threading.Lock())
        with run_lock:  # the parts of one run arrive together: parse its blueprint once
            loaded = self._plans.get(run_id) or self._parse(run_id, run)
        return dataclasses.replace(loaded, running=run.status == "running")

    def _read_ahead(self) -> None:
        """Load the plan of the oldest run waiting in the queue that this worker has not loaded.

        Called once a part has begun (its calls start): when the worker picks up that run's
        first part later, its blueprint is already parsed, and its calls start while the parts
        before it still run instead of after them. Not earlier, where the parse would slow the
        part's own start, nor as a part ends, where it slows the queue's hand-over of the next
        part. A failure is left for the part itself to meet and report.
        """
        try:
            waiting = self.book.waiting_runs(QUEUE)
            with self._lock:
                new = [r for r in waiting if r not in self._loading]
            if new:
                self._load(new[0])
        except Exception as exc:  # only a head start: the part itself meets and reports it
            logger.debug("reading ahead: %s", exc)

    def _look_ahead(self) -> None:
        if self._ahead is None or self._ahead.done():
            self._ahead = asyncio.create_task(asyncio.to_thread(self._read_ahead))

    def _start(self, run_id: str, part: int) -> tuple[_Loaded, tuple[int, int]] | None:
        """The run's plan and the part's prompts (first, end); None when there is nothing to do."""
        loaded = self._load(run_id)
        span = self.book.shard_range(run_id, part)
        return None if loaded is None or span is None else (loaded, span)

    def _parse(self, run_id: str, run: RunRecord) -> _Loaded:
        text = self.store.blueprint_text(run.blueprint_hash)
        if text is None:
            raise ConfigError(f"The blueprint of run '{run_id}' is missing from the store.")
        saved = run.options
        stored_answers = answers_resume(saved)
        if stored_answers is not None:  # a re-score, pasted answers: never generate
            prepared = stored_answers(
                self.store, run_id, text, saved, concurrency=self.concurrency, out_dir=None
            )
            plan, options = prepared.plan, prepared.options
        else:
            options = saved_options(saved, concurrency=self.concurrency)
            plan = plan_run(
                parse_blueprint(text, source=saved.get("source")),
                models=options.models,
                judges=options.judges,
                judge=options.judge,
                repeats=options.repeats,
                collections=KnownCollections(self.settings),
            )
        loaded = _Loaded(plan, dataclasses.replace(options, out_dir=None))
        with self._lock:
            if len(self._plans) > 32:
                self._plans.clear()
            self._plans[run_id] = loaded
        return loaded

    def _forget(self, run_id: str) -> None:
        with self._lock:
            self._plans.pop(run_id, None)
            self._loading.pop(run_id, None)

    def _hold(self, run_id: str, plan: RunPlan) -> _Held:
        held = self._held.get(run_id)
        if held is None:
            stop = threading.Event()
            beat = asyncio.create_task(heartbeat(self.store, run_id, stop))
            held = self._held[run_id] = _Held(stop, beat, self._pool(plan, stop))
        held.parts += 1
        return held

    async def _let_go(self, run_id: str, held: _Held) -> None:
        held.parts -= 1
        if held.parts == 0:
            del self._held[run_id]
            held.beat.cancel()
            await asyncio.gather(held.beat, return_exceptions=True)
            await held.pool.aclose()

    async def run_part(self, run_id: str, part: int) -> None:
        """Execute one part; the part that finds every other done ends the run."""
        token = call_order(next(self._order))  # the limits serve older parts first
        try:
            started = await asyncio.to_thread(self._start, run_id, part)
            if started is None:
                return  # the run is over (or gone): nothing to do
            loaded, span = started
            held = self._hold(run_id, loaded.plan)
            try:
                await execute_part(
                    run_id,
                    part_of(loaded.plan, *span),
                    self.store,
                    held.pool,
                    loaded.options,
                    settings=self.settings,
                    stop=held.stop,
                    writer=await asyncio.to_thread(self._writer),
                    running=loaded.running,
                    begun=self._look_ahead,
                )
            finally:
                await self._let_go(run_id, held)
            logger.info("run %s: part %d done", run_id, part)
            if await asyncio.to_thread(self.book.finish_shard, run_id, part):
                await self._finish(run_id, loaded)
        finally:
            reset_call_order(token)

    def _writer(self) -> RunWriter:
        """The worker's writer; a new one when it could not connect (the database was down).

        Parts that still hold the old one fail their writes and are run again by the queue.
        """
        writer = self.writer
        if writer.usable:
            return writer
        with self._lock:
            if self.writer is writer:
                writer.close()
                self.writer = self.store.writer()
            return self.writer

    def stop_run(self, run_id: str) -> None:
        """Stop sending the calls of a run this worker executes (its Stop was just pressed)."""
        held = self._held.get(run_id)
        if held is not None:
            held.stop.set()

    def close(self) -> None:
        """Close the worker's writer once its writes are committed."""
        self.writer.close()

    async def _finish(self, run_id: str, loaded: _Loaded) -> None:
        """Score and close the run: every cell is recorded unless it was stopped."""
        stop = threading.Event()
        if await asyncio.to_thread(self.store.stop_requested, run_id):
            stop.set()
        async with self._pool(loaded.plan, stop) as pool:
            await execute_run(
                run_id,
                loaded.plan,
                self.store,
                pool,
                loaded.options,
                stop=stop,
                settings=self.settings,
            )
        self._forget(run_id)
        run = await asyncio.to_thread(self.store.get_run, run_id)
        logger.info("run %s: %s", run_id, run.status if run else "gone")


def _warm_up() -> None:
    """Import what a worker's first parts import (httpx, the sender, scoring) before they start.

    Imported on the first call instead, they would block the event loop of the first parts
    (`blueprint`'s entry point leaves out httpx's command line, so this is about 0.03 s; the
    scoring and comparison modules, `SCORING_MODULES`, about 0.02 s more).
    """
    for name in (
        "httpx",
        "engine.providers.attempt",
        "engine.net.transport",
        *SCORING_MODULES,
    ):
        importlib.import_module(name)


async def _work(url: str, concurrency: int, rates: dict[str, Rate], name: str | None) -> None:
    _warm_up()
    book = QueueBook(url)
    for provider, rate in rates.items():
        book.set_rate(provider, rate.per_second, rate.burst)
    executor = PartExecutor(open_store(url), book, concurrency, rates)
    app = build_app(url, executor.run_part, pool_size=pool_sizes(concurrency)[0])
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    current: asyncio.Task[None] | None = None

    def on_signal() -> None:  # the first: finish the parts in hand; a second quits at once
        stopping.set()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        if current is not None:
            current.cancel()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, on_signal)
    try:
        async with app.open_async():
            sides = [
                asyncio.create_task(listen_for_stops(url, executor.stop_run)),
                asyncio.create_task(sweep(book)),
            ]
            try:
                while not stopping.is_set():
                    current = asyncio.create_task(
                        app.run_worker_async(
                            queues=[QUEUE],
                            concurrency=jobs_for(concurrency),
                            name=name or "worker",
                            delete_jobs="successful",
                            install_signal_handlers=False,
                        )
                    )
                    # procrastinate's worker ends (its parts finished) when it loses the
                    # database: a restart or failover closes every connection. Start it again.
                    with contextlib.suppress(asyncio.CancelledError):
                        try:
                            await current
                        except Exception as exc:
                            cause = " ".join(str(exc.__cause__ or exc).split())[:200]
                            logger.warning("the worker lost the database: %s", cause)
                    if not stopping.is_set():
                        logger.warning("the worker starts again in a second")
                        await asyncio.sleep(1.0)
            finally:
                for task in sides:
                    task.cancel()
                await asyncio.gather(*sides, return_exceptions=True)
    finally:
        await asyncio.to_thread(executor.close)


def run_worker(
    url: str, *, concurrency: int, rates: dict[str, Rate] | None = None, name: str | None = None
) -> None:
    """Execute queued run parts until SIGINT/SIGTERM (the first waits for the parts running).

    The worker's connections show as `blueprint-worker` in `pg_stat_activity` (libpq's
    `PGAPPNAME`; its writers as `blueprint-writer`, its Stop listener as `blueprint-stops`).

    Raises:
        StoreError: The database cannot be reached.
    """
    os.environ.setdefault("PGAPPNAME", "blueprint-worker")
    set_pool_max(pool_sizes(concurrency)[1])
    open_store(url)  # migrate the store's own tables first
    ensure_queue_schema(url)
    asyncio.run(_work(url, concurrency, rates or {}, name))
