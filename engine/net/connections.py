"""HTTP/1.1 keep-alive connections on plain asyncio streams, per origin, without httpx.

The pool's own calls go through here (`engine.providers.direct`); `Http11Transport` in
`engine.net.transport` puts the same connections behind httpx's transport interface for
everything else. httpx itself (about 17 ms to import, as much as a third of what a run does
before its first call) is imported only to make a TLS context, or to report a fault, since
every fault is an `httpx.TransportError` in plain words that never quote the answer: the
errors the client path has always raised.

Scope: HTTP/1.1 (and 1.0 answers) over TCP or TLS, request bodies sent whole, response
bodies read whole (Content-Length, chunked, or until close) up to `max_body_bytes`, heads up
to `max_head_bytes`, 1xx answers skipped, idle connections reused for `keepalive_expiry_s`.
Through a plain HTTP proxy: `tunnel` names the proxy of an `https` origin, whose connections
then open with `CONNECT` before TLS (an `http` origin needs nothing here: its requests go to
the proxy's own origin in absolute form). No HTTP/2, no streaming.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.net.http11 import MAX_BODY, MAX_HEAD, Answer, ProtocolError, read_response

if TYPE_CHECKING:
    import httpx

    from engine.net.proxies import Proxy

__all__ = ["Connections", "Origin", "tls_context"]

Origin = tuple[str, str, int]
"""(scheme, host, port) of a connection."""


class _Connection:
    """One keep-alive connection."""

    __slots__ = ("idle_since", "reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.idle_since = 0.0

    def close(self) -> None:
        self.writer.close()


_NO_LIMIT = contextlib.nullcontext()


def _limit(seconds: float | None) -> contextlib.AbstractAsyncContextManager[object]:
    """`asyncio.timeout(seconds)`, or nothing at all for no limit (the pool's calls)."""
    return _NO_LIMIT if seconds is None else asyncio.timeout(seconds)


def tls_context() -> ssl.SSLContext:
    """The TLS settings of a connection, as `httpx.create_ssl_context()` makes them.

    Certificates are verified against `SSL_CERT_FILE` or `SSL_CERT_DIR` when the environment
    sets one, else against certifi's bundle (without importing httpx, which a run's first
    calls do not need).
    """
    cafile = os.environ.get("SSL_CERT_FILE")
    if cafile:
        return ssl.create_default_context(cafile=cafile)
    capath = os.environ.get("SSL_CERT_DIR")
    if capath:
        return ssl.create_default_context(capath=capath)
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def _fault(kind: str, message: str, request: httpx.Request | None) -> Exception:
    """The httpx error `kind` (`ConnectError`, `ReadTimeout`, ...), httpx imported only now."""
    import httpx

    error: type[httpx.TransportError] = getattr(httpx, kind)
    return error(message, request=request)


class Connections:
    """HTTP/1.1 keep-alive connections, at most `limit` per origin.

    Args:
        limit: Connections (and requests in flight) per origin.
        ssl_context: TLS settings (default `tls_context()`, made on first use).
        keepalive_expiry_s: Idle connections older than this are closed, not reused.
        clock: Monotonic seconds.
        max_head_bytes: The largest status line plus headers accepted.
        max_body_bytes: The largest response body accepted (before gzip is decoded).
    """

    def __init__(
        self,
        limit: int,
        *,
        ssl_context: ssl.SSLContext | None = None,
        keepalive_expiry_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        max_head_bytes: int = MAX_HEAD,
        max_body_bytes: int = MAX_BODY,
    ) -> None:
        self.limit = limit
        self.max_head_bytes = max_head_bytes
        self.max_body_bytes = max_body_bytes
        self.keepalive_expiry_s = keepalive_expiry_s
        self._ssl_context = ssl_context
        self._clock = clock
        self._idle: dict[Origin, list[_Connection]] = {}
        self._slots: dict[Origin, asyncio.Semaphore] = {}
        self._tunnels: dict[Origin, Proxy] = {}
        self._closed = False

    def tunnel(self, origin: Origin, proxy: Proxy) -> None:
        """Reach the `https` `origin` through `proxy` (a `CONNECT` tunnel) from now on."""
        self._tunnels[origin] = proxy

    def _checkout(self, origin: Origin) -> _Connection | None:
        idle = self._idle.get(origin)
        now = self._clock()
        while idle:
            conn = idle.pop()
            fresh = now - conn.idle_since < self.keepalive_expiry_s
            if fresh and not conn.reader.at_eof() and not conn.writer.is_closing():
                return conn
            conn.close()
        return None

    def _checkin(self, origin: Origin, conn: _Connection) -> None:
        idle = self._idle.setdefault(origin, [])
        if self._closed or len(idle) >= self.limit:
            conn.close()
            return
        conn.idle_since = self._clock()
        idle.append(conn)

    async def _connect(
        self, origin: Origin, timeout_s: float | None, request: httpx.Request | None
    ) -> _Connection:
        scheme, host, port = origin
        context: ssl.SSLContext | None = None
        if scheme == "https":
            if self._ssl_context is None:
                self._ssl_context = tls_context()
            context = self._ssl_context
        proxy = self._tunnels.get(origin)
        try:
            async with _limit(timeout_s):
                if proxy is None:
                    reader, writer = await asyncio.open_connection(
                        host, port, ssl=context, server_hostname=host if context else None,
                        limit=self.max_head_bytes,
                    )  # fmt: skip
                else:
                    reader, writer = await self._through(proxy, origin, context, request)
        except TimeoutError:
            raise _fault(
                "ConnectTimeout", f"connecting to {host}:{port} timed out", request
            ) from None
        except ssl.SSLCertVerificationError as exc:
            reason = exc.verify_message or "the certificate is not trusted"
            raise _fault(
                "ConnectError", f"certificate verify failed for {host}: {reason}", request
            ) from exc
        except OSError as exc:
            raise _fault("ConnectError", f"{exc.strerror or exc}", request) from None
        return _Connection(reader, writer)

    async def _through(
        self,
        proxy: Proxy,
        origin: Origin,
        context: ssl.SSLContext | None,
        request: httpx.Request | None,
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A connection to `origin` through a `CONNECT` tunnel of `proxy`, TLS started in it."""
        _, host, port = origin
        reader, writer = await asyncio.open_connection(
            proxy.host, proxy.port, limit=self.max_head_bytes
        )
        try:
            target = f"{host}:{port}"
            lines = [f"CONNECT {target} HTTP/1.1", f"Host: {target}"]
            if proxy.authorization is not None:
                lines.append(f"Proxy-Authorization: {proxy.authorization}")
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("ascii"))
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status = head.split(b"\r\n", 1)[0].decode("latin-1")
            parts = status.split(" ", 2)
            if len(parts) < 2 or not parts[1].startswith("2"):
                raise _fault(
                    "ProxyError",
                    f"the proxy {proxy.host}:{proxy.port} refused a tunnel to {target}: "
                    f"{status[:80]}",
                    request,
                )
            if context is not None:
                await writer.start_tls(context, server_hostname=host)
        except BaseException:
            writer.close()
            raise
        return reader, writer

    async def round_trip(
        self,
        origin: Origin,
        data: bytes,
        method: str,
        *,
        timeouts: tuple[float | None, float | None, float | None] = (None, None, None),
        request: httpx.Request | None = None,
    ) -> Answer:
        """Write a whole request (`data`: head and body) on a pooled connection; read the answer.

        Args:
            origin: (scheme, host, port) of the request; the scheme is `http` or `https`.
            data: The request's bytes as they go on the wire.
            method: The request's method (a `HEAD` answer has no body).
            timeouts: Seconds (None: no limit) to connect, to write and to read the answer.
            request: The request the errors are about, if there is one.

        Raises:
            httpx.TransportError: The connection or the answer failed (in plain words).
        """
        slots = self._slots.get(origin)
        if slots is None:
            slots = self._slots[origin] = asyncio.Semaphore(self.limit)
        async with slots:
            conn = self._checkout(origin) or await self._connect(origin, timeouts[0], request)
            try:
                answer = await self._exchange(conn, data, method, timeouts[1:], request)
            except BaseException:
                conn.close()
                raise
        if answer.keep_alive:
            self._checkin(origin, conn)
        else:
            conn.close()
        return answer

    async def _exchange(
        self,
        conn: _Connection,
        data: bytes,
        method: str,
        timeouts: tuple[float | None, float | None],
        request: httpx.Request | None,
    ) -> Answer:
        try:
            async with _limit(timeouts[0]):
                conn.writer.write(data)
                await conn.writer.drain()
        except TimeoutError:
            raise _fault(
                "WriteTimeout", "the server did not take the request in time", request
            ) from None
        except OSError as exc:
            raise _fault("WriteError", f"{exc.strerror or exc}", request) from None
        try:
            async with _limit(timeouts[1]):
                return await read_response(
                    conn.reader, method, max_body=self.max_body_bytes, max_head=self.max_head_bytes
                )
        except TimeoutError:
            raise _fault("ReadTimeout", "the server did not answer in time", request) from None
        except asyncio.IncompleteReadError as exc:
            what = (
                "without sending a response" if not exc.partial else "in the middle of a response"
            )
            raise _fault("RemoteProtocolError", f"Server disconnected {what}.", request) from None
        except asyncio.LimitOverrunError:
            raise _fault(
                "RemoteProtocolError",
                f"malformed answer: a head or chunk line is longer than {self.max_head_bytes} bytes",
                request,
            ) from None
        except ProtocolError as exc:
            raise _fault("RemoteProtocolError", f"malformed answer: {exc}", request) from None
        except OSError as exc:
            raise _fault("ReadError", f"{exc.strerror or exc}", request) from None

    async def aclose(self) -> None:
        """Close every idle connection; busy ones close when their exchange ends."""
        self._closed = True
        for idle in self._idle.values():
            for conn in idle:
                conn.close()
        self._idle.clear()
