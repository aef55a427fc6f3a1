"""A small forwarding HTTP proxy on loopback, for the proxy figures of `bench.run`.

It forwards absolute-form requests (`POST http://host:port/path HTTP/1.1`, as a client sends
them to an HTTP proxy) with `Content-Length` bodies, keeps both sides' connections alive,
and drops `Proxy-*` fields; nothing else (no CONNECT, no chunked bodies): enough for the
bench's fake server, the same for every client measured through it.

Run: python -m bench.proxy [--port N]   (prints "listening on http://127.0.0.1:N")
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from urllib.parse import urlsplit

_END = b"\r\n\r\n"


async def _read_message(reader: asyncio.StreamReader) -> tuple[bytes, list[bytes], bytes]:
    """One HTTP message: its first line, its header lines and its body (by Content-Length)."""
    head = await reader.readuntil(_END)
    first, *lines = head[: -len(_END)].split(b"\r\n")
    length = 0
    for line in lines:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    body = await reader.readexactly(length) if length else b""
    return first, lines, body


async def _client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    upstreams: dict[tuple[str, int], tuple[asyncio.StreamReader, asyncio.StreamWriter]] = {}
    try:
        while True:
            try:
                first, lines, body = await _read_message(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            method, target, version = first.split(b" ", 2)
            parts = urlsplit(target.decode("ascii"))
            origin = (parts.hostname or "", parts.port or 80)
            if origin not in upstreams:
                upstreams[origin] = await asyncio.open_connection(*origin)
            up_reader, up_writer = upstreams[origin]
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            kept = [line for line in lines if not line.lower().startswith(b"proxy-")]
            up_writer.write(
                b"%s %s %s\r\n%s\r\n\r\n%s"
                % (method, path.encode("ascii"), version, b"\r\n".join(kept), body)
            )
            status, answer_lines, answer = await _read_message(up_reader)
            writer.write(b"%s\r\n%s\r\n\r\n%s" % (status, b"\r\n".join(answer_lines), answer))
            await writer.drain()
    finally:
        for _, up_writer in upstreams.values():
            up_writer.close()
        writer.close()


async def _serve(port: int) -> None:
    server = await asyncio.start_server(_client, "127.0.0.1", port, backlog=512)
    print(f"listening on http://127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    """Serve until killed."""
    parser = argparse.ArgumentParser(prog="python -m bench.proxy")
    parser.add_argument("--port", type=int, default=0)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(parser.parse_args().port))


if __name__ == "__main__":
    main()
