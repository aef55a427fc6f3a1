"""The pool's HTTP/1.1 transport against a raw scripted server (framing, keep-alive, TLS)."""

from __future__ import annotations

import asyncio
import gzip
import json
import ssl
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import pytest

from engine.net.connections import Connections
from engine.net.transport import Http11Transport
from engine.providers import ChatRequest, ProviderPool
from tests.providers.helpers import FakeTime, self_signed_certificate

Answer = bytes | None  # None: close the connection without answering


class RawServer:
    """Answers each request with the next scripted bytes; records requests and connections."""

    def __init__(self, answers: list[Answer], *, close_after: bool = False) -> None:
        self.answers = list(answers)
        self.close_after = close_after
        self.requests: list[tuple[bytes, bytes]] = []
        self.connections = 0
        self.url = ""

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while self.answers:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                self.requests.append((head, await reader.readexactly(length)))
                answer = self.answers.pop(0)
                if answer is None:
                    break
                writer.write(answer)
                await writer.drain()
                if self.close_after:
                    break
        except asyncio.IncompleteReadError:
            pass
        finally:
            writer.close()

    async def run(
        self,
        body: Callable[[RawServer], Awaitable[None]],
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        server = await asyncio.start_server(self._handle, "127.0.0.1", 0, ssl=ssl_context)
        port = server.sockets[0].getsockname()[1]
        self.url = f"{'https' if ssl_context else 'http'}://127.0.0.1:{port}"
        async with server:
            await body(self)


def ok(body: bytes, *extra: str) -> bytes:
    head = ["HTTP/1.1 200 OK", f"Content-Length: {len(body)}", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def serve(
    answers: list[Answer], body: Callable[[RawServer], Awaitable[None]], **kw: bool
) -> RawServer:
    server = RawServer(answers, **kw)
    asyncio.run(server.run(body))
    return server


def test_requests_are_framed_and_connections_reused() -> None:
    async def body(server: RawServer) -> None:
        async with httpx.AsyncClient(transport=Http11Transport(4)) as client:
            for i in range(3):
                response = await client.post(f"{server.url}/v1/x?q=1", json={"i": i})
                assert response.status_code == 200
                assert response.json() == {"n": i}
                assert response.http_version == "HTTP/1.1"
                assert response.reason_phrase == "OK"

    server = serve([ok(json.dumps({"n": i}).encode()) for i in range(3)], body)
    assert server.connections == 1
    head, sent = server.requests[0]
    assert head.startswith(b"POST /v1/x?q=1 HTTP/1.1\r\n")
    assert f"Host: {server.url.removeprefix('http://')}".encode() in head
    assert json.loads(sent) == {"i": 0}


def test_chunked_gzip_bodies_with_trailers_and_1xx_answers() -> None:
    payload = gzip.compress(json.dumps({"text": "héllo" * 100}).encode())
    chunks = b"".join(
        b"%x;ext=1\r\n%s\r\n" % (len(payload[i : i + 50]), payload[i : i + 50])
        for i in range(0, len(payload), 50)
    )
    answer = (
        b"HTTP/1.1 100 Continue\r\n\r\n"
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n"
        + chunks
        + b"0\r\nX-Trailer: yes\r\n\r\n"
    )

    async def body(server: RawServer) -> None:
        async with httpx.AsyncClient(transport=Http11Transport(2)) as client:
            for _ in range(2):
                response = await client.post(server.url, json={})
                assert response.json() == {"text": "héllo" * 100}

    assert serve([answer, answer], body).connections == 1


def test_connection_close_answers_are_not_reused() -> None:
    async def body(server: RawServer) -> None:
        async with httpx.AsyncClient(transport=Http11Transport(2)) as client:
            assert (await client.post(server.url, json={})).json() == {}
            assert (await client.post(server.url, json={})).json() == []

    assert serve([ok(b"{}", "Connection: close"), ok(b"[]")], body).connections == 2


def test_http10_answers_without_length_end_with_the_connection() -> None:
    async def body(server: RawServer) -> None:
        async with httpx.AsyncClient(transport=Http11Transport(2)) as client:
            assert (await client.post(server.url, json={})).json() == {"old": 1}
            assert (await client.post(server.url, json={})).json() == []

    answers: list[Answer] = [b'HTTP/1.0 200 OK\r\n\r\n{"old": 1}', ok(b"[]")]
    assert serve(answers, body, close_after=True).connections == 2


def test_a_connection_closed_by_the_server_while_idle_is_replaced() -> None:
    async def body(server: RawServer) -> None:
        async with httpx.AsyncClient(transport=Http11Transport(2)) as client:
            await client.post(server.url, json={})
            await asyncio.sleep(0.05)  # the server's FIN arrives
            assert (await client.post(server.url, json={})).json() == {"second": True}

    server = serve([ok(b"{}"), ok(b'{"second": true}')], body, close_after=True)
    assert server.connections == 2


def test_idle_connections_expire() -> None:
    time_ = FakeTime()

    async def body(server: RawServer) -> None:
        transport = Http11Transport(Connections(2, keepalive_expiry_s=5, clock=time_.clock))
        async with httpx.AsyncClient(transport=transport) as client:
            await client.post(server.url, json={})
            time_.now += 4
            await client.post(server.url, json={})
            time_.now += 6
            await client.post(server.url, json={})

    assert serve([ok(b"{}")] * 3, body).connections == 2


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "Server disconnected without sending a response"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}", "in the middle of a response"),
        (b"SMTP ready\r\n\r\n", "not an HTTP/1.x answer"),
        (b"HTTP/1.1 200 OK\r\nbroken header\r\n\r\n", "malformed header line"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "malformed answer"),
    ],
)
def test_broken_answers_are_protocol_errors(answer: Answer, message: str) -> None:
    async def body(server: RawServer) -> None:
        async with httpx.AsyncClient(transport=Http11Transport(2)) as client:
            with pytest.raises(httpx.RemoteProtocolError, match=message):
                await client.post(server.url, json={})

    serve([answer], body, close_after=True)


