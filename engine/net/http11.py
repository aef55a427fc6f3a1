"""Reading one HTTP/1.1 response from a stream, with h11's grammar and explicit size limits.

The transport parses answers itself because it is the hot path of every call: this costs about
a tenth of the CPU of the `h11` state machine (see `python -m bench.transport`). The grammar is
h11's (RFC 9112): `tests/providers/test_transport_conformance.py` feeds the same bytes to this
reader and to h11 and checks that they agree. Deliberate differences, all stricter: only
`HTTP/1.0` and `HTTP/1.1` status lines; line ends are CRLF (h11 also takes a bare LF; here
such a head is never complete and the read times out); a `101` answer is refused (nothing here
asks to switch protocols, and h11 refuses it too, as an error of its state).

Errors are `ProtocolError` (the answer breaks the grammar or a limit) or
`asyncio.IncompleteReadError` (the server closed too early); messages never quote the input.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

__all__ = ["MAX_BODY", "MAX_HEAD", "Answer", "ProtocolError", "read_response"]

MAX_HEAD = 1 << 16
"""The default for the largest status line plus headers (and the largest trailer block)."""
MAX_BODY = 64 << 20
"""The default for the largest response body."""

_STATUS = re.compile(rb"HTTP/1\.([01]) ([0-9]{3})(?: ((?:[ \t]|[^\x00\s])*))?")
_FIELD = rb"[-!#$%&'*+.^_`|~0-9a-zA-Z]+:[ \t]*(?:[^\x00\s]+(?:[ \t]+[^\x00\s]+)*)?[ \t]*"
_FIELDS = re.compile(rb"(?:%s\r\n)*" % _FIELD)
_LENGTH = re.compile(rb"[0-9]{1,20}")
_CHUNK = re.compile(rb"([0-9A-Fa-f]{1,20})(?:;[^\r\n]*)?[ \t]*")


class ProtocolError(ValueError):
    """The answer breaks HTTP/1.1's grammar or one of the reader's limits."""


@dataclass(slots=True)
class Answer:
    """One final (non-1xx) response, read whole.

    Attributes:
        status: The status code.
        version: `b"HTTP/1.0"` or `b"HTTP/1.1"`.
        reason: The reason phrase (may be empty).
        headers: The header fields in order, names as sent.
        body: The body, de-chunked (still content-encoded, e.g. gzip).
        keep_alive: Whether the connection can carry the next request.
    """

    status: int
    version: bytes
    reason: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes
    keep_alive: bool


def _fields(block: bytes) -> list[tuple[bytes, bytes]]:
    """Parse header (or trailer) lines, each ending in CRLF, checked by one pattern.

    Obsolete line folding (a line starting with a space or tab) joins a line to the one before.
    """
    if b"\r\n " in block or b"\r\n\t" in block or block[:1] in (b" ", b"\t"):
        if block[:1] in (b" ", b"\t"):
            raise ProtocolError("a folded header line comes first")
        block = re.sub(rb"\r\n[ \t]+", b" ", block)
    if _FIELDS.fullmatch(block) is None:
        raise ProtocolError("malformed header line")
    fields = []
    for line in block[:-2].split(b"\r\n") if block else ():
        name, _, value = line.partition(b":")
        fields.append((name, value.strip(b" \t")))
    return fields


def _tokens(value: bytes) -> set[bytes]:
    return {token.strip(b" \t").lower() for token in value.split(b",")}


def _framing(fields: list[tuple[bytes, bytes]]) -> tuple[int | None, bool, bool]:
    """Return (content length or None, chunked, `Connection: close`) from the headers."""
    length: bytes | None = None
    chunked = close = False
    seen_encoding = False
    for name, value in fields:
        lower = name.lower()
        if lower == b"content-length":
            lengths = {part.strip(b" \t") for part in value.split(b",")}
            if len(lengths) != 1:
                raise ProtocolError("conflicting Content-Length headers")
            value = lengths.pop()
            if _LENGTH.fullmatch(value) is None:
                raise ProtocolError("bad Content-Length")
            if length is not None and length != value:
                raise ProtocolError("conflicting Content-Length headers")
            length = value
        elif lower == b"transfer-encoding":
            if seen_encoding:
                raise ProtocolError("more than one Transfer-Encoding header")
            if value.lower() != b"chunked":
                raise ProtocolError("unsupported Transfer-Encoding (only chunked is)")
            seen_encoding = chunked = True
        elif lower == b"connection":
            close = close or b"close" in _tokens(value)
    return (int(length) if length is not None else None), chunked, close


async def _read_chunked(reader: asyncio.StreamReader, max_body: int, max_head: int) -> bytes:
    parts: list[bytes] = []
    total = 0
    while True:
        line = await reader.readuntil(b"\r\n")
        match = _CHUNK.fullmatch(line[:-2])
        if match is None:
            raise ProtocolError("malformed chunk size")
        size = int(match[1], 16)
        if size == 0:
            break
        total += size
        if total > max_body:
            raise ProtocolError(f"the answer is larger than {max_body} bytes")
        parts.append(await reader.readexactly(size))
        if await reader.readexactly(2) != b"\r\n":
            raise ProtocolError("a chunk does not end where its size says")
    trailers: list[bytes] = []
    size = 0
    while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
        size += len(line)
        if size > max_head:
            raise ProtocolError("the trailers are too large")
        trailers.append(line)
    _framing(_fields(b"".join(trailers)))  # checked as h11 checks them, then dropped
    return b"".join(parts)


async def _read_to_end(reader: asyncio.StreamReader, max_body: int) -> bytes:
    parts: list[bytes] = []
    total = 0
    while chunk := await reader.read(1 << 16):
        total += len(chunk)
        if total > max_body:
            raise ProtocolError(f"the answer is larger than {max_body} bytes")
        parts.append(chunk)
    return b"".join(parts)


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, bytes, bytes, bytes]:
    """Read heads until a final one; return (status, minor version, reason, header block)."""
    while True:
        head = await reader.readuntil(b"\r\n\r\n")
        first, _, block = head[:-2].partition(b"\r\n")
        status_line = _STATUS.fullmatch(first)
        if status_line is None:
            raise ProtocolError("not an HTTP/1.x answer (malformed status line)")
        status = int(status_line[2])
        if status == 101:
            raise ProtocolError("the server switched protocols, which was not asked for")
        if status < 100:
            raise ProtocolError("malformed status line (the status is below 100)")
        if status >= 200:
            return status, status_line[1], status_line[3] or b"", block
        _framing(_fields(block))  # a 1xx answer: checked, then skipped


async def read_response(
    reader: asyncio.StreamReader,
    method: str,
    *,
    max_body: int = MAX_BODY,
    max_head: int = MAX_HEAD,
) -> Answer:
    """Read one response to a `method` request from `reader`.

    Args:
        reader: The connection; its `limit` should be `max_head` (it bounds each head).
        method: The request's method (a `HEAD` answer has no body).
        max_body: The largest body accepted.
        max_head: The largest trailer block accepted.

    Raises:
        ProtocolError: The answer breaks the grammar or a limit.
        asyncio.IncompleteReadError: The server closed the connection too early.
        asyncio.LimitOverrunError: The head (or a chunk line, or the trailers) is too large.
    """
    status, minor, reason, block = await _read_head(reader)
    headers = _fields(block)
    length, chunked, close = _framing(headers)
    keep_alive = minor == b"1" and not close
    if method == "HEAD" or status in (204, 304):
        body = b""
    elif chunked:
        body = await _read_chunked(reader, max_body, max_head)
    elif length is not None:
        if length > max_body:
            raise ProtocolError(f"the answer is larger than {max_body} bytes")
        body = await reader.readexactly(length)
    else:
        body = await _read_to_end(reader, max_body)
        keep_alive = False
    return Answer(status, b"HTTP/1." + minor, reason, headers, body, keep_alive)
