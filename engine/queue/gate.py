"""A worker's limit on calls in flight that gives each free slot to the oldest part waiting."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
from typing import Literal

from engine.providers.limits import current_call_order
from engine.run.calls import RunStopped

__all__ = ["PartGate", "StopGate"]


class PartGate(asyncio.Semaphore):
    """`value` calls in flight at once; a free slot goes to the waiting call of the oldest part.

    The parts a worker holds share its gate. With a first-come gate they take turns call by
    call, so they all end together and the worker's next parts start up while nothing is in
    flight. Served oldest part first, a worker's parts end one after another: the next part
    fills the slots the ending one frees, and a part's start-up overlaps the calls of the others.
    A part's rank is set with `engine.providers.limits.call_order` (the providers' own limits
    serve by the same rank). Among the calls of one part (and of a task outside any part, rank
    0) it is first come, first served.
    """

    def __init__(self, value: int) -> None:
        super().__init__(value)
        self._free = value
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrival = itertools.count()

    def locked(self) -> bool:
        """Whether an `acquire` now would wait."""
        return self._free == 0 or any(not f.done() for _, _, f in self._waiting)

    async def acquire(self) -> Literal[True]:
        """Take a slot, waiting behind the calls of older parts (and earlier ones of this part)."""
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return True
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (current_call_order(), next(self._arrival), future))
        self._wake()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # the slot was granted just before the cancellation
            raise
        return True

    def release(self) -> None:
        """Give a slot back; the oldest part's waiting call gets it."""
        self._free += 1
        self._wake()

    def _wake(self) -> None:
        while self._free > 0 and self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if future.done():  # its waiter was cancelled
                continue
            self._free -= 1
            future.set_result(None)


class StopGate(asyncio.Semaphore):
    """One run's door to its worker's gate: once the run is stopped, no call goes through.

    A call can wait long at the gate (behind the calls of older parts) after it passed its
    run's stop check; the slot it gets after a stop is given back at once and the call is not
    sent (`RunStopped`), so a Stop lets out only the calls already in flight.
    """

    def __init__(self, gate: asyncio.Semaphore, stop: threading.Event) -> None:
        super().__init__(1)
        self._gate = gate
        self._stop = stop

    def locked(self) -> bool:
        """Whether an `acquire` now would wait."""
        return self._gate.locked()

    async def acquire(self) -> Literal[True]:
        """Take a slot of the worker's gate; raise `RunStopped` when the run stopped meanwhile."""
        await self._gate.acquire()
        if self._stop.is_set():
            self._gate.release()
            raise RunStopped("stopped before this call")
        return True

    def release(self) -> None:
        """Give the slot back to the worker's gate."""
        self._gate.release()
