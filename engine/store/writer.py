"""The statements every backend runs (portable SQL) and the background writer they share.

A run makes many small writes. `BatchWriter` is a thread with its own connection that
applies them in small batches, one transaction each; a write's future resolves only after
its batch is committed, so a finished call is stored before it is counted. A backend says
how to connect and how to apply one batch. An event loop waits for a write with
`committed`: the writer wakes each loop once per batch, not once per write.
"""

from __future__ import annotations

import asyncio
import queue
import re
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from concurrent.futures import Future
from contextlib import suppress
from functools import lru_cache
from typing import Any, Generic, TypeVar

from engine.errors import StoreError
from engine.store.migrations import now
from engine.store.rows import CacheEntry, CallRow, CellRow, JudgmentRow, RunTotals
from engine.store.written import Written

__all__ = [
    "CALL_COLUMNS",
    "CELL_COLUMNS",
    "INSERT_CALL",
    "INSERT_CELL",
    "JUDGMENT_COLUMNS",
    "TOTALS_SET",
    "BatchWriter",
    "Item",
    "Write",
    "grouped",
    "totals_values",
    "upsert",
]

CELL_COLUMNS = (
    "run_id, prompt_id, model_id, base_model, status, score, response, messages, tool_calls, "
    "error, latency_ms, input_tokens, output_tokens, cost_usd, result, updated_at"
)
CALL_COLUMNS = (
    "run_id, key, kind, model_id, prompt_id, cell_model, response, error, cached, latency_ms, "
    "input_tokens, output_tokens, cost_usd, created_at, reuses"
)
JUDGMENT_COLUMNS = (
    "run_id, prompt_id, model_id, point_index, judge_id, judge_model, raw_text, class, score, "
    "reflection, error, created_at"
)
TOTALS_SET = (
    "done_calls=?, cached_calls=?, failed_calls=?, done_cells=?, cost_usd=?, "
    "input_tokens=?, output_tokens=?"
)


def upsert(table: str, columns: str, key: str) -> str:
    """An insert that replaces the row with the same `key` columns (SQLite and PostgreSQL).

    Placeholders are `?` (a backend rewrites them for its driver).
    """
    names = [c.strip() for c in columns.split(",")]
    keys = {k.strip() for k in key.split(",")}
    update = ", ".join(f"{c}=excluded.{c}" for c in names if c not in keys)
    marks = ",".join("?" * len(names))
    return f"INSERT INTO {table}({columns}) VALUES ({marks}) ON CONFLICT ({key}) DO UPDATE SET {update}"


INSERT_CELL = upsert("cells", CELL_COLUMNS, "run_id, prompt_id, model_id")
INSERT_CALL = upsert("calls", CALL_COLUMNS, "run_id, key")
_INSERT_CACHE = upsert("cache", "key, kind, model_id, value, created_at", "key")
_INSERT_JUDGMENT = upsert(
    "judgments", JUDGMENT_COLUMNS, "run_id, prompt_id, model_id, point_index, judge_id"
)
_REUSE_CALL = "UPDATE calls SET reuses = reuses + 1 WHERE run_id=? AND key=?"
_HEARTBEAT = f"UPDATE runs SET heartbeat_at=?, {TOTALS_SET} WHERE id=?"


def totals_values(t: RunTotals) -> tuple[Any, ...]:
    """The values of `TOTALS_SET`, in order."""
    return (
        t.done_calls,
        t.cached_calls,
        t.failed_calls,
        t.done_cells,
        t.cost_usd,
        t.input_tokens,
        t.output_tokens,
    )


def _cell_values(c: CellRow) -> tuple[Any, ...]:
    return (
        c.run_id,
        c.prompt_id,
        c.model_id,
        c.base_model,
        c.status,
        c.score,
        c.response,
        c.messages,
        c.tool_calls,
        c.error,
        c.latency_ms,
        c.input_tokens,
        c.output_tokens,
        c.cost_usd,
        c.result,
        c.updated_at or now(),
    )


def _call_values(c: CallRow) -> tuple[Any, ...]:
    return (
        c.run_id,
        c.key,
        c.kind,
        c.model_id,
        c.prompt_id,
        c.cell_model,
        c.response,
        c.error,
        1 if c.cached else 0,
        c.latency_ms,
        c.input_tokens,
        c.output_tokens,
        c.cost_usd,
        c.created_at or now(),
        c.reuses,
    )


