"""Run speed, the way a user meets it: `blueprint run` as a whole process against a fake LLM.

Starts the fake OpenAI-compatible server as a separate process, then runs generated
blueprints (one single-turn prompt per line, function points only) through
`python -m engine run FILE --no-judge --concurrency N --out DIR` and times the process.
Prints, each beside the ideal (calls x latency / concurrency):
- cold: 900 calls, 50 ms latency, concurrency 32 (target <= 1.25x the ideal;
  promptfoo needed 4.8x and Inspect 7.6x), and beside it the same calls from a bare keep-alive
  client in this process: the server's own floor (its handling adds to the latency, and 900
  calls over 32 connections take 29 waves, not 28.1), so what is above it is the run's own;
- warm: the same run again, everything cached (target <= 0.4 s and 0 calls);
- proxy: the cold run with HTTP(S)_PROXY and ALL_PROXY set and the host in NO_PROXY (target
  <= 1.15x the run without them), and through a forwarding proxy on loopback (`bench.proxy`;
  target: no slower than a plain httpx client sending the same calls through it);
- throughput: 5,000 calls at 0 ms latency, concurrency 64 (target >= 2,500 calls/s; the fake
  server shares the machine's cores);
- peak memory of a 10,000-call run (target <= 300 MB).
The machine may be shared: compare ratios, and run before/after in the same session.
Run: python -m bench.run [--repeat N] [--only cold|warm|proxy|throughput|memory|gc]
(N runs of each, the best kept)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.fakes.benchmark import floor, server_process

REPO = Path(__file__).resolve().parent.parent
LATENCY_MS = 50
CONCURRENCY = 32
_DONE = re.compile(r"^(\w+): (\d+)/(\d+) cells, (\d+) calls \((\d+) cached, (\d+) failed\)", re.M)


def blueprint(prompts: int, models: list[str]) -> str:
    """A blueprint with one single-turn prompt per line and two function points each."""
    lines = ["title: Run benchmark", f"models: [{', '.join(models)}]", "---"]
    for i in range(prompts):
        lines += [
            f"- id: p{i:05d}",
            f"  prompt: Question {i}?",
            "  should:",
            "    - $contains: Question",
            "    - $word_count_between: [1, 200]",
        ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Timing:
    """One `blueprint run` process: its status, calls, wall time and CPU seconds."""

    status: str
    calls: int
    cached: int
    wall: float
    cpu: float


# The whole command as a user types it; the child measures its own wall time and peak memory
# so the figures exclude nothing the user waits for (interpreter start-up included).
_CHILD = """
import resource, sys, time
start = time.perf_counter()
sys.argv = ["blueprint", *sys.argv[1:]]
from engine.cli import main
try:
    main()
except SystemExit:
    pass
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"BENCH {wall:.3f} {peak:.1f}", file=sys.stderr)
"""


def run_process(folder: Path, text: str, env: dict[str, str], concurrency: int) -> Timing:
    """Run `blueprint run` once in a fresh process; return what it reported and its wall time."""
    path = folder / "bench.yml"
    path.write_text(text)
    args = [str(path), "--no-judge", "--concurrency", str(concurrency), "--out", str(folder)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "engine", "run", *args],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    found = _DONE.search(out.stdout)
    if found is None:
        raise RuntimeError(f"blueprint run said: {out.stdout[-500:]} {out.stderr[-500:]}")
    status, _, _, calls, cached, _ = found.groups()
    return Timing(status, int(calls), int(cached), wall, cpu)


def best(times: int, fn: Callable[[], Timing]) -> Timing:
    """The fastest of `times` runs of `fn()` (a loaded machine only ever adds time)."""
    results = [fn() for _ in range(times)]
    return min(results, key=lambda t: t.wall)


_PYCACHE = tempfile.mkdtemp(prefix="bench-pycache-")


def bytecode_env(env: Mapping[str, str]) -> dict[str, str]:
    """`env` for a timed child process that runs from bytecode, as an installed package does.

    The children write and reuse their bytecode outside the tree even where
    PYTHONDONTWRITEBYTECODE is set (as on these machines), or every process compiles anew.
    """
    out = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out["PYTHONPYCACHEPREFIX"] = _PYCACHE
    return out


def _env(folder: Path, url: str) -> dict[str, str]:
    return {
        **bytecode_env(os.environ),
        "BLUEPRINT_HOME": str(folder / "home"),
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_KEY": "bench-key",
    }


def compile_once() -> None:
    """Run a tiny `blueprint run` once, untimed, so later processes start from bytecode."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "warmup.yml"
        path.write_text("- id: p\n  prompt: hi\n  ideal: hi\n  should:\n    - $contains: hi\n")
        args = [str(path), "--models", "ideal", "--no-judge", "--out", tmp]
        env = _env(Path(tmp), "http://127.0.0.1:9")
        subprocess.run([sys.executable, "-m", "engine", "run", *args], env=env, cwd=REPO,
                       capture_output=True, check=True)  # fmt: skip