def test_other_schemes_are_refused() -> None:
    async def body() -> None:
        transport = Http11Transport(1)
        with pytest.raises(httpx.UnsupportedProtocol):
            await transport.handle_async_request(httpx.Request("GET", "ftp://127.0.0.1/x"))

    asyncio.run(body())


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return self_signed_certificate(tmp_path_factory.mktemp("tls"))


def test_tls_is_verified(certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    trusting = ssl.create_default_context(cafile=str(cert))

    async def body(server: RawServer) -> None:
        async with httpx.AsyncClient(transport=Http11Transport(2)) as client:
            with pytest.raises(httpx.ConnectError, match="certificate verify failed"):
                await client.post(server.url, json={})
        transport = Http11Transport(Connections(2, ssl_context=trusting))
        async with httpx.AsyncClient(transport=transport) as client:
            assert (await client.post(server.url, json={})).json() == {"tls": True}

    server = RawServer([ok(b'{"tls": true}')])
    asyncio.run(server.run(body, ssl_context=server_context))


def test_the_pool_accepts_any_transport() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = {"choices": [{"message": {"content": "mocked"}, "finish_reason": "stop"}]}
        return httpx.Response(200, json=answer)

    async def main() -> str:
        transport = httpx.MockTransport(handler)
        async with ProviderPool(environ={"OPENAI_API_KEY": "k"}, transport=transport) as pool:
            request = ChatRequest(
                model_id="openai:gpt-4.1", messages=[{"role": "user", "content": "q"}]
            )
            response = await pool.chat(request)
            assert response.usage.input_tokens == 0  # the answer gave no usage
            return response.text

    assert asyncio.run(main()) == "mocked"
    assert str(seen[0].url) == "https://api.openai.com/v1/chat/completions"
    assert seen[0].headers["authorization"] == "Bearer k"


def test_httpx_own_transport_can_be_chosen(fake_llm):
    import asyncio

    from engine.providers import ChatRequest, ProviderPool

    async def main():
        environ = {**fake_llm.env(), "BLUEPRINT_HTTP_TRANSPORT": "httpx"}
        async with ProviderPool(environ=environ) as pool:
            response = await pool.chat(
                ChatRequest(model_id="openai:m", messages=[{"role": "user", "content": "hi"}])
            )
            assert type(pool._http()._transport).__name__ == "AsyncHTTPTransport"
            return response

    assert asyncio.run(main()).text


@pytest.mark.parametrize("variable", [None, "SSL_CERT_FILE", "SSL_CERT_DIR"])
def test_tls_settings_are_httpxs(monkeypatch, tmp_path, variable) -> None:
    # made without importing httpx, they must trust exactly what httpx's would
    import certifi

    from engine.net.connections import tls_context

    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    if variable == "SSL_CERT_FILE":
        monkeypatch.setenv(variable, certifi.where())
    elif variable == "SSL_CERT_DIR":
        monkeypatch.setenv(variable, str(tmp_path))
    ours, theirs = tls_context(), httpx.create_ssl_context()
    assert ours.cert_store_stats() == theirs.cert_store_stats()
    assert ours.get_ca_certs() == theirs.get_ca_certs()
    assert (ours.verify_mode, ours.check_hostname) == (theirs.verify_mode, theirs.check_hostname)
    assert (ours.minimum_version, ours.options) == (theirs.minimum_version, theirs.options)
