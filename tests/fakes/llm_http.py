"""Just enough HTTP/1.1 for the fake LLM server: read a request, write a response."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

__all__ = ["Answer", "RawRequest", "json_answer", "read_request", "write_response"]

Answer = tuple[int, bytes, dict[str, str]]
"""(status, body, extra headers)."""


@dataclass(frozen=True)
class RawRequest:
    """A request line, lower-cased headers and the body."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    keep_alive: bool


async def read_request(reader: asyncio.StreamReader) -> RawRequest:
    """Read one request (Content-Length bodies only).

    Raises:
        asyncio.IncompleteReadError: The client closed the connection.
        ValueError: The request is malformed.
    """
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, version = lines[0].split(" ", 2)
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length") or 0)
    body = await reader.readexactly(length) if length else b""
    keep_alive = version == "HTTP/1.1" and headers.get("connection", "").lower() != "close"
    return RawRequest(method, target.split("?")[0], headers, body, keep_alive)


def write_response(writer: asyncio.StreamWriter, answer: Answer, *, keep_alive: bool) -> None:
    """Write a JSON response with a Content-Length."""
    status, body, extra = answer
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Connection: keep-alive" if keep_alive else "Connection: close",
    ]
    lines += [f"{k}: {v}" for k, v in extra.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


def json_answer(status: int, data: Any, extra: dict[str, str] | None = None) -> Answer:
    """An answer with a JSON body."""
    return status, json.dumps(data).encode(), extra or {}
