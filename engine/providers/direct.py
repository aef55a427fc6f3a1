"""Posting a call's JSON straight to the pool's own connections: httpx's bytes, without its layers.

`httpx.AsyncClient.post` builds a `Request` (headers merged and re-parsed, the body encoded,
cookies merged), walks its auth and redirect layers, wraps the response stream, extracts
cookies through `urllib`'s request shim and logs: about 0.15 ms of CPU per call, as much as
the HTTP exchange itself (`python -m bench.run` measures the whole run). `DirectPost` writes
the same bytes: the head is built once per URL and headers, and each call only changes its
`Content-Length` and body (encoded as httpx encodes `json=`).

For a plain URL (`engine.net.urls.plain_url`) and plain header fields the head is
written here, as the pool's client (`CLIENT_HEADERS`) would write it (a test compares them
byte for byte), so a run's first calls go out before httpx is even imported: that import
costs about 17 ms, which the run spends instead while it waits for their answers. Any other
URL or header is built by the client itself (`AsyncClient.build_request`).

The direct way is taken only where it cannot differ from the client's: the client's cookie
jar is empty and httpx's request log is off. An answer comes back as an `Answer` only when it
is a 2xx with no `Content-Encoding` and no `Set-Cookie`; anything else becomes the
`httpx.Response` the client would have returned (cookies stored, body decoded), so every
failure is classified by the same code as before.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from engine.net.connections import Connections, Origin
from engine.net.headers import HEADER_NAME, HEADER_VALUE
from engine.net.http11 import Answer
from engine.net.urls import plain_url
from engine.version import __version__

if TYPE_CHECKING:
    import httpx

    from engine.net.proxies import ProxyRoutes

__all__ = ["CLIENT_HEADERS", "DirectPost", "LazyClient", "encode_json", "plain_head"]

CLIENT_HEADERS: Mapping[str, str] = {
    "Accept": "*/*",
    "Accept-Encoding": "gzip, deflate",
    "Connection": "keep-alive",
    "User-Agent": f"blueprint-studio/{__version__}",
}
"""The pool's client's own header fields (they replace httpx's defaults, which depend on its
version and on which decoders are installed, so the head written here is known without it)."""

_HTTPX_LOG = logging.getLogger("httpx")
_PLACEHOLDER = b"{}"
_LENGTH_LINE = b"\r\nContent-Length: %d\r\n" % len(_PLACEHOLDER)
_SET_BY_HTTPX = frozenset({"host", "content-length", "transfer-encoding", "cookie"})

_Template = tuple[Origin, bytes, bytes]
"""(origin, the head up to its Content-Length line, the rest of the head)."""


def encode_json(body: object) -> bytes:
    """A JSON body as `httpx.Request(json=...)` encodes it."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def plain_head(url: str, headers: Mapping[str, str]) -> tuple[Origin, bytes] | None:
    """The head of a POST of `json={}` to `url` as the pool's client writes it; None if not plain.

    The client's fields (`CLIENT_HEADERS`) come first and `headers` after them (a field given
    again in `headers` takes its place at the end, as httpx merges them), then httpx's own:
    `Host` before all, `Content-Length` and `Content-Type` after. None for a URL that is not
    plain or a field that is not a plain token with printable ASCII: the client builds those.
    """
    url_parts = plain_url(url)
    if url_parts is None:
        return None
    given = {name.lower() for name in headers}
    if given & _SET_BY_HTTPX:
        return None
    for name, value in headers.items():
        if not (HEADER_NAME.fullmatch(name) and HEADER_VALUE.fullmatch(value)):
            return None
    fields = [(n, v) for n, v in CLIENT_HEADERS.items() if n.lower() not in given]
    fields += headers.items()
    fields.append(("Content-Length", str(len(_PLACEHOLDER))))
    if "content-type" not in given:
        fields.append(("Content-Type", "application/json"))
    lines = [f"POST {url_parts.path} HTTP/1.1", f"Host: {url_parts.netloc}"]
    lines += [f"{name}: {value}" for name, value in fields]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")
    return (url_parts.scheme, url_parts.host, url_parts.port), head


class LazyClient:
    """The pool's httpx client, made (and httpx imported) the first time something needs it.

    Args:
        make: Makes the client.
    """

    def __init__(self, make: Callable[[], httpx.AsyncClient]) -> None:
        self._make = make
        self.made: httpx.AsyncClient | None = None
        """The client, once made."""

    def __call__(self) -> httpx.AsyncClient:
        """The client (made now if it was not yet)."""
        if self.made is None:
            self.made = self._make()
        return self.made