def startup(env: dict[str, str]) -> float:
    """Seconds of `blueprint --help` (interpreter and CLI start-up, no work)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "engine", "--help"], env=env, cwd=REPO, check=True,
                   capture_output=True)  # fmt: skip
    return time.perf_counter() - started


def cold_and_warm(repeat: int, cold_runs: bool = True) -> bool:
    """900 calls at 50 ms, concurrency 32: cold (fresh store each time), then warm.

    With `cold_runs=False` only the warm line is printed (the store is filled by one run).
    """
    ok = True
    calls = 900
    ideal = calls * LATENCY_MS / 1000 / CONCURRENCY
    models = ["openai:fake-a", "openai:fake-b", "openai:fake-c"]
    text = blueprint(300, models)
    with server_process("--latency-ms", str(LATENCY_MS)) as url:
        colds, floors = [], []
        for _ in range(repeat if cold_runs else 0):
            with tempfile.TemporaryDirectory() as tmp:
                colds.append(run_process(Path(tmp), text, _env(Path(tmp), url), CONCURRENCY))
            floors.append(asyncio.run(floor(url, calls, CONCURRENCY)))
        with tempfile.TemporaryDirectory() as tmp:
            env = _env(Path(tmp), url)
            run_process(Path(tmp), text, env, CONCURRENCY)
            warm = best(repeat, lambda: run_process(Path(tmp), text, env, CONCURRENCY))
            start = startup(env)
    if colds:
        cold = min(colds, key=lambda t: t.wall)
        ratio = cold.wall / ideal
        good = cold.status == "completed" and cold.calls == calls and ratio <= 1.25
        ok &= good
        print(
            f"cold: {calls} calls, {LATENCY_MS} ms latency, concurrency {CONCURRENCY}: "
            f"{cold.wall:.2f} s whole process, {cold.cpu:.2f} CPU s (ideal {ideal:.2f} s, "
            f"ratio {ratio:.2f}, target <= 1.25) {'OK' if good else 'MISSED'}"
        )
        best_floor = min(floors)
        print(
            f"  the same calls from a bare keep-alive client (no process start, no work per "
            f"call): {best_floor:.2f} s, ratio {best_floor / ideal:.2f} (the server's own "
            f"floor); the run's process above it: {cold.wall - best_floor:.2f} s"
        )
    made = warm.calls - warm.cached
    good = warm.status == "completed" and made == 0 and warm.wall <= 0.4
    ok &= good
    print(
        f"warm: {warm.wall:.2f} s whole process, {warm.cpu:.2f} CPU s, {made} calls made, "
        f"{warm.cached} cached "
        f"(target <= 0.4 s and 0 calls) {'OK' if good else 'MISSED'}; "
        f"`blueprint --help` alone {start:.2f} s"
    )
    return ok


# A plain httpx client through the same proxy: the same calls at the same concurrency, timed
# as a whole process too (interpreter start and httpx's import included, as for the run).
_HTTPX_CHILD = """
import asyncio, sys, time
start = time.perf_counter()
import httpx
url, proxy, calls, concurrency = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
async def main():
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(proxy=proxy, limits=limits, timeout=60) as client:
        gate = asyncio.Semaphore(concurrency)
        async def one(i):
            body = {"model": "fake-a", "messages": [{"role": "user", "content": f"Q {i}?"}]}
            async with gate:
                answer = await client.post(url + "/v1/chat/completions", json=body,
                                           headers={"Authorization": "Bearer bench-key"})
                answer.raise_for_status()
                answer.json()["choices"][0]["message"]["content"]
        await asyncio.gather(*(one(i) for i in range(calls)))
