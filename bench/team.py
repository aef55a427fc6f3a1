"""Team mode's queue, the way a team meets it: three runs queued at once, two workers.

Starts the fake OpenAI-compatible server (50 ms latency) and two `blueprint worker
--concurrency 32` processes on a throwaway PostgreSQL database, records three runs of 900
calls each (300 prompts x 3 models, distinct, so no run answers another from the cache),
queues them at once and times until the last one is completed. Prints the wall time beside
the ideal (calls x latency / total concurrency = 2,700 x 50 ms / 64), target <= 1.3x, and
beside it the same session's baseline: one personal `blueprint run` of 900 calls at
concurrency 32 in one process (ideal 1.41 s; `bench/run.py` targets 1.25x). The machine may
be shared: compare the two ratios.
Run: python -m bench.team [--repeat N]  (N rounds, the best kept)
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

from bench.run import Timing, blueprint, run_process
from bench.run import _env as personal_env
from tests.fakes.benchmark import server_process
from tests.store.pg import fresh_database

REPO = Path(__file__).resolve().parent.parent
LATENCY_MS = 50
WORKERS = 2
CONCURRENCY = 32
RUNS = 3
PROMPTS = 300
MODELS = 3
PART_CALLS = int(os.environ.get("BENCH_PART_CALLS", "100"))


def _env(url: str, fake: str, home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "BLUEPRINT_DATABASE_URL": url,
        "BLUEPRINT_HOME": str(home),
        "OPENAI_BASE_URL": f"{fake}/v1",
        "OPENAI_API_KEY": "bench-key",
        "PYTHONPATH": str(REPO),
    }


def _workers_up(url: str) -> int:
    with psycopg.connect(url) as conn:
        if conn.execute("SELECT to_regclass('procrastinate_workers')").fetchone() == (None,):
            return 0
        row = conn.execute("SELECT COUNT(*) FROM procrastinate_workers").fetchone()
    return int(row[0]) if row else 0


def one_round(url: str, fake: str, home: Path, round_no: int) -> float:
    """Queue three fresh runs at once; return the seconds until all three are completed."""
    os.environ.update(_env(url, fake, home))
    from engine.queue.enqueue import enqueue_run
    from engine.run import RunOptions
    from engine.run.service import prepare_run
    from engine.store import open_store

    store = open_store(url)
    prepared = []
    for r in range(RUNS):
        models = [f"openai:r{round_no}-{r}-m{m}" for m in range(MODELS)]
        p = prepare_run(
            store,
            blueprint(PROMPTS, models),
            source=f"team{r}.yml",
            options=RunOptions(judge=False, concurrency=CONCURRENCY, out_dir=None),
        )
        if p.run_id is None or p.problems:
            raise RuntimeError(f"the run cannot start: {p.problems}")
        prepared.append(p)
    started = time.perf_counter()
    for p in prepared:
        enqueue_run(url, p.run_id, p.plan, part_calls=PART_CALLS)
    # One reading every 10 ms (the bench's own reading error stays ~5 ms), of the newest run
    # still pending: the workers serve runs oldest first, so it ends last, and the older ones
    # are confirmed once it has. Reading all three each time cost the machine the CPU of 900
    # queries a round (client and server), a tenth of what the whole round uses on 2 cores.
    pending = [p.run_id for p in prepared]
    while pending:
        run = store.get_run(pending[-1])
        if run is not None and run.status not in ("planned", "running"):
            if run.status != "completed":
                raise RuntimeError(f"run {run.id} ended {run.status}: {run.error}")
            pending.pop()
            continue
        time.sleep(0.01)
    wall = time.perf_counter() - started
    calls = sum(store.get_run(p.run_id).done_calls for p in prepared)  # type: ignore[union-attr]
    if calls != RUNS * PROMPTS * MODELS:
        raise RuntimeError(f"{calls} calls done, {RUNS * PROMPTS * MODELS} expected")
    return wall


def solo_run(text: str, fake: str) -> Timing:
    """One personal `blueprint run` in a fresh folder (its own SQLite store, nothing cached)."""
    with tempfile.TemporaryDirectory() as solo:
        env = personal_env(Path(solo), fake)
        env.pop("BLUEPRINT_DATABASE_URL", None)
        return run_process(Path(solo), text, env, CONCURRENCY)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.team")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    calls = RUNS * PROMPTS * MODELS
    ideal = calls * LATENCY_MS / 1000 / (WORKERS * CONCURRENCY)
    with (
        tempfile.TemporaryDirectory() as tmp,
        fresh_database("blueprint_bench") as url,
        server_process("--latency-ms", str(LATENCY_MS)) as fake,
    ):
        env = _env(url, fake, Path(tmp) / "home")
        workers = [
            subprocess.Popen(
                [sys.executable, "-m", "engine", "worker", "--concurrency", str(CONCURRENCY)],
                env=env,
                cwd=tmp,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(WORKERS)
        ]
        try:
            deadline = time.monotonic() + 60
            while _workers_up(url) < WORKERS:
                if time.monotonic() > deadline:
                    raise RuntimeError("the workers did not start")
                time.sleep(0.1)
            walls = [one_round(url, fake, Path(tmp) / "home", i) for i in range(args.repeat)]
        finally:
            for w in workers:
                w.send_signal(signal.SIGTERM)
            for w in workers:
                w.wait(timeout=30)
        text = blueprint(PROMPTS, [f"openai:solo-m{m}" for m in range(MODELS)])
        base = min((solo_run(text, fake) for _ in range(args.repeat)), key=lambda t: t.wall)
    base_ideal = PROMPTS * MODELS * LATENCY_MS / 1000 / CONCURRENCY
    print(
        f"baseline: one personal run of {PROMPTS * MODELS} calls, concurrency {CONCURRENCY}: "
        f"{base.wall:.2f} s (ideal {base_ideal:.2f} s, ratio {base.wall / base_ideal:.2f}; "
        "bench/run.py's target 1.25)"
    )
    wall = min(walls)
    ratio = wall / ideal
    good = ratio <= 1.3
    print(
        f"team: {RUNS} runs x {PROMPTS * MODELS} calls queued at once, {LATENCY_MS} ms latency, "
        f"{WORKERS} workers x concurrency {CONCURRENCY}: {wall:.2f} s until all completed "
        f"(rounds: {', '.join(f'{w:.2f}' for w in walls)}; ideal {ideal:.2f} s, ratio "
        f"{ratio:.2f}, target <= 1.3) {'OK' if good else 'MISSED'}"
    )
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
