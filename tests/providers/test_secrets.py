"""API keys never leak into messages, logs, reprs, statistics or recorded requests."""

from __future__ import annotations

import asyncio
import logging
import socket
import traceback

import pytest

from engine.providers import ProviderPool
from engine.providers.endpoints import resolve
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import FAST, ask

KEY = "sk-test-LEAKCHECK-7f3a9c1e5b2d"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_keys_appear_nowhere(fake_llm: FakeLLM, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    env = fake_llm.env(key=KEY)
    env["DEAD_BASE_URL"] = f"http://127.0.0.1:{_free_port()}/v1"
    env["DEAD_API_KEY"] = KEY
    env["GROQ_BASE_URL"] = f"http://user:{KEY}@127.0.0.1:{_free_port()}/v1?key={KEY}"
    env["GROQ_API_KEY"] = KEY
    texts: list[str] = []

    async def provoke(pool: ProviderPool, model_id: str, kind: str | None) -> None:
        if kind is not None:
            fake_llm.fail_next(3, kind, retry_after="0")
        with pytest.raises(Exception) as info:  # every kind of failure
            await pool.chat(ask(model_id, timeout_s=0.2))
        error = info.value
        texts.extend([str(error), repr(error), "".join(traceback.format_exception(error))])
        texts.append(str(pool.check(model_id)))

    async def main() -> None:
        async with ProviderPool(environ=env, max_attempts=2, **FAST) as pool:
            for model_id in ("openai:gpt-4.1-mini", "anthropic:claude-haiku-4.5"):
                for kind in ("401", "404", "400", "429", "500", "invalid_json", "drop", "hang"):
                    await provoke(pool, model_id, kind)
                    fake_llm.reset()
            await provoke(pool, "dead:model", None)  # connection refused
            await provoke(pool, "groq:model", None)  # credentials in the URL
            texts.extend([repr(pool), str(pool.stats())])
            texts.extend(s.model_dump_json() for s in pool.stats().values())
        async with ProviderPool(environ={"VLLM_API_KEY": KEY}) as pool:
            await provoke(pool, "vllm:model", None)  # unknown provider
        texts.append(repr(resolve("openai:gpt-4.1-mini", env)))

    asyncio.run(main())
    joined = "\n".join([*texts, caplog.text])
    assert "Incorrect API key provided: ***" in joined  # the fake echoed it; it was redacted
    assert "HTTP 500" in joined and "no answer from" in joined
    assert "ConnectError" in joined
    assert KEY not in joined


def test_recorded_requests_never_hold_auth_values(fake_llm: FakeLLM) -> None:
    async def main() -> None:
        async with ProviderPool(environ=fake_llm.env(key=KEY)) as pool:
            await pool.chat(ask("openai:gpt-4.1-mini"))
            await pool.chat(ask("anthropic:claude-haiku-4.5"))

    asyncio.run(main())
    assert all(call.auth_present for call in fake_llm.calls)
    assert KEY not in repr([call.to_json() for call in fake_llm.calls])
