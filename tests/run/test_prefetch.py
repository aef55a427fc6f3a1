"""An answer prefetched as missing is found once this run has made the call itself."""

from __future__ import annotations

import asyncio

from engine.providers import ChatRequest, ProviderPool
from engine.run.calls import Caller, call_key
from engine.store.sqlite import SQLiteStore


def test_a_call_made_after_an_identical_one_finished_is_cached_not_sent_again(fake_llm, tmp_path):
    # A resumed run prefetches the judge keys of the answers it already has; none is cached
    # yet. The first judge call is made; an identical one that comes after it has finished (the
    # other model's answer was still being generated) must use that answer, not call again.
    fake_llm.reply_with(lambda request: "Judged.")
    store = SQLiteStore(tmp_path / "store.db")
    request = ChatRequest(model_id="openai:judge-1", messages=[{"role": "user", "content": "x"}])
    key = call_key("judge", request)
    writer = store.writer()

    async def both() -> list[str]:
        async with ProviderPool(environ=fake_llm.env()) as pool:
            caller = Caller(pool=pool, store=store, writer=writer, run_id=None, use_cache=True)
            caller.prefetch([key])
            first = await caller.chat("judge", request, key=key)
            second = await caller.chat("judge", request, key=key)
            return [first.source, second.source]

    try:
        assert asyncio.run(both()) == ["provider", "cache"]
    finally:
        writer.close()
    assert len([c for c in fake_llm.calls if c.model == "judge-1"]) == 1
