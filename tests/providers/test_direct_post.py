"""`DirectPost`: the pool's calls on its own transport are the client's, byte for byte."""

from __future__ import annotations

import asyncio
import gzip
import json
import logging

import httpx
import pytest

from engine.net.http11 import Answer as ReadAnswer
from engine.net.transport import Http11Transport
from engine.providers import ChatRequest, ProviderPool
from engine.providers.direct import CLIENT_HEADERS, DirectPost, LazyClient, plain_head
from tests.providers.test_transport import RawServer, ok, serve

CHAT = {"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]}
BODY = {"model": "m", "messages": [{"role": "user", "content": 'héllo \u2028 "q"'}]}


def test_a_direct_post_writes_what_the_client_writes() -> None:
    headers = {"Authorization": "Bearer k", "X-Title": "Blueprint Studio"}

    async def body(server: RawServer) -> None:
        transport = Http11Transport(2)
        async with httpx.AsyncClient(transport=transport, headers=dict(CLIENT_HEADERS)) as client:
            direct = DirectPost(transport.connections, LazyClient(lambda: client))
            assert direct.usable()
            url = f"{server.url}/v1/chat/completions?x=1"
            response = await client.post(url, headers=headers, json=BODY, timeout=5)
            assert response.json() == CHAT
            answer = await direct.post(url, headers, BODY, 5)
            assert isinstance(answer, ReadAnswer)
            assert json.loads(answer.body) == CHAT

    server = serve([ok(json.dumps(CHAT).encode())] * 2, body)
    (head_client, body_client), (head_direct, body_direct) = server.requests
    assert head_direct == head_client
    assert body_direct == body_client
    assert "héllo".encode() in body_direct  # not \\u-escaped, as httpx encodes json=


def test_cookies_and_encoded_bodies_go_the_clients_way() -> None:
    packed = gzip.compress(json.dumps(CHAT).encode())
    answers = [
        ok(json.dumps(CHAT).encode(), "Set-Cookie: session=abc; Path=/"),
        ok(packed, "Content-Encoding: gzip"),
    ]

    async def body(server: RawServer) -> None:
        environ = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": f"{server.url}/v1"}
        async with ProviderPool(environ=environ, transport=Http11Transport(2)) as pool:
            request = ChatRequest(model_id="openai:m", messages=[{"role": "user", "content": "q"}])
            assert (await pool.chat(request)).text == "hi"
            assert (await pool.chat(request)).text == "hi"  # gzip decoded

    server = serve(answers, body)
    assert b"Cookie:" not in server.requests[0][0]
    assert b"\r\nCookie: session=abc\r\n" in server.requests[1][0]  # kept by the client's jar


def test_the_direct_way_is_not_taken_while_httpx_logs_requests(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def body(server: RawServer) -> None:
        environ = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": f"{server.url}/v1"}
        async with ProviderPool(environ=environ, transport=Http11Transport(2)) as pool:
            request = ChatRequest(model_id="openai:m", messages=[{"role": "user", "content": "q"}])
            with caplog.at_level(logging.INFO, logger="httpx"):
                assert (await pool.chat(request)).text == "hi"
            assert (await pool.chat(request)).text == "hi"

    server = serve([ok(json.dumps(CHAT).encode())] * 2, body)
    logged = [r.getMessage() for r in caplog.records if r.name == "httpx"]
    assert len(logged) == 1 and logged[0].startswith("HTTP Request: POST ")
    assert server.requests[0] == server.requests[1]


def test_a_2xx_that_is_not_the_protocols_shape_is_classified_as_before() -> None:
    async def body(server: RawServer) -> None:
        environ = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": f"{server.url}/v1"}
        pool = ProviderPool(environ=environ, transport=Http11Transport(2), max_attempts=1)
        async with pool:
            request = ChatRequest(model_id="openai:m", messages=[{"role": "user", "content": "q"}])
            with pytest.raises(Exception, match="answered with an error: overloaded"):
                await pool.chat(request)

    serve([ok(b'{"error": {"message": "overloaded"}}')], body)


def test_a_url_the_transport_cannot_take_goes_through_the_client() -> None:
    async def main() -> None:
        transport = Http11Transport(1)
        async with httpx.AsyncClient(transport=transport) as client:
            direct = DirectPost(transport.connections, LazyClient(lambda: client))
            with pytest.raises(httpx.UnsupportedProtocol):
                await direct.post("ftp://127.0.0.1/x", {}, {}, 1)

    asyncio.run(main())


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8765/v1/chat/completions",
        "https://api.openai.com/v1/chat/completions",
        "https://api.openai.com:443/v1/chat/completions",  # the default port is not written
        "http://localhost:80/api/chat",
        "http://localhost:11434",  # no path: `/`
        "https://openrouter.ai/api/v1/chat/completions",
    ],
)
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer sk-x", "Content-Type": "application/json"},
        {"x-api-key": "k", "anthropic-version": "2023-06-01"},
        {"HTTP-Referer": "https://example.org", "X-Title": "Blueprint Studio", "accept": "x/y"},
        {"User-Agent": "mine/1.0", "Authorization": "Bearer  spaced\tvalue "},
        {"content-type": "application/json; charset=utf-8", "X-A": "1", "x-a": "2"},
    ],
)
def test_a_plain_head_is_the_clients_byte_for_byte(url: str, headers: dict[str, str]) -> None:
    # Written without httpx, so a run's first calls go out before httpx is imported
    from engine.net.transport import request_head

    made = plain_head(url, headers)
    assert made is not None
    client = httpx.AsyncClient(headers=dict(CLIENT_HEADERS))
    request = client.build_request("POST", httpx.URL(url), headers=headers, json={})
    parsed = request.url
    origin = (parsed.scheme, parsed.host, parsed.port or (443 if parsed.scheme == "https" else 80))
    assert made == (origin, request_head(request, request.content))


@pytest.mark.parametrize(
    ("url", "headers"),
    [
        ("http://127.0.0.1:8765/v1/chat/completions?x=1", {}),  # a query
        ("http://user:pw@host/v1", {}),  # credentials
        ("http://Host.Example/v1", {}),  # an upper-case host: httpx lowers it
        ("http://host/a/../b", {}),  # dot segments: httpx removes them
        ("http://host:99999/v1", {}),  # no such port
        ("http://host/v1", {"X-Name": "caf\u00e9"}),  # not ASCII: httpx refuses it
        ("http://host/v1", {"X-Bad": "a\r\nInjected: 1"}),
        ("http://host/v1", {"Host": "other"}),
        ("http://host/v1", {"bad name": "x"}),
    ],
)
def test_anything_not_plain_is_left_to_the_client(url: str, headers: dict[str, str]) -> None:
    assert plain_head(url, headers) is None


def test_a_runs_first_calls_need_no_httpx(fake_llm) -> None:
    # httpx (about 17 ms to import) is imported while the first answers are awaited
    import subprocess
    import sys

    probe = (
        "import asyncio, sys\n"
        "from engine.providers import ChatRequest, ProviderPool\n"
        "async def main():\n"
        "    async with ProviderPool(environ=dict(OPENAI_API_KEY='k', "
        f"OPENAI_BASE_URL='{fake_llm.url}/v1')) as pool:\n"
        "        request = ChatRequest(model_id='openai:m', messages=[dict(role='user', content='q')])\n"
        "        answers = await asyncio.gather(*(pool.chat(request) for _ in range(3)))\n"
        "        print([a.text for a in answers] == [answers[0].text] * 3, 'httpx' in sys.modules)\n"
        "asyncio.run(main())\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]