def _judgment_values(j: JudgmentRow) -> tuple[Any, ...]:
    return (
        j.run_id,
        j.prompt_id,
        j.model_id,
        j.point_index,
        j.judge_id,
        j.judge_model,
        j.raw_text,
        j.class_name,
        j.score,
        j.reflection,
        j.error,
        j.created_at or now(),
    )


Write = list[tuple[str, tuple[Any, ...]]]
"""The statements of one write, applied together or not at all."""

Item = tuple[Write, "Future[None]"]


def claim(item: Item) -> Item:
    """Take a queued write for applying: its future can no longer be cancelled from now on.

    A waiter may give up (its task cancelled, e.g. a stopped run) while its write is queued.
    The write is still made, so the data is kept, but its result goes to a stand-in future:
    settling a cancelled future would raise and end the writer thread.
    """
    write, future = item
    return (write, future) if future.set_running_or_notify_cancel() else (write, Written())


"""One queued write and the future that tells its caller it is committed (or failed)."""

_TABLE = re.compile(r"\s*(?:INSERT INTO|UPDATE)\s+(\w+)", re.IGNORECASE)


@lru_cache(maxsize=64)
def _table_of(sql: str) -> str | None:
    """The one table a writer's statement writes (None: not known, so it is kept in place)."""
    match = _TABLE.match(sql)
    return match.group(1).lower() if match else None