asyncio.run(main())
print(f"{time.perf_counter() - start:.3f}")
"""


def _httpx_through(url: str, proxy: str, calls: int) -> float:
    out = subprocess.run(
        [sys.executable, "-c", _HTTPX_CHILD, url, proxy, str(calls), str(CONCURRENCY)],
        env=bytecode_env(os.environ), capture_output=True, text=True, check=True,
    )  # fmt: skip
    return float(out.stdout.split()[-1])


def proxies(repeat: int) -> bool:
    """The cold run with proxy variables set: the host in NO_PROXY, then through a real proxy.

    Runs are interleaved (plain, with the variables, through the proxy, httpx through the
    proxy), `repeat` rounds, the best of each kept.
    """
    calls = 900
    text = blueprint(300, ["openai:fake-a", "openai:fake-b", "openai:fake-c"])
    unset = {"http_proxy", "https_proxy", "all_proxy", "no_proxy"}
    plain, bypass, through, httpx_times = [], [], [], []
    with (
        server_process("--latency-ms", str(LATENCY_MS)) as url,
        server_process(module="bench.proxy") as proxy,
    ):
        dead = "http://127.0.0.1:9"  # a proxy that is never there: using it would fail the run
        variables = {"HTTP_PROXY": dead, "HTTPS_PROXY": dead, "ALL_PROXY": dead}
        for _ in range(repeat):
            for times, extra in (
                (plain, {}),
                (bypass, {**variables, "NO_PROXY": "localhost,127.0.0.1"}),
                (through, {"HTTP_PROXY": proxy}),
            ):
                with tempfile.TemporaryDirectory() as tmp:
                    env = {**_env(Path(tmp), url), **extra}
                    env = {k: v for k, v in env.items() if k.lower() not in unset or k in extra}
                    times.append(run_process(Path(tmp), text, env, CONCURRENCY))
            httpx_times.append(_httpx_through(url, proxy, calls))
    ok = True
    best_plain = min(t.wall for t in plain)
    best_bypass = min(bypass, key=lambda t: t.wall)
    ratio = best_bypass.wall / best_plain
    good = best_bypass.status == "completed" and best_bypass.calls == calls and ratio <= 1.15
    ok &= good
    print(
        f"proxy variables set, the host in NO_PROXY: {best_bypass.wall:.2f} s against "
        f"{best_plain:.2f} s without them, ratio {ratio:.2f} (target <= 1.15) "
        f"{'OK' if good else 'MISSED'}"
    )
    best_through = min(through, key=lambda t: t.wall)
    best_httpx = min(httpx_times)
    ratio = best_through.wall / best_httpx
    good = best_through.status == "completed" and best_through.calls == calls and ratio <= 1.0
    ok &= good
    print(
        f"through a forwarding proxy on loopback: the run {best_through.wall:.2f} s, a plain "
        f"httpx client (same calls, same concurrency, whole process) {best_httpx:.2f} s, "
        f"ratio {ratio:.2f} (target <= 1.00) {'OK' if good else 'MISSED'}"
    )
    return ok


def throughput(repeat: int) -> bool:
    """5,000 calls at 0 ms latency, concurrency 64: calls per second of the whole process."""
    calls = 5000
    models = [f"openai:fake-{i}" for i in range(5)]
    text = blueprint(1000, models)
    with server_process("--latency-ms", "0") as url:
        runs = []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                runs.append(run_process(Path(tmp), text, _env(Path(tmp), url), 64))
    t = min(runs, key=lambda r: r.wall)
    rate = t.calls / t.wall
    good = t.status == "completed" and t.calls == calls and rate >= 2500
    print(
        f"throughput: {calls} calls at 0 ms, concurrency 64: {t.wall:.2f} s whole process, "
        f"{t.cpu:.2f} CPU s, {rate:,.0f} calls/s (target >= 2,500) {'OK' if good else 'MISSED'}"
    )
    return good


# One run in a fresh process, after the imports, with the collector as it is or frozen first
# (`gc.freeze()`, as `blueprint run` does: what exists before the run is never garbage).
# Prints the run's CPU seconds and the seconds spent in collections (measured by gc.callbacks).
_GC_CHILD = """
import gc, sys, time
from pathlib import Path
from engine.run import RunOptions, prepare_run
from engine.run.service import run_sync
from engine.store import open_store
text = open(sys.argv[1]).read()
store = open_store()
prepared = prepare_run(store, text, source="bench.yml",
                       options=RunOptions(judge=False, concurrency=64, out_dir=Path(sys.argv[3])))
