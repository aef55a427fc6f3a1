"""`DirectPost`: the pool's calls on its own transport are the client's, byte for byte."""

from __future__ import annotations

import asyncio
import gzip
import json
import logging

import httpx
import pytest

from engine.providers import ChatRequest, ProviderPool
from engine.providers.direct import DirectPost
from engine.providers.http11 import Answer as ReadAnswer
from engine.providers.transport import Http11Transport
from tests.providers.test_transport import RawServer, ok, serve

CHAT = {"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]}
BODY = {"model": "m", "messages": [{"role": "user", "content": 'héllo \u2028 "q"'}]}


def test_a_direct_post_writes_what_the_client_writes() -> None:
    headers = {"Authorization": "Bearer k", "X-Title": "Blueprint Studio"}

    async def body(server: RawServer) -> None:
        transport = Http11Transport(2)
        async with httpx.AsyncClient(transport=transport) as client:
            direct = DirectPost(client, transport)
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
            with pytest.raises(httpx.UnsupportedProtocol):
                await DirectPost(client, transport).post("ftp://127.0.0.1/x", {}, {}, 1)

    asyncio.run(main())