class DirectPost:
    """Posts JSON bodies on `connections`, the connections of the client's transport, as it would.

    Args:
        connections: The connections the client's transport uses (`Http11Transport`).
        client: The pool's client, made when first needed (its headers are `CLIENT_HEADERS`;
            its cookies and timeouts are the reference).
        proxies: The environment's proxies, if it names any: a URL they apply to is left
            to the client, which sends it through the proxy.
    """

    def __init__(
        self,
        connections: Connections,
        client: LazyClient,
        *,
        proxies: ProxyRoutes | None = None,
    ) -> None:
        self._connections = connections
        self._client = client
        self._proxies = proxies
        self._templates: dict[tuple[str, tuple[tuple[str, str], ...]], _Template | None] = {}

    def usable(self) -> bool:
        """Whether a request sent now would be the client's, byte for byte (no cookies, no log)."""
        client = self._client.made
        return (client is None or not client.cookies.jar) and not _HTTPX_LOG.isEnabledFor(
            logging.INFO
        )

    def _template(self, url: str, headers: dict[str, str]) -> _Template | None:
        key = (url, tuple(headers.items()))
        if key in self._templates:
            return self._templates[key]
        if self._proxies is not None and self._proxies.proxied(url):
            through = self._proxied_template(url, headers)
            self._templates[key] = through
            return through
        plain = plain_head(url, headers)
        origin, head = plain if plain is not None else self._client_head(url, headers)
        template: _Template | None = None
        if origin is not None and head.count(_LENGTH_LINE) == 1:
            start, _, rest = head.partition(_LENGTH_LINE)
            template = (origin, start + b"\r\n", rest)
        self._templates[key] = template
        return template

    def _proxied_template(self, url: str, headers: dict[str, str]) -> _Template | None:
        """The template of a request through a plain HTTP proxy (None: the client sends it).

        An `http://` URL goes to the proxy's origin in absolute form (`POST http://host/path`),
        with `Proxy-Authorization` when the proxy has a user; an `https://` URL keeps its own
        origin, reached through a `CONNECT` tunnel of the proxy (`Connections.tunnel`).
        """
        assert self._proxies is not None
        proxy = self._proxies.forward(url)
        plain = plain_head(url, headers) if proxy is not None else None
        if proxy is None or plain is None:
            return None
        origin, head = plain
        start, _, rest = head.partition(_LENGTH_LINE)
        if origin[0] == "https":
            self._connections.tunnel(origin, proxy)
            return origin, start + b"\r\n", rest
        line, _, fields = start.partition(b"\r\n")
        method, target, version = line.split(b" ")
        host = fields.partition(b"\r\n")[0].partition(b": ")[2]
        line = b"%s http://%s%s %s" % (method, host, target, version)
        if proxy.authorization is not None:
            line += b"\r\nProxy-Authorization: " + proxy.authorization.encode("ascii")
        return ("http", proxy.host, proxy.port), line + b"\r\n" + fields + b"\r\n", rest

    def _client_head(self, url: str, headers: dict[str, str]) -> tuple[Origin | None, bytes]:
        """The head the client itself builds for `json={}` (its origin: None if not HTTP(S))."""
        import httpx

        from engine.net.transport import request_head

        request = self._client().build_request("POST", httpx.URL(url), headers=headers, json={})
        parsed = request.url
        if parsed.scheme not in ("http", "https") or request.content != _PLACEHOLDER:
            return None, b""
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
        return (parsed.scheme, parsed.host, port), request_head(request, request.content)

    async def post(
        self, url: str, headers: dict[str, str], body: object, timeout_s: float
    ) -> Answer | httpx.Response:
        """Post `body` as JSON to `url`; return a plain 2xx answer, or the client's response.

        The caller bounds the whole exchange by `timeout_s` (the client's own connect, write
        and read timeouts, all `timeout_s` too, could never end it sooner).

        Raises:
            httpx.HTTPError: As `client.post` raises it (the transport's errors, a bad body).
            ValueError: The body cannot be encoded as JSON.
        """
        template = self._template(url, headers)
        if template is None:
            import httpx

            return await self._client().post(
                httpx.URL(url), headers=headers, json=body, timeout=timeout_s
            )
        origin, start, rest = template
        data = encode_json(body)
        wire = b"%sContent-Length: %d\r\n%s%s" % (start, len(data), rest, data)
        answer = await self._connections.round_trip(origin, wire, "POST")
        if 200 <= answer.status < 300:
            for name, _ in answer.headers:
                lower = name.lower()
                if lower == b"content-encoding" or lower == b"set-cookie":
                    break
            else:
                return answer
        return await self.response(answer, url, headers, body, timeout_s)

    async def response(
        self,
        answer: Answer,
        url: str,
        headers: dict[str, str],
        body: object,
        timeout_s: float,
    ) -> httpx.Response:
        """The response `client.post` would have returned for `answer`: cookies kept, body read.

        Raises:
            httpx.DecodingError: The body does not decode as its `Content-Encoding` says.
        """
        import httpx

        from engine.net.transport import answer_response

        client = self._client()
        response = answer_response(answer)
        response.request = client.build_request(
            "POST", httpx.URL(url), headers=headers, json=body, timeout=timeout_s
        )
        client.cookies.extract_cookies(response)
        await response.aread()
        return response
