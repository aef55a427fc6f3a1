"""Posting a call's JSON straight to the pool's own transport: httpx's bytes, without its layers.

`httpx.AsyncClient.post` builds a `Request` (headers merged and re-parsed, the body encoded,
cookies merged), walks its auth and redirect layers, wraps the response stream, extracts
cookies through `urllib`'s request shim and logs: about 0.15 ms of CPU per call, as much as
the HTTP exchange itself (`python -m bench.run` measures the whole run). `DirectPost` writes
the same bytes: the head is built once per URL and headers by the client itself
(`AsyncClient.build_request`, then `request_head`), and each call only changes its
`Content-Length` and body (encoded as httpx encodes `json=`).

The direct way is taken only where it cannot differ from the client's: the client's cookie
jar is empty and httpx's request log is off. An answer comes back as an `Answer` only when it
is a 2xx with no `Content-Encoding` and no `Set-Cookie`; anything else becomes the
`httpx.Response` the client would have returned (cookies stored, body decoded), so every
failure is classified by the same code as before.
"""

from __future__ import annotations

import json
import logging

import httpx

from engine.providers.http11 import Answer
from engine.providers.transport import Http11Transport, Origin, answer_response, request_head

__all__ = ["DirectPost", "encode_json"]

_HTTPX_LOG = logging.getLogger("httpx")
_PLACEHOLDER = b"{}"
_LENGTH_LINE = b"\r\nContent-Length: %d\r\n" % len(_PLACEHOLDER)

_Template = tuple[Origin, bytes, bytes]
"""(origin, the head up to its Content-Length line, the rest of the head)."""


def encode_json(body: object) -> bytes:
    """A JSON body as `httpx.Request(json=...)` encodes it."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


class DirectPost:
    """Posts JSON bodies through `transport`, the transport of `client`, as `client` would.

    Args:
        client: The pool's client (its headers, cookies and timeouts are the reference).
        transport: The client's transport.
    """

    def __init__(self, client: httpx.AsyncClient, transport: Http11Transport) -> None:
        self._client = client
        self._transport = transport
        self._templates: dict[tuple[str, tuple[tuple[str, str], ...]], _Template | None] = {}

    def usable(self) -> bool:
        """Whether a request sent now would be the client's, byte for byte (no cookies, no log)."""
        return not self._client.cookies.jar and not _HTTPX_LOG.isEnabledFor(logging.INFO)

    def _template(self, url: str, headers: dict[str, str]) -> _Template | None:
        key = (url, tuple(headers.items()))
        if key in self._templates:
            return self._templates[key]
        request = self._client.build_request("POST", httpx.URL(url), headers=headers, json={})
        head = request_head(request, request.content)
        template: _Template | None = None
        parsed = request.url
        plain = parsed.scheme in ("http", "https") and request.content == _PLACEHOLDER
        if plain and head.count(_LENGTH_LINE) == 1:
            start, _, rest = head.partition(_LENGTH_LINE)
            port = parsed.port or (443 if parsed.scheme == "https" else 80)
            origin = (parsed.scheme, parsed.host, port)
            template = (origin, start + b"\r\n", rest)
        self._templates[key] = template
        return template

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
            return await self._client.post(
                httpx.URL(url), headers=headers, json=body, timeout=timeout_s
            )
        origin, start, rest = template
        data = encode_json(body)
        wire = b"%sContent-Length: %d\r\n%s%s" % (start, len(data), rest, data)
        answer = await self._transport.round_trip(origin, wire, "POST")
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
        response = answer_response(answer)
        response.request = self._client.build_request(
            "POST", httpx.URL(url), headers=headers, json=body, timeout=timeout_s
        )
        self._client.cookies.extract_cookies(response)
        await response.aread()
        return response
