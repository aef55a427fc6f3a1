"""Helpers for the provider tests: run a pool against the fake server, fake time."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from engine.providers import ChatRequest, ChatResponse, ProviderPool

T = TypeVar("T")

FAST: dict[str, Any] = {"backoff_base_s": 0.01, "backoff_cap_s": 0.05}
"""Pool arguments that make retries quick."""


def ask(model_id: str, text: str = "hello", **fields: Any) -> ChatRequest:
    """A one-message chat request."""
    return ChatRequest(model_id=model_id, messages=[{"role": "user", "content": text}], **fields)


def with_pool(
    environ: Mapping[str, str], body: Callable[[ProviderPool], Awaitable[T]], **kwargs: Any
) -> T:
    """Run `body(pool)` in a fresh event loop with a fresh pool, then close the pool."""

    async def main() -> T:
        async with ProviderPool(environ=environ, **kwargs) as pool:
            return await body(pool)

    return asyncio.run(main())


def chat(environ: Mapping[str, str], request: ChatRequest, **kwargs: Any) -> ChatResponse:
    """Send one request through a fresh pool."""
    return with_pool(environ, lambda pool: pool.chat(request), **kwargs)


class FakeTime:
    """A clock and a sleep that advance together without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)
