"""Concurrency: many calls at concurrency 32 keep 32 in flight over 32 reused connections.

Speed itself is measured by `python -m tests.fakes.benchmark` and `python -m bench.run`,
not asserted here (timings on a shared CI machine are too noisy for a test).
"""

from __future__ import annotations

import asyncio

from engine.providers import ProviderPool
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import ask, with_pool


def test_200_calls_at_concurrency_32_fill_the_limit(fake_llm: FakeLLM) -> None:
    fake_llm.latency_ms = 50
    requests = [ask("openai:gpt-4.1-mini", f"question {i}") for i in range(200)]

    async def body(pool: ProviderPool) -> None:
        responses = await asyncio.gather(*(pool.chat(r) for r in requests))
        assert [r.text.rsplit(": ", 1)[1] for r in responses] == [
            f"question {i}" for i in range(200)
        ]

    with_pool(fake_llm.env(), body, global_limit=32)
    assert fake_llm.max_in_flight == 32
    assert fake_llm.connections == 32  # kept alive and reused
