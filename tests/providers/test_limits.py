"""Concurrency: adaptive per-provider limits, the global limit, Retry-After parsing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from engine.providers import AdaptiveLimit, ProviderCallError, ProviderPool, parse_retry_after
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import FAST, FakeTime, ask, ranked_call, with_pool


def test_slow_start_grows_by_one_per_success_up_to_the_cap() -> None:
    limit = AdaptiveLimit(16, cap=20, clock=FakeTime().clock)
    for _ in range(3):
        limit.on_success()
    assert limit.limit == 19
    for _ in range(5):
        limit.on_success()
    assert limit.limit == 20


def test_a_429_halves_then_ten_successes_add_one() -> None:
    time_ = FakeTime()
    limit = AdaptiveLimit(16, cap=32, clock=time_.clock)
    limit.on_rate_limited()
    assert limit.limit == 8
    for _ in range(9):
        limit.on_success()
    assert limit.limit == 8
    limit.on_success()
    assert limit.limit == 9
    for _ in range(9):
        limit.on_success()
    limit.on_error()  # breaks the run of successes
    limit.on_success()
    assert limit.limit == 9


def test_a_burst_of_429s_halves_once_per_cooldown_and_never_below_the_floor() -> None:
    time_ = FakeTime()
    limit = AdaptiveLimit(16, cap=32, clock=time_.clock)
    for _ in range(5):
        limit.on_rate_limited()
    assert limit.limit == 8
    for _ in range(6):
        time_.now += 1.0
        limit.on_rate_limited()
    assert limit.limit == 1


def test_start_is_clamped_to_the_cap() -> None:
    assert AdaptiveLimit(25, cap=4, clock=FakeTime().clock).limit == 4


def test_waiters_are_served_in_order_and_a_cancelled_waiter_leaves_no_hole() -> None:
    async def main() -> list[str]:
        limit = AdaptiveLimit(1, cap=1, clock=FakeTime().clock)
        order: list[str] = []
        await limit.acquire()

        async def take(name: str) -> None:
            await limit.acquire()
            order.append(name)
            limit.release()

        tasks = [asyncio.create_task(take(n)) for n in "abc"]
        await asyncio.sleep(0)
        tasks[1].cancel()
        limit.release()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert limit.in_flight == 0
        return order

    assert asyncio.run(main()) == ["a", "c"]


def test_a_freed_slot_goes_to_the_lowest_call_order_then_first_come() -> None:
    """A worker's parts share one run's provider limit: the oldest part's calls go first."""

    async def main() -> list[str]:
        limit = AdaptiveLimit(1, cap=1, clock=FakeTime().clock)
        served: list[str] = []
        await limit.acquire()

        tasks = []
        for rank, name in [(3, "young"), (1, "old-a"), (0, "unranked"), (1, "old-b")]:
            tasks.append(asyncio.create_task(ranked_call(limit, rank, name, served)))
            await asyncio.sleep(0)
        tasks.append(asyncio.create_task(ranked_call(limit, 3, "young-cancelled", served)))
        await asyncio.sleep(0)
        tasks[-1].cancel()
        limit.release()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert limit.in_flight == 0
        return served

    assert asyncio.run(main()) == ["unranked", "old-a", "old-b", "young"]


def test_retry_after_parsing() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(" 0.5 ") == 0.5
    assert parse_retry_after("Thu, 01 Jan 2026 12:00:30 GMT", lambda: now) == 30.0
    assert parse_retry_after("Thu, 01 Jan 2026 11:00:00 GMT", lambda: now) == 0.0
    assert parse_retry_after("-3") == 0.0
    for bad in (None, "", "soon", "nan"):
        assert parse_retry_after(bad) is None


def test_pool_limit_halves_on_429_and_grows_back(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "429", retry_after="0")

    async def body(pool: ProviderPool) -> list[int]:
        seen = []
        await pool.chat(ask("openai:gpt-4.1-mini"))
        seen.append(pool.stats()["openai"].limit)
        for _ in range(2):
            for _ in range(10):
                await pool.chat(ask("openai:gpt-4.1-mini"))
            seen.append(pool.stats()["openai"].limit)
        return seen

    # the retried call is the first success after the 429; 9 more make ten
    assert with_pool(fake_llm.env(), body, **FAST) == [8, 9, 10]


