"""Throughput sanity: many calls at concurrency 32 against a 50 ms fake server."""

from __future__ import annotations

import asyncio
import math
import time

from engine.providers import ProviderPool
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import ask, with_pool


def test_200_calls_at_concurrency_32_are_close_to_ideal(fake_llm: FakeLLM) -> None:
    fake_llm.latency_ms = 50
    requests = [ask("openai:gpt-4.1-mini", f"question {i}") for i in range(200)]

    async def body(pool: ProviderPool) -> float:
        start = time.perf_counter()
        responses = await asyncio.gather(*(pool.chat(r) for r in requests))
        elapsed = time.perf_counter() - start
        assert [r.text.rsplit(": ", 1)[1] for r in responses] == [
            f"question {i}" for i in range(200)
        ]
        return elapsed

    elapsed = with_pool(fake_llm.env(), body, global_limit=32)
    ideal = math.ceil(200 / 32) * 0.05
    assert elapsed < 1.5 * ideal
    assert fake_llm.max_in_flight == 32
    assert fake_llm.connections == 32  # kept alive and reused