paused, started = [0.0], [0.0]
def watch(phase, info):
    if phase == "start":
        started[0] = time.perf_counter()
    else:
        paused[0] += time.perf_counter() - started[0]
if sys.argv[2] == "freeze":
    gc.freeze()
gc.callbacks.append(watch)
cpu = time.process_time()
outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
print(time.process_time() - cpu, paused[0], outcome.progress.done_calls)
"""


def gc_gain(repeat: int) -> None:
    """What `gc.freeze()` before a run saves: CPU and collection seconds of 5,000 calls."""
    text = blueprint(1000, [f"openai:fake-{i}" for i in range(5)])
    cpu: dict[str, list[float]] = {"default": [], "freeze": []}
    paused: dict[str, list[float]] = {"default": [], "freeze": []}
    with server_process("--latency-ms", "0") as url:
        for _ in range(repeat):
            for mode in cpu:
                with tempfile.TemporaryDirectory() as tmp:
                    path = Path(tmp) / "bench.yml"
                    path.write_text(text)
                    out = subprocess.run(
                        [sys.executable, "-c", _GC_CHILD, str(path), mode, tmp],
                        env=_env(Path(tmp), url),
                        cwd=REPO,
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    used, gc_s, _ = out.stdout.split()
                    cpu[mode].append(float(used))
                    paused[mode].append(float(gc_s))
    med = {m: statistics.median(v) for m, v in cpu.items()}
    gcs = {m: statistics.median(v) for m, v in paused.items()}
    print(
        f"gc: 5,000 calls at 0 ms (medians): {med['default']:.2f} CPU s, {gcs['default']:.2f} s "
        f"in collections as is; {med['freeze']:.2f} CPU s, {gcs['freeze']:.2f} s in "
        f"collections after gc.freeze() (CPU ratio {med['freeze'] / med['default']:.2f})"
    )


def memory() -> bool:
    """Peak memory of a 10,000-call run (5 ms latency, comparison JSON written)."""
    with tempfile.TemporaryDirectory() as tmp, server_process("--latency-ms", "5") as url:
        folder = Path(tmp)
        models = [f"openai:fake-{i}" for i in range(10)]
        text = blueprint(1000, models)
        path = folder / "bench.yml"
        path.write_text(text)
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, "run", str(path), "--no-judge", "--out", str(folder)],
            env=_env(folder, url),
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )
        line = next(x for x in out.stderr.splitlines() if x.startswith("BENCH "))
        wall, peak = (float(v) for v in line.split()[1:])
        found = _DONE.search(out.stdout)
        good = found is not None and found.group(4) == "10000" and peak <= 300
        print(
            f"10,000-call run (5 ms latency, comparison JSON written): {wall:.1f} s, peak "
            f"memory {peak:.0f} MB (target <= 300 MB) {'OK' if good else 'MISSED'}"
        )
        return good


def main() -> int:
    """Run the benchmark and print the figures; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best is kept")
    parser.add_argument(
        "--only",
        choices=["cold", "warm", "proxy", "throughput", "memory", "gc"],
        default=None,
        help="one part only (`cold` prints the cold and the warm lines, `warm` the warm line)",
    )
    args = parser.parse_args()
    ok = True
    compile_once()
    if args.only in (None, "cold", "warm"):
        ok &= cold_and_warm(args.repeat, cold_runs=args.only != "warm")
    if args.only in (None, "proxy"):
        ok &= proxies(args.repeat)
    if args.only in (None, "throughput"):
        ok &= throughput(args.repeat)
    if args.only in (None, "memory"):
        ok &= memory()
    if args.only in (None, "gc"):
        gc_gain(args.repeat)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