def test_pools_that_share_limits_share_each_providers_limit(fake_llm: FakeLLM) -> None:
    """A worker's runs: the next run starts where the last one left the provider's limit."""
    fake_llm.fail_next(1, "429", retry_after="0")
    limits: dict[str, AdaptiveLimit] = {}

    async def first(pool: ProviderPool) -> int:
        await pool.chat(ask("openai:gpt-4.1-mini"))  # a 429, then the retry succeeds
        return pool.stats()["openai"].limit

    async def second(pool: ProviderPool) -> tuple[int, int]:
        await pool.chat(ask("openai:gpt-4.1-mini"))
        return pool.stats()["openai"].limit, pool.stats()["openai"].calls

    assert with_pool(fake_llm.env(), first, limits=limits, **FAST) == 8
    assert with_pool(fake_llm.env(), second, limits=limits, **FAST) == (8, 1)  # own counts
    assert with_pool(fake_llm.env(), second, **FAST) == (17, 1)  # its own limit: 16, slow start


def test_server_never_sees_more_than_the_global_limit(fake_llm: FakeLLM) -> None:
    fake_llm.latency_ms = 20
    models = ["openai:gpt-4.1-mini", "anthropic:claude-haiku-4.5", "openrouter:x/y", "ollama:l"]

    async def body(pool: ProviderPool) -> dict[str, int]:
        await asyncio.gather(*(pool.chat(ask(models[i % 4], str(i))) for i in range(120)))
        return {name: s.max_in_flight for name, s in pool.stats().items()}

    per_provider = with_pool(fake_llm.env(), body, global_limit=6)
    assert fake_llm.max_in_flight == 6
    assert len(fake_llm.calls) == 120
    assert all(1 <= n <= 6 for n in per_provider.values())


def test_provider_limit_bounds_its_own_calls(fake_llm: FakeLLM) -> None:
    fake_llm.latency_ms = 20
    fake_llm.fail_next(1, "429", retry_after="0")

    async def body(pool: ProviderPool) -> None:
        await pool.chat(ask("openai:m", "first"))  # halves 16 -> 8
        fake_llm.max_in_flight = 0
        await asyncio.gather(*(pool.chat(ask("openai:m", str(i))) for i in range(40)))

    with_pool(fake_llm.env(), body, **FAST)
    # 8, plus one per ten successes (a little more when completions bunch up on a busy machine)
    assert 8 <= fake_llm.max_in_flight <= 12


def test_a_failing_provider_does_not_stop_the_others(fake_llm: FakeLLM) -> None:
    fake_llm.fail_when(lambda r: r.protocol == "anthropic", "500")

    async def body(pool: ProviderPool) -> list[object]:
        calls = [pool.chat(ask("anthropic:claude-haiku-4.5", str(i))) for i in range(5)]
        calls += [pool.chat(ask("openai:gpt-4.1-mini", str(i))) for i in range(20)]
        return await asyncio.gather(*calls, return_exceptions=True)

    results = with_pool(fake_llm.env(), body, max_attempts=3, **FAST)
    assert all(isinstance(r, ProviderCallError) for r in results[:5])
    assert not any(isinstance(r, BaseException) for r in results[5:])


def test_a_hanging_provider_does_not_hold_up_the_others(fake_llm: FakeLLM) -> None:
    fake_llm.fail_when(lambda r: r.protocol == "anthropic", "hang")

    async def body(pool: ProviderPool) -> tuple[bool, int]:
        hanging = [
            asyncio.create_task(pool.chat(ask("anthropic:claude-haiku-4.5", str(i), timeout_s=1.5)))
            for i in range(10)
        ]
        async with asyncio.timeout(10):
            while not any(c.protocol == "anthropic" for c in fake_llm.calls):
                await asyncio.sleep(0.005)  # until the first anthropic call hangs at the server
        await asyncio.gather(*(pool.chat(ask("openai:gpt-4.1-mini", str(i))) for i in range(40)))
        still_hanging = not any(task.done() for task in hanging)
        failures = await asyncio.gather(*hanging, return_exceptions=True)
        return still_hanging, sum(isinstance(f, ProviderCallError) for f in failures)

    still_hanging, failed = with_pool(fake_llm.env(), body, max_attempts=1)
    assert still_hanging  # the others were done while the anthropic calls were still hanging
    assert failed == 10


@pytest.mark.parametrize(("provider", "start"), [("openai", 16), ("openrouter", 25)])
def test_starting_limits(fake_llm: FakeLLM, provider: str, start: int) -> None:
    fake_llm.fail_next(1, "500")

    async def body(pool: ProviderPool) -> int:
        with pytest.raises(ProviderCallError):
            await pool.chat(ask(f"{provider}:m"))
        return pool.stats()[provider].limit

    assert with_pool(fake_llm.env(), body, max_attempts=1) == start
