"""The fake LLM server itself: standalone mode, control endpoint, scripting, throughput."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tests.fakes.benchmark import floor, hammer, server_process
from tests.fakes.llm_replies import FakeReply, short_hash
from tests.fakes.llm_server import FakeLLM

CHAT = {"model": "gpt-x", "messages": [{"role": "user", "content": "ping"}]}


def test_standalone_server_is_scriptable_over_http() -> None:
    with server_process("--latency-ms", "5") as url, httpx.Client(base_url=url) as client:
        assert url.startswith("http://127.0.0.1:")
        answer = client.post("/v1/chat/completions", json=CHAT).json()
        assert (
            answer["choices"][0]["message"]["content"] == f"[gpt-x] {short_hash('ping')} echo: ping"
        )
        control = {"fail_next": {"n": 1, "kind": "429", "retry_after": 7}}
        assert client.post("/_control", json=control).json()["ok"] is True
        limited = client.post("/chat/completions", json=CHAT)
        assert (limited.status_code, limited.headers["retry-after"]) == (429, "7")
        rule = {"fail_when": {"model": "bad", "kind": "500"}, "latency_ms": 0}
        client.post("/_control", json=rule)
        assert client.post("/v1/messages", json={**CHAT, "model": "bad"}).status_code == 500
        assert client.post("/v1/messages", json=CHAT).status_code == 200
        calls = client.get("/_calls").json()
        assert [c["fault"] for c in calls] == [None, "429", "500", None]
        assert [c["protocol"] for c in calls] == ["openai", "openai", "anthropic", "anthropic"]
        assert client.get("/_stats").json()["calls"] == 4
        bad = client.post("/_control", json={"fail_next": {"kind": "teapot"}})
        assert bad.status_code == 400 and "unknown fault kind" in bad.json()["error"]
        assert client.post("/_control", json={"nonsense": 1}).status_code == 400
        client.post("/_control", json={"reset": True})
        assert client.get("/_stats").json()["calls"] == 0
        assert client.get("/nowhere").status_code == 404


def test_standalone_flags() -> None:
    flags = ["--fail-model", "broken=503", "--tool-call", "lookup", "--tool-args", '{"q": 1}']
    flags += ["--judge-met", "CLASS_EXACTLY_MET"]
    with server_process(*flags) as url, httpx.Client(base_url=url) as client:
        assert client.post("/api/chat", json={**CHAT, "model": "broken"}).status_code == 503
        tools = [{"type": "function", "function": {"name": "lookup", "parameters": {}}}]
        answer = client.post("/v1/chat/completions", json={**CHAT, "tools": tools}).json()
        call = answer["choices"][0]["message"]["tool_calls"][0]
        assert call["function"] == {"name": "lookup", "arguments": '{"q": 1}'}
        judge = "<TEXT>ping pong</TEXT><CRITERION>Ping is said</CRITERION>"
        body = {**CHAT, "messages": [{"role": "user", "content": judge}]}
        text = client.post("/api/chat", json=body).json()["message"]["content"]
        assert text.endswith("<classification>CLASS_EXACTLY_MET</classification>")


def test_replies_are_deterministic_and_scriptable(fake_llm: FakeLLM) -> None:
    with httpx.Client(base_url=fake_llm.url) as client:
        first = client.post("/v1/chat/completions", json=CHAT).json()
        again = client.post("/v1/chat/completions", json=CHAT).json()
        assert first["choices"] == again["choices"] and first["usage"] == again["usage"]
        fake_llm.reply_with(lambda r: f"custom for {r.model}")
        assert (
            client.post("/api/chat", json=CHAT).json()["message"]["content"] == "custom for gpt-x"
        )
        fake_llm.reply_with(lambda r: FakeReply(text="x", finish_reason="length"))
        assert client.post("/v1/messages", json=CHAT).json()["stop_reason"] == "length"
        fake_llm.judge_with(lambda criterion, text: "CLASS_MAJOR")
        fake_llm.reply_with(None)
        judge = {**CHAT, "system": "<TEXT>a</TEXT><CRITERION>b</CRITERION>"}
        text = client.post("/v1/messages", json=judge).json()["content"][0]["text"]
        assert "<classification>CLASS_MAJOR</classification>" in text
        fake_llm.fail_when(lambda r: r.last_user == "boom", "401")
        boom = {**CHAT, "messages": [{"role": "user", "content": "boom"}]}
        assert client.post("/v1/chat/completions", json=boom).status_code == 401
        assert client.post("/v1/chat/completions", json=CHAT).status_code == 200
        assert client.post("/v1/chat/completions", content=b"{not json").status_code == 400
    fake_llm.reset()
    assert (fake_llm.calls, fake_llm.max_in_flight) == ([], 0)
    with pytest.raises(ValueError, match="unknown fault kind"):
        fake_llm.fail_next(1, "418")


def test_the_server_sustains_many_connections() -> None:
    # Throughput is measured by `python -m tests.fakes.benchmark`; here only concurrency:
    # 64 calls are in flight at once, not one after another.
    with server_process("--latency-ms", "50") as url:
        asyncio.run(hammer(url, 64, 5))
        stats = json.loads(httpx.get(f"{url}/_stats").text)
    assert stats["max_in_flight"] == 64
    assert stats["calls"] == 320


def test_the_floor_client_makes_exactly_the_calls_asked_over_its_connections() -> None:
    # bench/run.py's floor line: 100 calls share one count over 32 connections (4 waves)
    with server_process("--latency-ms", "20") as url:
        seconds = asyncio.run(floor(url, 100, 32))
        stats = json.loads(httpx.get(f"{url}/_stats").text)
    assert (stats["calls"], stats["max_in_flight"]) == (100, 32)
    assert seconds >= 4 * 0.02
