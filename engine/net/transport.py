"""The pool's HTTP transport: HTTP/1.1 keep-alive connections on plain asyncio streams.

Why not httpx's default transport: httpcore's pool scans all its connections (with a socket
poll each) whenever a request starts or ends, and every read and write passes through
anyio. On 2 cores that costs about 0.6 ms of CPU per call at 32 connections, and since
concurrent calls advance in lock step, each round trip of 32 calls grew from 50 ms to ~63 ms
against a 50 ms fake server (900 calls: 1.75 s, 1.25 × ideal). This transport does the same
HTTP/1.1 work in ~0.2 ms per call (900 calls: ~1.55 s, 1.1 × ideal); `python -m
bench.transport` compares them. It is used through a normal `httpx.AsyncClient`, which still
builds requests, decodes gzip and applies proxies (proxied URLs go through httpx's own
transports); the pool's own calls skip the client's per-request layers through
`engine.providers.direct`, which writes the same bytes. Answers are read by
`engine.net.http11`, which follows h11's grammar (a conformance suite checks both
against the same bytes) at a tenth of its cost.

The connections themselves are `engine.net.connections.Connections`, which needs no
httpx: the pool's own calls use them directly before httpx is even imported, and the
transport the pool later gives its client shares them (`Http11Transport(connections)`). Scope
and faults are those of `Connections`.
"""

from __future__ import annotations

import httpx

from engine.net.connections import Connections, Origin
from engine.net.http11 import Answer

__all__ = ["Http11Transport", "Origin", "answer_response", "request_head"]


def _timeout(request: httpx.Request, name: str) -> float | None:
    timeouts = request.extensions.get("timeout")
    value = timeouts.get(name) if isinstance(timeouts, dict) else None
    return float(value) if isinstance(value, int | float) else None


def answer_response(answer: Answer) -> httpx.Response:
    """The httpx response of an answer read whole (its body still content-encoded)."""
    return httpx.Response(
        answer.status,
        headers=answer.headers,
        stream=httpx.ByteStream(answer.body),
        extensions={"http_version": answer.version, "reason_phrase": answer.reason},
    )


def request_head(request: httpx.Request, body: bytes) -> bytes:
    """The bytes of `request`'s head as this transport writes them (`body` is sent whole)."""
    lines = [b"%s %s HTTP/1.1\r\n" % (request.method.encode("ascii"), request.url.raw_path)]
    has_length = False
    for name, value in request.headers.raw:
        lower = name.lower()
        if lower == b"transfer-encoding":
            continue  # the body is sent whole, with a Content-Length
        has_length = has_length or lower == b"content-length"
        lines.append(b"%s: %s\r\n" % (name, value))
    if not has_length and (body or request.method in ("POST", "PUT", "PATCH")):
        lines.append(b"Content-Length: %d\r\n" % len(body))
    lines.append(b"\r\n")
    return b"".join(lines)


class Http11Transport(httpx.AsyncBaseTransport):
    """HTTP/1.1 keep-alive transport over `Connections`.

    Args:
        connections: The connections (their limit per origin, TLS settings, timeouts and
            size limits), or a limit of connections per origin with the defaults of the rest.
    """

    def __init__(self, connections: Connections | int) -> None:
        self.connections = (
            connections if isinstance(connections, Connections) else Connections(connections)
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send `request` on a pooled connection and return the whole response."""
        url = request.url
        if url.scheme not in ("http", "https"):
            raise httpx.UnsupportedProtocol(f"unsupported URL scheme {url.scheme!r}")
        origin = (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80))
        body = await request.aread()
        answer = await self.connections.round_trip(
            origin,
            request_head(request, body) + body,
            request.method,
            timeouts=(_timeout(request, "connect"), _timeout(request, "write"),
                      _timeout(request, "read")),
            request=request,
        )  # fmt: skip
        return answer_response(answer)

    async def aclose(self) -> None:
        """Close every idle connection; busy ones close when their exchange ends."""
        await self.connections.aclose()
