"""Conformance of the pool's HTTP/1.1 transport.

Two halves:
- the answer reader (`engine.net.http11`) against h11, the well-kept HTTP/1.1 state
  machine httpcore uses: the same bytes go to both, which must agree on accepting or refusing,
  and on status, body and keep-alive (examples, then generated answers);
- the transport and the pool against misbehaving raw-socket servers: every fault ends as a
  plain-worded error, retried or not as the table below says, and nothing waits past its
  timeout. TLS uses a certificate made in-process (`cryptography`), so no `openssl` binary.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import h11
import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.net.connections import Connections
from engine.net.http11 import MAX_HEAD, ProtocolError, read_response
from engine.net.transport import Http11Transport
from engine.providers import ProviderCallError, ProviderPool
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import FAST, ask, self_signed_certificate

Outcome = tuple[int, bytes, bool] | str  # (status, body, keep_alive) or "error"

# -- the reader against h11 --------------------------------------------------------------------


def ours(data: bytes, method: str = "POST") -> Outcome:
    async def main() -> Outcome:
        reader = asyncio.StreamReader(limit=MAX_HEAD)
        reader.feed_data(data)
        reader.feed_eof()
        try:
            answer = await read_response(reader, method)
        except (ProtocolError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            return "error"
        return answer.status, answer.body, answer.keep_alive

    return asyncio.run(main())


def theirs(data: bytes, method: str = "POST") -> Outcome:
    conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD)
    headers = [("Host", "x"), ("Content-Length", "0")]
    conn.send(h11.Request(method=method, target="/", headers=headers))
    conn.send(h11.EndOfMessage())
    pieces = [data[i : i + 4096] for i in range(0, len(data), 4096)]  # as a socket reads
    status, body = 0, b""
    try:
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(pieces.pop(0) if pieces else b"")
            elif isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                closed = conn.trailing_data[1]  # the body was read until the server closed
                return status, body, conn.their_state is h11.DONE and not closed
    except h11.RemoteProtocolError:
        return "error"


def ok(body: bytes, *extra: str, version: str = "1.1") -> bytes:
    head = [f"HTTP/{version} 200 OK", f"Content-Length: {len(body)}", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


CHUNKED = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
EXAMPLES: dict[str, bytes] = {
    "plain": ok(b'{"a": 1}'),
    "empty reason": b"HTTP/1.1 200 \r\nContent-Length: 2\r\n\r\n{}",
    "no reason": b"HTTP/1.1 200\r\nContent-Length: 2\r\n\r\n{}",
    "http/1.0": ok(b"{}", version="1.0"),
    "http/1.0 until close": b"HTTP/1.0 200 OK\r\n\r\n{}",
    "1.1 until close": b"HTTP/1.1 200 OK\r\n\r\n{}",
    "connection close": ok(b"{}", "Connection: close"),
    "connection tokens": ok(b"{}", "Connection: Keep-Alive, CLOSE"),
    "connection keep-alive": ok(b"{}", "Connection: keep-alive"),
    "1xx first": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early\r\nLink: x\r\n\r\n" + ok(b"{}"),
    "204 ignores length": b"HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n",
    "304": b"HTTP/1.1 304 Not Modified\r\n\r\n",
    "status 999": b"HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n",
    "repeated equal lengths": ok(b"{}", "Content-Length: 2"),
    "length list": b"HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\n{}",
    "leading zeros": b"HTTP/1.1 200 OK\r\nContent-Length: 002\r\n\r\n{}",
    "obs-fold": ok(b"{}", "X-Long: a", "  b"),
    "header spaces": ok(b"{}", "X-A:   spaced  value  "),
    "empty value": ok(b"{}", "X-Empty:"),
    "obs-text value": ok(b"{}", "X-Caf: caf\xe9"),
    "chunked": CHUNKED + b"2\r\n{}\r\n0\r\n\r\n",
    "chunk extensions": CHUNKED + b'1;a=b;c\r\n{\r\n1;q="x y"\r\n}\r\n0;end\r\n\r\n',
    "chunk size spaces": CHUNKED + b"2  \r\n{}\r\n0\r\n\r\n",
    "upper-case hex": CHUNKED + b"A\r\n0123456789\r\n0\r\n\r\n",
    "trailers": CHUNKED + b"2\r\n{}\r\n0\r\nX-Trailer: yes\r\nX-More: 1\r\n\r\n",
    "chunked beats length": (
        b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: Chunked\r\n\r\n"
        b"2\r\n{}\r\n0\r\n\r\n"
    ),
    "extra bytes after the body": ok(b"{}") + b"garbage",
    # refused by both
    "not http": b"SMTP ready\r\n\r\n",
    "status with 4 digits": b"HTTP/1.1 2000 OK\r\n\r\n",
    "status with letters": b"HTTP/1.1 2x0 OK\r\n\r\n",
    "status below 100": b"HTTP/1.1 099 Low\r\nContent-Length: 0\r\n\r\n",
    "101 not asked for": b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n",
    "nul in reason": b"HTTP/1.1 200 O\x00K\r\nContent-Length: 0\r\n\r\n",
    "broken header": b"HTTP/1.1 200 OK\r\nbroken header\r\n\r\n",
    "space before colon": b"HTTP/1.1 200 OK\r\nX-A : 1\r\nContent-Length: 0\r\n\r\n",
    "bad header name": b"HTTP/1.1 200 OK\r\nX(A): 1\r\nContent-Length: 0\r\n\r\n",
    "nul in value": b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 0\r\n\r\n",
    "fold first": b"HTTP/1.1 200 OK\r\n  folded\r\nContent-Length: 0\r\n\r\n",
    "negative length": b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
    "length with letters": b"HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n",
    "empty length": b"HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n",
    "21-digit length": b"HTTP/1.1 200 OK\r\nContent-Length: " + b"1" * 21 + b"\r\n\r\n",
    "conflicting lengths": b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}",
    "conflicting length list": b"HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n{}",
    "gzip transfer coding": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n{}",
    "two transfer codings": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
    "two te headers": CHUNKED[:-2] + b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "short body": b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}",
    "no answer": b"",
    "half a head": b"HTTP/1.1 200 OK\r\nContent-Le",
    "bad chunk size": CHUNKED + b"zz\r\n",
    "0x chunk size": CHUNKED + b"0x2\r\n{}\r\n0\r\n\r\n",
    "negative chunk size": CHUNKED + b"-2\r\n{}\r\n0\r\n\r\n",
    "space before extension": CHUNKED + b"2 ;x\r\n{}\r\n0\r\n\r\n",
    "21-digit chunk size": CHUNKED + b"1" * 21 + b"\r\n",
    "chunk longer than its size": CHUNKED + b"1\r\n{}\r\n0\r\n\r\n",
    "no last chunk": CHUNKED + b"2\r\n{}\r\n",
    "bad trailer": CHUNKED + b"0\r\nbroken trailer\r\n\r\n",
    "bad length in trailer": CHUNKED + b"0\r\nContent-Length: x\r\n\r\n",
    "head too large": b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 2 * MAX_HEAD + b"\r\n\r\n",
    "1xx with a bad header": b"HTTP/1.1 100 Continue\r\nbad\r\n\r\n" + ok(b"{}"),
}
REFUSED_FROM = "not http"


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_reader_agrees_with_h11(name: str) -> None:
    data = EXAMPLES[name]
    expected = theirs(data)
    assert ours(data) == expected
    refused = list(EXAMPLES).index(name) >= list(EXAMPLES).index(REFUSED_FROM)
    assert (expected == "error") is refused  # the example list is what its headings say


@pytest.mark.parametrize("status", [200, 204, 404])
def test_head_answers_have_no_body_like_h11(status: int) -> None:
    data = f"HTTP/1.1 {status} X\r\nContent-Length: 7\r\n\r\n".encode()
    assert ours(data, "HEAD") == theirs(data, "HEAD") == (status, b"", True)


@pytest.mark.parametrize(
    ("data", "h11_says"),
    [
        # h11 takes any HTTP/d.d; this reader only 1.0 and 1.1
        (b"HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n", (200, b"", True)),
        # h11 also takes bare LF line ends; here such a head never completes
        (b"HTTP/1.1 200 OK\nContent-Length: 2\n\n{}", (200, b"{}", True)),
    ],
)
def test_deliberate_differences_from_h11(data: bytes, h11_says: Outcome) -> None:
    assert theirs(data) == h11_says
    assert ours(data) == "error"


_FIELDS = st.sampled_from(
    [
        b"Content-Type: application/json",
        b"Connection: close",
        b"Connection: keep-alive",
        b"X-Spaced:   a  b  ",
        b"X-Empty:",
        b"  folded continuation",
        b"broken header",
        b"X-Nul: a\x00b",
        b"Content-Length: -1",
        b"Content-Length: 3",
        b"Content-Length: 2, 3",
        b"Transfer-Encoding: chunked",
        b"Transfer-Encoding: gzip",
        b"Bad Name: x",
    ]
)
_CHUNK_LINES = st.sampled_from([b"%x", b"%X", b"%x;ext", b'%x;a="b c"', b"%x  ", b"0x%x", b"%x ;x"])


@st.composite
def answers(draw: st.DrawFn) -> bytes:
    """An HTTP answer built from valid and broken parts, sometimes cut short."""
    version = draw(st.sampled_from([b"1.1", b"1.0"]))
    status = draw(
        st.sampled_from([b"200", b"204", b"304", b"404", b"100", b"101", b"2000", b"20x"])
    )
    reason = draw(st.sampled_from([b" OK", b"", b" ", b" Not Found", b" caf\xe9", b" a\x00b"]))
    fields = draw(st.lists(_FIELDS, max_size=4))
    body = draw(st.binary(max_size=40).filter(lambda b: b"\n" not in b))
    framing = draw(st.sampled_from(["length", "chunked", "close", "none"]))
    if framing == "length":
        fields.append(b"Content-Length: %d" % len(body))
    elif framing == "chunked":
        fields.append(b"Transfer-Encoding: chunked")
    head = b"HTTP/%s %s%s\r\n" % (version, status, reason)
    head += b"".join(f + b"\r\n" for f in fields) + b"\r\n"
    if framing == "chunked":
        sizes = draw(st.lists(st.integers(1, 9), max_size=4))
        parts, rest = [], body
        for size in sizes:
            line = draw(_CHUNK_LINES)
            parts.append(line % len(rest[:size]) + b"\r\n" + rest[:size] + b"\r\n")
            rest = rest[size:]
        trailer = draw(st.sampled_from([b"", b"X-T: 1\r\n", b"bad trailer\r\n"]))
        body = b"".join(parts) + b"0\r\n" + trailer + b"\r\n"
    data = head + body
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return data


@settings(max_examples=400, deadline=None)
@given(answers(), st.sampled_from(["POST", "HEAD"]))
def test_generated_answers_are_read_as_h11_reads_them(data: bytes, method: str) -> None:
    assert ours(data, method) == theirs(data, method)


# -- the transport and the pool against misbehaving servers ----------------------------------

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    await reader.readexactly(length)
    return head


def answering(*answers: bytes) -> Handler:
    """A connection handler that answers each request with the next of `answers`."""
    queue = list(answers)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while queue:
                await read_request(reader)
                writer.write(queue.pop(0))
                await writer.drain()
        writer.close()

    return handle


@contextlib.asynccontextmanager
async def raw_server(handler: Handler, context: ssl.SSLContext | None = None) -> AsyncIterator[str]:
    """Serve `handler` on 127.0.0.1; yield the base URL."""
    connections: list[asyncio.StreamWriter] = []

    async def tracked(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(writer)
        await handler(reader, writer)

    server = await asyncio.start_server(tracked, "127.0.0.1", 0, ssl=context)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"{'https' if context else 'http'}://127.0.0.1:{port}"
    finally:
        for writer in connections:
            writer.close()
        server.close()


def pool_call(
    handler: Handler, *, timeout_s: float = 2.0, max_attempts: int = 2, **transport: int
) -> tuple[str, int, float] | str:
    """Make one chat call through a pool to a raw server.

    Returns:
        The answer's text, or (failure kind, attempts, seconds) when the call failed.
    """

    async def main() -> tuple[str, int, float] | str:
        async with raw_server(handler) as url:
            environ = {"OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "k"}
            pool = ProviderPool(
                environ=environ,
                transport=Http11Transport(Connections(4, **transport)),
                max_attempts=max_attempts,
                **FAST,
            )
            started = time.monotonic()
            async with pool:
                try:
                    return (await pool.chat(ask("openai:m", timeout_s=timeout_s))).text
                except ProviderCallError as exc:
                    return exc.kind, exc.attempts, time.monotonic() - started

    return asyncio.run(main())


def reply(text: str) -> bytes:
    body = b'{"choices": [{"message": {"content": "%s"}, "finish_reason": "stop"}]}' % text.encode()
    return ok(body)


def test_chunk_extensions_and_trailers_reach_the_caller() -> None:
    body = b'{"choices": [{"message": {"content": "chunked"}}]}'
    chunks = b"".join(
        b"%x;ext=v\r\n%s\r\n" % (len(body[i : i + 7]), body[i : i + 7])
        for i in range(0, len(body), 7)
    )
    answer = CHUNKED + chunks + b"0;last\r\nX-Trailer: 1\r\n\r\n"
    assert pool_call(answering(answer)) == "chunked"


def test_connection_close_makes_a_new_connection_for_the_next_call() -> None:
    seen: list[int] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(len(seen))
        await read_request(reader)
        writer.write(ok(b'{"choices": [{"message": {"content": "x"}}]}', "Connection: close"))
        await writer.drain()
        await asyncio.sleep(10)  # the transport must not wait for this close
        writer.close()

    async def main() -> float:
        async with raw_server(handle) as url:
            environ = {"OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "k"}
            async with ProviderPool(environ=environ, transport=Http11Transport(1)) as pool:
                started = time.monotonic()
                for _ in range(2):
                    assert (await pool.chat(ask("openai:m"))).text == "x"
                return time.monotonic() - started

    assert asyncio.run(main()) < 5  # far less than the 10 s the server keeps each connection open
    assert seen == [0, 1]


# What each fault becomes. A broken answer, a dropped connection or silence may be a passing
# fault of the server or of a proxy in between, so each is retried; an untrusted certificate
# (the TLS test below) is not, since the same certificate would be refused again.
@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        (b"HTTP/1.1 OK\r\n\r\n", "connection"),  # malformed status line
        (b"HTTP/1.1 200 OK\r\nX: " + b"a" * 100_000 + b"\r\n\r\n", "connection"),  # huge head
        (b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}", "connection"),  # early close
        (CHUNKED + b"5\r\n{}", "connection"),  # early close inside a chunk
        (CHUNKED + b"2\r\n{}XX0\r\n\r\n", "connection"),  # a chunk longer than its size
        (b"HTTP/1.1 200 OK\r\nContent-Length: 5000000\r\n\r\n", "connection"),  # over the cap
    ],
)
def test_broken_answers_are_retried_connection_failures(answer: bytes, kind: str) -> None:
    result = pool_call(answering(answer, answer), max_body_bytes=1_000_000)
    assert isinstance(result, tuple)
    assert result[:2] == (kind, 2)


def test_a_bare_lf_answer_ends_in_a_timeout_not_a_hang() -> None:
    async def bare_lf(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            await read_request(reader)
            writer.write(b"HTTP/1.1 200 OK\nContent-Length: 2\n\n{}")
            await reader.read()  # until the client gives up

    result = pool_call(bare_lf, timeout_s=0.3)
    assert isinstance(result, tuple)
    assert result[:2] == ("timeout", 2)
    assert result[2] < 10  # a bound, not a measurement: without the timeout it would wait forever


def test_a_server_that_drips_bytes_forever_times_out() -> None:
    async def drip(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            await read_request(reader)
            writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            while True:
                writer.write(b"1\r\nx\r\n")
                await writer.drain()
                await asyncio.sleep(0.01)

    result = pool_call(drip, timeout_s=0.3, max_attempts=1)
    assert isinstance(result, tuple)
    assert result[:2] == ("timeout", 1)
    assert result[2] < 10


def test_a_server_that_never_reads_the_request_times_out() -> None:
    async def deaf(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(5)

    async def main() -> None:
        async with (
            raw_server(deaf) as url,
            httpx.AsyncClient(transport=Http11Transport(1)) as client,
        ):
            body = b"x" * (8 << 20)  # more than the socket buffers take
            with pytest.raises(httpx.WriteTimeout, match="did not take the request"):
                await client.post(url, content=body, timeout=0.3)

    asyncio.run(main())


def test_messages_never_quote_the_answer() -> None:
    secret = b"sk-leaked-in-the-status-line"

    async def main() -> None:
        async with (
            raw_server(answering(b"HTTP/1.1 " + secret + b"\r\n\r\n")) as url,
            httpx.AsyncClient(transport=Http11Transport(1)) as client,
        ):
            with pytest.raises(httpx.RemoteProtocolError) as caught:
                await client.post(url, json={})
        assert secret.decode() not in str(caught.value)
        assert "malformed status line" in str(caught.value)

    asyncio.run(main())


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return self_signed_certificate(tmp_path_factory.mktemp("tls"))


def _serving(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    """The TLS settings of a server that presents `certificate`."""
    cert, key = certificate
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def test_tls_against_the_fake_server_with_its_own_certificate(
    certificate: tuple[Path, Path],
) -> None:
    cert, _ = certificate
    with FakeLLM(ssl_context=_serving(certificate)) as fake:
        assert fake.url.startswith("https://")

        async def main() -> str:
            trusting = Http11Transport(
                Connections(2, ssl_context=ssl.create_default_context(cafile=cert))
            )
            async with ProviderPool(environ=fake.env(), transport=trusting) as pool:
                return (await pool.chat(ask("openai:m", "over tls"))).text

        assert asyncio.run(main()).endswith("over tls")

        for environ in (fake.env(), {**fake.env(), "BLUEPRINT_HTTP_TRANSPORT": "httpx"}):

            async def untrusted(environ: dict[str, str] = environ) -> ProviderCallError:
                async with ProviderPool(environ=environ, max_attempts=4, **FAST) as pool:
                    with pytest.raises(ProviderCallError) as caught:
                        await pool.chat(ask("openai:m"))
                    return caught.value

            error = asyncio.run(untrusted())
            assert (error.kind, error.attempts) == ("connection", 1)  # not retried
            assert "certificate verify failed" in str(error).lower()
            assert "SSL_CERT_FILE" in str(error)


def test_the_pool_honours_a_proxy_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    targets: list[bytes] = []

    async def proxy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await read_request(reader)
        targets.append(head.split(b" ")[1])
        writer.write(reply("via the proxy"))
        await writer.drain()
        writer.close()

    async def main() -> str:
        async with raw_server(proxy) as url:
            for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy", "http_proxy"):
                monkeypatch.delenv(name, raising=False)
            monkeypatch.setenv("HTTP_PROXY", url)
            monkeypatch.setenv("OPENAI_BASE_URL", "http://llm.example/v1")
            monkeypatch.setenv("OPENAI_API_KEY", "k")
            monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml here
            async with ProviderPool(max_attempts=1) as pool:
                return (await pool.chat(ask("openai:m"))).text

    assert asyncio.run(main()) == "via the proxy"
    assert targets == [b"http://llm.example/v1/chat/completions"]


@pytest.mark.parametrize(
    ("no_proxy", "proxied"),
    [("127.0.0.1", False), ("localhost,127.0.0.1", False), ("example.org", True), ("", True)],
)
def test_hosts_in_no_proxy_go_out_on_the_pools_own_connections(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, no_proxy: str, proxied: bool
) -> None:
    targets: list[bytes] = []

    async def proxy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:  # a keep-alive proxy: answers each request on the connection itself
            while True:
                head = await read_request(reader)
                targets.append(head.split(b" ")[1])
                writer.write(reply("via the proxy"))
                await writer.drain()
        except asyncio.IncompleteReadError:
            writer.close()

    with FakeLLM() as fake:

        async def main() -> tuple[list[str], bool]:
            async with raw_server(proxy) as url:
                for name in ("no_proxy", "ALL_PROXY", "all_proxy", "http_proxy", "https_proxy"):
                    monkeypatch.delenv(name, raising=False)
                for name in ("HTTP_PROXY", "HTTPS_PROXY"):
                    monkeypatch.setenv(name, url)
                monkeypatch.setenv("NO_PROXY", no_proxy)
                for name, value in fake.env().items():
                    monkeypatch.setenv(name, value)
                monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml here
                async with ProviderPool(max_attempts=1) as pool:
                    texts = [(await pool.chat(ask("openai:m", f"q{i}"))).text for i in range(3)]
                    own = pool._connections is not None and bool(pool._connections._idle)
                    return texts, own

        texts, own = asyncio.run(main())
    if proxied:
        assert texts == ["via the proxy"] * 3
        assert len(targets) == 3 and targets[0].endswith(b"/chat/completions")
        assert targets[0].startswith(b"http://127.0.0.1:")  # absolute form, as to a proxy
        assert own  # on the pool's own keep-alive connections to the proxy
    else:
        assert targets == []  # the proxy never saw them
        assert [t.endswith(f"q{i}") for i, t in enumerate(texts)] == [True] * 3
        assert own  # sent on the pool's own keep-alive connections, not through httpx's


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


def test_https_through_a_proxy_goes_in_a_connect_tunnel_on_the_pools_own_connections(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, _ = certificate
    heads: list[bytes] = []

    async def tunnelling(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        heads.append(head)
        host, _, port = head.split(b" ")[1].decode().rpartition(":")
        up_reader, up_writer = await asyncio.open_connection(host, int(port))
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await writer.drain()
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    with FakeLLM(ssl_context=_serving(certificate)) as fake:

        async def main() -> tuple[list[str], bool]:
            async with raw_server(tunnelling) as url:
                for name in [n for n in os.environ if n.lower().endswith("_proxy")]:
                    monkeypatch.delenv(name)
                monkeypatch.setenv("HTTPS_PROXY", url.replace("http://", "http://ana:s%40fe@"))
                monkeypatch.setenv("SSL_CERT_FILE", str(cert))
                for name, value in fake.env().items():
                    monkeypatch.setenv(name, value)
                monkeypatch.chdir(tmp_path)
                async with ProviderPool(max_attempts=1) as pool:
                    texts = [(await pool.chat(ask("openai:m", f"t{i}"))).text for i in range(3)]
                    own = pool._connections is not None and bool(pool._connections._idle)
                    return texts, own

        texts, own = asyncio.run(main())
    assert [t.endswith(f"t{i}") for i, t in enumerate(texts)] == [True] * 3
    assert len(heads) == 1  # one tunnel, kept alive for the three calls
    target = fake.url.removeprefix("https://")
    assert heads[0].startswith(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n".encode())
    assert b"Proxy-Authorization: Basic YW5hOnNAZmU=\r\n" in heads[0]  # ana:s@fe
    assert own


def test_a_certificate_named_by_ssl_cert_file_is_trusted_without_importing_httpx(
    certificate: tuple[Path, Path],
) -> None:
    import os
    import subprocess
    import sys

    cert, _ = certificate
    probe = (
        "import asyncio, sys\n"
        "from engine.providers import ChatRequest, ProviderPool\n"
        "async def main():\n"
        "    async with ProviderPool(environ=dict(OPENAI_API_KEY='k', "
        "OPENAI_BASE_URL=sys.argv[1])) as pool:\n"
        "        request = ChatRequest(model_id='openai:m', messages=[dict(role='user', content='tls')])\n"
        "        print((await pool.chat(request)).text.endswith('tls'), 'httpx' in sys.modules)\n"
        "asyncio.run(main())\n"
    )
    with FakeLLM(ssl_context=_serving(certificate)) as fake:
        out = subprocess.run(
            [sys.executable, "-c", probe, f"{fake.url}/v1"],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "SSL_CERT_FILE": str(cert)},
        )
    assert out.stdout.split() == ["True", "False"]
