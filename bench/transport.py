"""Transport speed: the pool's HTTP/1.1 transport against httpx's own, same process, same server.

Starts the fake OpenAI-compatible server as a separate process and sends 900 calls at
concurrency 32 (50 ms latency) through a `ProviderPool`, alternating the transports for
`--repeat` rounds, then 3,000 calls at 0 ms latency (CPU per call). Prints the median wall time
of each, its ratio to the ideal (calls x latency / concurrency) and calls per second.
Run: python -m bench.transport [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable

import httpx

from engine.net.transport import Http11Transport
from engine.providers import ChatRequest, ProviderPool
from tests.fakes.benchmark import server_process

CONCURRENCY = 32
Factory = Callable[[], httpx.AsyncBaseTransport | None]
TRANSPORTS: dict[str, Factory] = {
    "Http11Transport": lambda: Http11Transport(CONCURRENCY),
    "httpx's own": lambda: None,  # what BLUEPRINT_HTTP_TRANSPORT=httpx selects
}


async def pool_run(url: str, calls: int, transport: httpx.AsyncBaseTransport | None) -> float:
    """Send `calls` chat calls through a pool with `transport` (None: httpx's); return seconds."""
    env = {"OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "bench-key"}
    if transport is None:
        env["BLUEPRINT_HTTP_TRANSPORT"] = "httpx"
    requests = [
        ChatRequest(model_id="openai:m", messages=[{"role": "user", "content": f"q{i}"}])
        for i in range(calls)
    ]
    async with ProviderPool(environ=env, global_limit=CONCURRENCY, transport=transport) as pool:
        start = time.perf_counter()
        await asyncio.gather(*(pool.chat(r) for r in requests))
        return time.perf_counter() - start


def measure(latency_ms: int, calls: int, repeat: int) -> dict[str, float]:
    """Median seconds per transport, rounds alternating between them."""
    times: dict[str, list[float]] = {name: [] for name in TRANSPORTS}
    with server_process("--latency-ms", str(latency_ms)) as url:
        asyncio.run(pool_run(url, CONCURRENCY, Http11Transport(CONCURRENCY)))  # warm-up
        for _ in range(repeat):
            for name, factory in TRANSPORTS.items():
                times[name].append(asyncio.run(pool_run(url, calls, factory())))
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    """Print each transport's median time, ratio to the ideal and calls per second."""
    parser = argparse.ArgumentParser(prog="python -m bench.transport")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    calls, ideal = 900, 900 * 0.050 / CONCURRENCY
    for name, seconds in measure(50, calls, args.repeat).items():
        print(
            f"{name:16} {calls} calls, 50 ms: {seconds:.3f} s, ratio {seconds / ideal:.2f} x ideal"
        )
    calls = 3000
    for name, seconds in measure(0, calls, args.repeat).items():
        print(f"{name:16} {calls} calls, 0 ms: {seconds:.3f} s, {calls / seconds:,.0f} calls/s")


if __name__ == "__main__":
    main()
