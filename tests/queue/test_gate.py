"""A worker's gate on calls in flight: a free slot goes to the oldest part's waiting call."""

from __future__ import annotations

import asyncio

from engine.providers.limits import call_order, reset_call_order
from engine.queue.gate import PartGate
from tests.providers.helpers import ranked_call


def test_a_freed_slot_goes_to_the_oldest_part_then_first_come_within_a_part():
    async def main() -> list[str]:
        gate = PartGate(1)
        await gate.acquire()  # the one slot is taken
        served: list[str] = []
        names = [(3, "young"), (1, "old-a"), (2, "middle"), (1, "old-b")]
        tasks = []
        for part, name in names:  # they queue up in this order
            tasks.append(asyncio.create_task(ranked_call(gate, part, name, served)))
            await asyncio.sleep(0)
        gate.release()
        await asyncio.gather(*tasks)
        return served

    assert asyncio.run(main()) == ["old-a", "old-b", "middle", "young"]


def test_the_tasks_a_part_starts_wait_as_calls_of_that_part():
    async def main() -> list[str]:
        gate = PartGate(1)
        await gate.acquire()
        served: list[str] = []

        async def part(order: int, name: str) -> None:
            token = call_order(order)
            try:  # the calls of a part run in tasks it starts: they inherit its order
                await asyncio.gather(_call_in_part(name))
            finally:
                reset_call_order(token)

        async def _call_in_part(name: str) -> None:
            await gate.acquire()
            served.append(name)
            gate.release()

        young = asyncio.create_task(part(5, "young"))
        await asyncio.sleep(0.01)
        old = asyncio.create_task(part(4, "old"))
        await asyncio.sleep(0.01)
        gate.release()
        await asyncio.gather(young, old)
        return served

    assert asyncio.run(main()) == ["old", "young"]


def test_cancelled_waiters_neither_keep_nor_lose_a_slot():
    async def main() -> tuple[bool, list[str], bool]:
        gate = PartGate(2)
        await gate.acquire()
        await gate.acquire()
        served: list[str] = []
        gone = asyncio.create_task(ranked_call(gate, 1, "gone", served))
        await asyncio.sleep(0)
        late = asyncio.create_task(ranked_call(gate, 2, "late", served))
        await asyncio.sleep(0)
        gone.cancel()  # cancelled while waiting: the next waiter gets the slot
        await asyncio.gather(gone, return_exceptions=True)
        gate.release()
        await late
        await gate.acquire()  # both slots are ours again
        # a slot granted to a waiter cancelled before it resumed comes back too
        granted = asyncio.create_task(ranked_call(gate, 1, "granted", served))
        await asyncio.sleep(0)
        gate.release()  # hands the slot to `granted`...
        granted.cancel()  # ... which is cancelled before it runs
        await asyncio.gather(granted, return_exceptions=True)
        gate.release()
        free = not gate.locked()
        await asyncio.wait_for(gate.acquire(), 1)  # both slots are free again
        await asyncio.wait_for(gate.acquire(), 1)
        return free, served, gate.locked()

    assert asyncio.run(main()) == (True, ["late"], True)
