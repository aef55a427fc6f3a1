"""Benchmarks of the fake LLM server and of `ProviderPool` against it.

    python -m tests.fakes.benchmark --calls 900 --concurrency 32 --latency-ms 50

starts the fake server as a subprocess (as the studio's benchmarks do), then measures
(1) the server's raw throughput with a minimal keep-alive client and (2) `ProviderPool`
wall time for the calls, against the ideal `calls / concurrency × latency`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from engine.providers import ChatRequest, ProviderPool

REPO = Path(__file__).resolve().parents[2]
_BODY = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hello"}]}).encode()


@contextmanager
def server_process(*args: str, module: str = "tests.fakes.llm_server") -> Iterator[str]:
    """Run `python -m MODULE --port 0 ARGS...` (the fake LLM server); yield its URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", module, "--port", "0", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("listening on "):
            raise RuntimeError(f"the fake server said {line!r}")
        yield line.split()[-1]
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


def _countdown(n: int) -> Callable[[], bool]:
    """A function that says yes `n` times, then no (shared by connections, one count for all)."""
    left = [n]

    def more() -> bool:
        left[0] -= 1
        return left[0] >= 0

    return more


async def _connection(host: str, port: int, more: Callable[[], bool]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    head = (
        "POST /v1/chat/completions HTTP/1.1\r\nHost: fake\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(_BODY)}\r\n\r\n"
    ).encode()
    try:
        while more():
            writer.write(head + _BODY)
            answer = await reader.readuntil(b"\r\n\r\n")
            length = next(
                int(line.split(b":")[1])
                for line in answer.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            await reader.readexactly(length)
    finally:
        writer.close()


async def _drive(url: str, counts: list[Callable[[], bool]]) -> float:
    """One keep-alive connection per count, each sending while its count says yes; seconds."""
    parsed = httpx.URL(url)
    start = time.perf_counter()
    await asyncio.gather(*(_connection(parsed.host, parsed.port or 80, more) for more in counts))
    return time.perf_counter() - start


async def hammer(url: str, connections: int, per_connection: int) -> float:
    """Send `connections × per_connection` requests on keep-alive connections; return seconds."""
    return await _drive(url, [_countdown(per_connection) for _ in range(connections)])


async def floor(url: str, calls: int, connections: int) -> float:
    """Seconds for `calls` requests over `connections` keep-alive connections.

    The connections share one count, as a run's calls share its concurrency, and the client
    does nothing else: the time the server itself allows for these calls (its latency plus
    its own handling, which `calls x latency / connections` leaves out).
    """
    return await _drive(url, [_countdown(calls)] * connections)


async def pool_run(url: str, calls: int, concurrency: int) -> float:
    """Send `calls` chat calls through a `ProviderPool`; return seconds."""
    env = {"OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "fake-key"}
    requests = [
        ChatRequest(model_id="openai:gpt-4.1-mini", messages=[{"role": "user", "content": f"q{i}"}])
        for i in range(calls)
    ]
    async with ProviderPool(environ=env, global_limit=concurrency) as pool:
        start = time.perf_counter()
        await asyncio.gather(*(pool.chat(r) for r in requests))
        return time.perf_counter() - start


def main() -> None:
    """Print the server's throughput and the pool's wall time against the ideal."""
    parser = argparse.ArgumentParser(prog="python -m tests.fakes.benchmark")
    parser.add_argument("--calls", type=int, default=900)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with server_process() as url:
        seconds = asyncio.run(hammer(url, 32, 200))
        print(f"fake server, no latency, 32 connections: {6400 / seconds:,.0f} requests/s")
    with server_process("--latency-ms", str(args.latency_ms)) as url:
        seconds = asyncio.run(hammer(url, 64, 10))
        print(
            f"fake server, {args.latency_ms:g} ms, 64 connections: {640 / seconds:,.0f} requests/s"
        )
        ideal = args.calls / args.concurrency * args.latency_ms / 1000
        for _ in range(args.repeat):
            seconds = asyncio.run(pool_run(url, args.calls, args.concurrency))
            print(
                f"ProviderPool, {args.calls} calls at concurrency {args.concurrency}: "
                f"{seconds:.3f} s, {args.calls / seconds:,.0f} calls/s"
                + (f" (ideal {ideal:.3f} s, {seconds / ideal:.2f} x)" if ideal else "")
            )


if __name__ == "__main__":
    main()
