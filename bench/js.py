"""Benchmark `$js`: the cost of one evaluation in a worker process beside the in-process run.

Run: python -m bench.js [N]   (N evaluations per timed batch, default 200; about a minute)

Each source (`r.length > 10`, `/x/i.test(r)`, a score object) is scored N times through the
registry function scoring uses (`CATALOGUE["js"]`, which sends the evaluation to a worker
process), and N times with `engine.js.worker.evaluate_js` called in this process: what `$js` did
before the worker, the same fresh QuickJS context per evaluation. The evidence holds a
two-message conversation (1.5 KB); one row has 100 messages (100 KB), which the worker path
encodes and sends once per response rather than once per evaluation. It also times a string
`where` both ways, and the start of a worker (its first request). Batches of the two paths
alternate; the minimum is the figure least disturbed by a busy machine.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engine.checks import CATALOGUE, CheckContext, CheckEnv
from engine.checks.tools import _WHERE_HARNESS
from engine.evidence import Evidence
from engine.js import engine as jsengine
from engine.js import process as jsprocess
from engine.js.values import js_clean
from engine.js.worker import evaluate_js

SOURCES = ["r.length > 10", "/x/i.test(r)", "return { score: r.length / 100, explain: 'n' };"]
MESSAGES = [
    {"role": "user", "content": "Tell me about Paris. " * 20},
    {"role": "assistant", "content": "Paris is the capital of France. " * 35},
]
ROUNDS = 10
LONG_MESSAGES = [
    {"role": ("user", "assistant")[i % 2], "content": "Tell me about Paris, the capital. " * 30}
    for i in range(100)
]
TEXT = "Paris is the capital of France; the x marks the spot."


def _worker_cpu_s() -> float:
    """CPU seconds (user + system) the live workers have used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for worker in [*jsprocess._pool._idle, *jsprocess._pool._busy]:
        fields = Path(f"/proc/{worker.pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _compare(before: Callable[[], object], after: Callable[[], object], n: int) -> list[float]:
    """Interleave batches of `n` calls of each; return [min, median] µs of each, then CPU µs.

    The machine may be busy: the minimum of the batches is the figure least disturbed by
    other processes, the median the typical one. CPU is this process's plus the workers'.
    """
    walls: tuple[list[float], list[float]] = ([], [])
    cpus = [0.0, 0.0]
    for _ in range(ROUNDS):
        for i, fn in enumerate((before, after)):
            cpu, start = time.process_time() + _worker_cpu_s(), time.perf_counter()
            for _ in range(n):
                fn()
            walls[i].append((time.perf_counter() - start) / n * 1e6)
            cpus[i] += (time.process_time() + _worker_cpu_s() - cpu) / n * 1e6 / ROUNDS
    return [
        *(f(w) for w in walls for f in (min, statistics.median)),
        *cpus,
    ]


def _row(label: str, figures: list[float]) -> None:
    b_min, b_med, a_min, a_med, b_cpu, a_cpu = figures
    print(
        f"{label:52} {b_min:6.0f} {b_med:6.0f} {b_cpu:6.0f} | {a_min:6.0f} {a_med:6.0f} "
        f"{a_cpu:6.0f} | {a_min - b_min:+6.0f} {a_med / b_med:5.2f}"
    )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    env = CheckEnv()
    evidence = Evidence(text=TEXT, prompt_id="p", model_id="m", messages=MESSAGES)
    js = CATALOGUE["js"]

    jsprocess.shutdown()
    start = time.perf_counter()
    js(TEXT, "true", CheckContext(evidence, env, None, None))
    print(f"worker start (first request): {(time.perf_counter() - start) * 1000:.1f} ms")

    print(f"{'':52} {'in-process (us)':>20} | {'worker (us)':>20} | worker - in-process")
    print(f"{'':52} {'min':>6} {'median':>6} {'cpu':>6} | {'min':>6} {'median':>6} {'cpu':>6} |"
          f" {'min':>6} {'ratio':>5}")  # fmt: skip
    long_evidence = Evidence(text=TEXT, prompt_id="p", model_id="m", messages=LONG_MESSAGES)
    cases = [(source, evidence, "") for source in SOURCES]
    cases.append((SOURCES[0], long_evidence, " (100 KB of messages)"))
    for source, ev, note in cases:
        ev_ctx = CheckContext(ev, env, None, None)  # one per response, as scoring makes

        def in_process(source: str = source, ev: Evidence = ev) -> object:
            return evaluate_js(  # what `$js` did before the worker: encode, then run
                source,
                TEXT,
                json.dumps(
                    {"messages": js_clean(ev.messages), "modelId": ev.model_id},
                    ensure_ascii=True,
                ),
                time_limit_s=env.js_time_limit_s,
                memory_limit=env.js_memory_limit,
            )

        def worker(source: str = source, ev_ctx: CheckContext = ev_ctx) -> object:
            return js(TEXT, source, ev_ctx)

        assert in_process() == worker(), source
        _row(f"$js: {source}{note}", _compare(in_process, worker, n))

    payload = {"where": "args.q.length > 2", "calls": [{"q": "paris"}, {"q": "london"}]}
    _row(
        "where: args.q.length > 2 (two calls)",
        _compare(
            lambda: jsengine.run_fresh(_WHERE_HARNESS, payload),
            lambda: jsprocess.run_fresh(_WHERE_HARNESS, payload),
            n,
        ),
    )


if __name__ == "__main__":
    main()
