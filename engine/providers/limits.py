"""Per-provider adaptive concurrency (AIMD with slow start) and `Retry-After` parsing."""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import math
from collections.abc import Callable
from datetime import UTC, datetime

__all__ = [
    "INCREASE_AFTER",
    "START_LIMITS",
    "AdaptiveLimit",
    "call_order",
    "current_call_order",
    "parse_retry_after",
    "reset_call_order",
]

START_LIMITS: dict[str, int] = {"openrouter": 25}
"""Starting limits by provider; others start at `DEFAULT_START` (all capped by the global limit)."""
DEFAULT_START = 16
INCREASE_AFTER = 10
"""Consecutive successes that add one to a limit (after the first 429)."""
DECREASE_COOLDOWN_S = 1.0
"""A burst of 429s within this time halves a limit once, not once per answer."""

_ORDER: contextvars.ContextVar[int] = contextvars.ContextVar("blueprint_call_order", default=0)


def call_order(order: int) -> contextvars.Token[int]:
    """Mark the calls made from this task (and the tasks it starts) as calls of rank `order`.

    A full limit gives its next free slot to the waiting call of the lowest rank (a queue
    worker ranks the parts it holds by age, oldest first); among calls of one rank it is first
    come, first served. Calls never marked have rank 0.

    Returns:
        The token that `reset_call_order` takes to undo it.
    """
    return _ORDER.set(order)


def reset_call_order(token: contextvars.Token[int]) -> None:
    """Undo `call_order`."""
    _ORDER.reset(token)


def current_call_order() -> int:
    """The rank `call_order` gave the calls of this task (0 if none)."""
    return _ORDER.get()


def parse_retry_after(value: str | None, now: Callable[[], datetime] | None = None) -> float | None:
    """Return the seconds a `Retry-After` header asks to wait (delta seconds or HTTP date).

    Decimal seconds are accepted too. Returns None when the header is absent or unreadable;
    a date in the past gives 0.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        import email.utils  # an HTTP date: rare, and the module costs a run's start

        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or (lambda: datetime.now(UTC)))()).total_seconds()
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)


class AdaptiveLimit:
    """One provider's concurrency limit: additive increase, multiplicative decrease.

    Until the first 429 the limit grows by one per success (slow start: it doubles each
    round trip), so a provider that never pushes back reaches the cap in one round. After a
    429 it halves (at most once per `DECREASE_COOLDOWN_S`, never below `floor`) and then grows
    by one after every `INCREASE_AFTER` consecutive successes, up to `cap`. Other errors
    only break the run of successes. `Retry-After` pauses the provider's new attempts.

    Args:
        start: The initial limit (clamped into `[floor, cap]`).
        cap: The highest limit (the pool's global limit).
        clock: Monotonic seconds.
        floor: The lowest limit.
    """

    def __init__(self, start: int, *, cap: int, clock: Callable[[], float], floor: int = 1) -> None:
        self.floor = floor
        self.cap = max(cap, floor)
        self.limit = min(max(start, floor), self.cap)
        self.in_flight = 0
        self.max_in_flight = 0
        self.paused_until = 0.0
        self.slow_start = True
        self._clock = clock
        self._streak = 0
        self._last_decrease = -math.inf
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrival = itertools.count()

    async def acquire(self) -> None:
        """Wait for a free slot: lowest `call_order` rank first, then first come, first served."""
        if self.in_flight < self.limit and not self._waiters:
            self._take()
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (_ORDER.get(), next(self._arrival), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # the slot was granted just before the cancellation
            else:
                self._waiters = [w for w in self._waiters if w[2] is not future]
                heapq.heapify(self._waiters)
            raise

    def release(self) -> None:
        """Give a slot back and wake waiters that now fit."""
        self.in_flight -= 1
        self._wake()

    def _take(self) -> None:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _wake(self) -> None:
        while self._waiters and self.in_flight < self.limit:
            future = heapq.heappop(self._waiters)[2]
            if not future.done():
                self._take()
                future.set_result(None)

    def on_success(self) -> None:
        """Record a success; grow the limit (see the class docstring)."""
        self._streak += 1
        if self.slow_start or self._streak >= INCREASE_AFTER:
            self._streak = 0
            if self.limit < self.cap:
                self.limit += 1
                self._wake()

    def on_rate_limited(self) -> None:
        """Record a 429: end slow start and halve the limit (once per cooldown)."""
        self.slow_start = False
        self._streak = 0
        now = self._clock()
        if now - self._last_decrease >= DECREASE_COOLDOWN_S:
            self._last_decrease = now
            self.limit = max(self.floor, self.limit // 2)

    def on_error(self) -> None:
        """Record another failure: the run of successes starts again."""
        self._streak = 0

    def pause(self, seconds: float) -> None:
        """Let no new attempt start for `seconds` (from `Retry-After`)."""
        self.paused_until = max(self.paused_until, self._clock() + seconds)

    def pause_left(self) -> float:
        """Seconds until attempts may start again (0 when not paused)."""
        return max(0.0, self.paused_until - self._clock())
