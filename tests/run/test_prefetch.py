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


def test_cache_keys_stay_what_they_were():
    # A key that changes loses every cached answer of every user: these are the keys of
    # earlier versions, and the formula is `json.dumps(payload, sort_keys=True, ...)`.
    from engine.providers import ChatRequest
    from engine.providers.embeddings import EmbedRequest
    from engine.run.calls import embed_key

    request = ChatRequest(
        model_id="openai:gpt-4.1-mini",
        messages=[
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": 'Héllo \u2028 "q"'},
        ],
        temperature=0.7,
    )
    assert call_key("generate", request) == (
        "52980998ec46b6f719f3f7fde5cae76adf7bcabbb75dda8e3dff7acf534f6f7f"
    )
    assert call_key("judge", request, 2) == (
        "024d28a7853021de9ffb58d1b25e08c0fc840d3d541d60255b4b1e1462074c92"
    )
    embed = EmbedRequest(model_id="openai:text-embedding-3-small", text="Paris")
    assert embed_key(embed) == "eec6be1a8053c1f29dfd89adf6a7fb51ace0ffd6c02018629f79952d84cb3668"