def grouped(items: Sequence[Item]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """A batch's statements as runs of one statement, to apply with one `executemany` each.

    The statements of one table keep their order (a call's reuse stays after the call), and
    those of different tables are put together per table: they commute, since the store's
    tables only refer to `runs` and `blueprints`, rows a writer never inserts. A statement
    whose table is not known is a barrier: nothing moves across it.
    """
    out: list[tuple[str, list[tuple[Any, ...]]]] = []
    tables: dict[str, list[tuple[str, list[tuple[Any, ...]]]]] = {}

    def flush() -> None:
        for runs in tables.values():
            out.extend(runs)
        tables.clear()

    for statements_, _ in items:
        for sql, params in statements_:
            table = _table_of(sql)
            if table is None:
                flush()
                out.append((sql, [params]))
                continue
            runs = tables.setdefault(table, [])
            if runs and runs[-1][0] == sql:
                runs[-1][1].append(params)
            else:
                runs.append((sql, [params]))
    flush()
    return out


C = TypeVar("C")

GATHER_S = 0.002
"""How long the writer waits, after a write arrives alone, for the writes that follow it."""

_Waiter = tuple[asyncio.AbstractEventLoop, "asyncio.Future[None]"]


def _settle(pairs: list[tuple[Future[None], asyncio.Future[None]]]) -> None:
    """In a waiting loop: copy each resolved write's outcome to its waiter."""
    for future, waiter in pairs:
        if waiter.done():  # the wait was cancelled
            continue
        if future.cancelled():
            waiter.cancel()
            continue
        error = future.exception()
        if error is not None:
            waiter.set_exception(error)
        else:
            waiter.set_result(None)


class BatchWriter(ABC, Generic[C]):
    """A thread that owns one connection `C` and applies writes in small committed batches."""

    def __init__(self, batch: int = 64) -> None:
        self._batch = batch
        self._queue: queue.SimpleQueue[Item | None] = queue.SimpleQueue()
        # Futures awaited through `committed`, with the loop and the loop's future to settle.
        self._waiters: dict[Future[None], _Waiter] = {}
        self._waiters_lock = threading.Lock()
        self._open_error: StoreError | None = None
        self._opened = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="store-writer", daemon=True)
        self._thread.start()

    @abstractmethod
    def _open(self) -> C:
        """Open the writer's connection (raise `StoreError` when it cannot)."""

    @abstractmethod
    def _apply(self, conn: C, items: list[Item]) -> None:
        """Apply a batch in one transaction; resolve or fail every item's future."""

    @abstractmethod
    def _close(self, conn: C) -> None:
        """Close the writer's connection."""

    def _ready(self, conn: C) -> C:
        """The connection to apply the next batch with (a backend may replace a lost one).

        Raises:
            StoreError: No connection can be had; the batch fails with this error.
        """
        return conn

    async def committed(self, future: Future[None]) -> None:
        """Wait, in the running event loop, for a write of this writer to be committed.

        What `await asyncio.wrap_future(future)` does, for less: the writer settles the
        waiters of a whole batch with one call into each loop. A cancelled wait leaves the
        write to be made all the same.

        Raises:
            StoreError: The write failed.
        """
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        with self._waiters_lock:
            pending = not future.done()
            if pending:
                self._waiters[future] = (loop, waiter)
        if not pending:
            return future.result()
        await waiter

    def _wake(self, futures: list[Future[None]]) -> None:
        """Settle the loops' waiters of `futures` (all resolved): one call per loop."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Future[None], asyncio.Future[None]]]]
        by_loop = {}
        with self._waiters_lock:
            if not self._waiters:
                return
            for future in futures:
                found = self._waiters.pop(future, None)
                if found is not None:
                    by_loop.setdefault(found[0], []).append((future, found[1]))
        for loop, pairs in by_loop.items():
            with suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(_settle, pairs)

    def _submit(self, statements: Write) -> Future[None]:
        future: Future[None] = Written()
        self._queue.put((statements, future))
        return future

    def record_call(self, call: CallRow | None, cache: CacheEntry | None = None) -> Future[None]:
        """Log a call of a run (None: no run) and put its answer in the cache (if given)."""
        statements: Write = []
        if cache is not None:
            statements.append(
                (_INSERT_CACHE, (cache.key, cache.kind, cache.model_id, cache.value, now()))
            )
        if call is not None:
            statements.append((INSERT_CALL, _call_values(call)))
        return self._submit(statements)

    def record_reuse(self, run_id: str, key: str) -> Future[None]:
        """Count one more call of a run answered by its logged call `key`."""
        return self._submit([(_REUSE_CALL, (run_id, key))])

    def record_cell(self, cell: CellRow) -> Future[None]:
        """Record (or replace) a finished cell."""
        return self._submit([(INSERT_CELL, _cell_values(cell))])

    def record_judgment(self, judgment: JudgmentRow) -> Future[None]:
        """Record (or replace) one judge's answer about one point."""
        return self._submit([(_INSERT_JUDGMENT, _judgment_values(judgment))])

    def heartbeat(self, run_id: str, totals: RunTotals) -> Future[None]:
        """Mark a running run alive and store its counters so far."""
        return self._submit([(_HEARTBEAT, (now(), *totals_values(totals), run_id))])

    def flushed(self) -> Future[None]:
        """A write of nothing that resolves once every write queued before it is committed.

        Batches are applied in the order they were queued, so its future resolves after those
        of all the earlier writes (a write that failed has its exception set by then).
        """
        return self._submit([])

    def close(self) -> None:
        """Commit what is queued and stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _gather(self, items: list[Item]) -> bool:
        """Add what is queued to `items`, up to a batch; True when `close` was asked for."""
        while len(items) < self._batch:
            try:
                nxt = self._queue.get_nowait()
            except queue.Empty:
                return False
            if nxt is None:
                return True
            items.append(nxt)
        return False

    @property
    def usable(self) -> bool:
        """False when the writer could not open its connection: every write fails, make another.

        Waits for the writer's first attempt to connect.
        """
        self._opened.wait()
        return self._open_error is None

    def _loop(self) -> None:
        try:
            conn = self._open()
        except StoreError as error:
            self._open_error = error
            self._opened.set()
            while (item := self._queue.get()) is not None:
                claim(item)[1].set_exception(error)
                self._wake([item[1]])
            return
        except BaseException as exc:  # a bug, not the database: the thread ends, say so
            self._open_error = StoreError(f"The store writer could not start: {exc!r}")
            self._opened.set()
            raise
        self._opened.set()
        try:
            stop = False
            while not stop:
                first = self._queue.get()
                if first is None:
                    break
                items = [first]
                stop = self._gather(items)
                if not stop and len(items) < self._batch:
                    # The writes of one burst of answers come within a few milliseconds: wait
                    # for them, so they make one transaction and one wake-up of each loop,
                    # not one each (a wake-up is a system call, dear on a virtual machine).
                    time.sleep(GATHER_S)
                    stop = self._gather(items)
                futures = [future for _, future in items]
                items = [claim(item) for item in items]
                try:
                    conn = self._ready(conn)
                except StoreError as error:
                    for _, future in items:
                        future.set_exception(error)
                    self._wake(futures)
                    continue
                try:
                    self._apply(conn, items)
                finally:
                    self._wake(futures)
        finally:
            self._close(conn)
