"""Retries: what is retried, how long it waits, and the errors that end a call."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from engine.errors import ProviderError
from engine.providers import ProviderCallError, ProviderPool
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import FAST, FakeTime, GatedTime, ask, chat, with_pool

MODEL = "openai:gpt-4.1-mini"


@pytest.mark.parametrize("kind", ["500", "503", "invalid_json", "drop"])
def test_transient_failures_are_retried(fake_llm: FakeLLM, kind: str) -> None:
    fake_llm.fail_next(2, kind)
    response = chat(fake_llm.env(), ask(MODEL), **FAST)
    assert response.attempts == 3
    assert response.text.endswith("echo: hello")
    assert [c.fault for c in fake_llm.calls] == [kind, kind, None]


def test_retry_after_is_honoured(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "429", retry_after="1")
    time_ = FakeTime()
    response = chat(
        fake_llm.env(), ask(MODEL), clock=time_.clock, sleep=time_.sleep, backoff_base_s=0.01
    )
    assert response.attempts == 2
    assert time_.sleeps == [1.0]  # the backoff alone would be ~10 ms


def test_retry_after_pauses_the_providers_other_calls(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "429", retry_after="0.4")
    time_ = GatedTime()

    async def body(pool: ProviderPool) -> None:
        first = asyncio.create_task(pool.chat(ask(MODEL, "first")))
        await time_.sleeping(1)  # the 429 has arrived; the provider is paused
        second = asyncio.create_task(pool.chat(ask(MODEL, "second")))
        await time_.sleeping(2)  # the second call waits out the pause before its attempt
        assert [c.last_user for c in fake_llm.calls] == ["first"]
        time_.open()
        await asyncio.gather(first, second)

    with_pool(fake_llm.env(), body, clock=time_.clock, sleep=time_.sleep, backoff_base_s=0.01)
    assert time_.sleeps == [0.4, pytest.approx(0.4)]  # first's backoff, then second's wait


def test_a_hang_times_out_and_is_retried(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "hang")

    async def body(pool: ProviderPool) -> tuple[float, int]:
        start = time.monotonic()
        response = await pool.chat(ask(MODEL, timeout_s=0.3))
        return time.monotonic() - start, response.attempts

    elapsed, attempts = with_pool(fake_llm.env(), body, **FAST)
    assert attempts == 2
    assert 0.3 <= elapsed < 3.0
    assert [c.fault for c in fake_llm.calls] == ["hang", None]


def test_exhausted_retries_raise_a_provider_error(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(10, "500")

    async def body(pool: ProviderPool) -> None:
        with pytest.raises(ProviderError) as info:
            await pool.chat(ask(MODEL))
        error = info.value
        assert isinstance(error, ProviderCallError)
        assert (error.kind, error.status, error.attempts) == ("server", 500, 3)
        assert str(error).startswith(f"{MODEL}: HTTP 500 from http://127.0.0.1:")
        assert "The server had an error" in str(error)
        assert str(error).endswith("(gave up after 3 attempts)")
        stats = pool.stats()["openai"]
        assert (stats.calls, stats.failed, stats.attempts, stats.retries) == (1, 1, 3, 2)
        assert (stats.errors, stats.succeeded) == (3, 0)

    with_pool(fake_llm.env(), body, max_attempts=3, **FAST)
    assert len(fake_llm.calls) == 3


def test_timeouts_raise_after_the_last_attempt(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(2, "hang")

    async def body(pool: ProviderPool) -> ProviderCallError:
        with pytest.raises(ProviderCallError) as info:
            await pool.chat(ask(MODEL, timeout_s=0.2))
        return info.value

    error = with_pool(fake_llm.env(), body, max_attempts=2, **FAST)
    assert error.kind == "timeout"
    assert "no answer from http://127.0.0.1" in str(error)
    assert "within 0.2 s" in str(error)


def test_401_is_not_retried_and_names_the_key_variable(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "401")

    async def body(pool: ProviderPool) -> ProviderCallError:
        with pytest.raises(ProviderCallError) as info:
            await pool.chat(ask(MODEL))
        return info.value

    error = with_pool(fake_llm.env(), body, **FAST)
    assert (error.kind, error.status, error.attempts) == ("auth", 401, 1)
    assert "refused the API key in OPENAI_API_KEY" in str(error)
    assert "check OPENAI_API_KEY" in str(error)
    assert "gave up" not in str(error)
    assert len(fake_llm.calls) == 1


def test_401_without_a_key_says_which_variable_to_set(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "401")
    with pytest.raises(ProviderCallError, match="set VLLM_API_KEY"):
        chat({"VLLM_BASE_URL": fake_llm.url + "/v1"}, ask("vllm:m"), **FAST)


def test_404_says_the_model_id_may_be_wrong(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "404")
    with pytest.raises(ProviderCallError) as info:
        chat(fake_llm.env(), ask("anthropic:claude-nope"), **FAST)
    assert info.value.kind == "not_found"
    assert "the model id 'anthropic:claude-nope' may be wrong" in str(info.value)
    assert "ANTHROPIC_BASE_URL" in str(info.value)
    assert "does not exist" in str(info.value)  # the provider's own words are kept
    assert len(fake_llm.calls) == 1


def test_other_4xx_are_not_retried(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "400")
    with pytest.raises(ProviderCallError, match=r"rejected the request \(HTTP 400\)") as info:
        chat(fake_llm.env(), ask("ollama:llama3.2"), **FAST)
    assert "'messages' is malformed" in str(info.value)
    assert len(fake_llm.calls) == 1


def test_an_unreachable_endpoint_is_a_connection_error(fake_llm: FakeLLM) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {"OLLAMA_BASE_URL": f"http://127.0.0.1:{port}"}
    with pytest.raises(ProviderCallError) as info:
        chat(env, ask("ollama:llama3.2"), max_attempts=2, **FAST)
    assert info.value.kind == "connection"
    assert f"connection to http://127.0.0.1:{port}/api/chat failed (ConnectError" in str(info.value)
    assert "is Ollama running there? OLLAMA_BASE_URL sets the address" in str(info.value)


def test_backoff_doubles_with_jitter_and_is_capped(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(5, "500")
    time_ = FakeTime()
    response = chat(
        fake_llm.env(),
        ask(MODEL),
        max_attempts=6,
        backoff_base_s=1.0,
        backoff_cap_s=5.0,
        clock=time_.clock,
        sleep=time_.sleep,
        rng=random.Random(7),
    )
    assert response.attempts == 6
    ceilings = [1.0, 2.0, 4.0, 5.0, 5.0]
    assert len(time_.sleeps) == 5
    for delay, ceiling in zip(time_.sleeps, ceilings, strict=True):
        assert ceiling / 2 <= delay <= ceiling
    assert len(set(time_.sleeps)) == 5  # jittered, not fixed


def test_a_long_retry_after_is_capped(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "429", retry_after="3600")
    time_ = FakeTime()
    chat(fake_llm.env(), ask(MODEL), clock=time_.clock, sleep=time_.sleep, **FAST)
    assert max(time_.sleeps) == 120.0


def test_errors_inside_a_200_answer() -> None:
    import httpx

    answers = [
        {"error": {"message": "Upstream overloaded", "code": 502}},
        {"id": "x", "object": "chat.completion"},  # no choices
        {"choices": [{"message": {"content": "finally"}}]},
        {"error": {"message": "Context too long", "code": 400}},
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=answers.pop(0))

    async def body(pool: ProviderPool) -> None:
        response = await pool.chat(ask("openrouter:openai/gpt-4.1-mini"))
        assert (response.text, response.attempts) == ("finally", 3)
        with pytest.raises(ProviderCallError, match="answered with an error: Context too long"):
            await pool.chat(ask("openrouter:openai/gpt-4.1-mini"))

    env = {"OPENROUTER_API_KEY": "k"}
    with_pool(env, body, transport=httpx.MockTransport(handler), **FAST)
    assert answers == []
