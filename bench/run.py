"""Run speed: 900 calls at concurrency 32 against a fake LLM with 50 ms latency, cold then warm.

Starts the fake OpenAI-compatible server as a separate process, then runs a generated
blueprint (300 prompts x 3 models, one generation each, function points only) through the
whole run pipeline: plan, store, provider calls, scoring, comparison JSON. Prints:
- cold: wall time, the ideal (calls x latency / concurrency) and their ratio (target <= 1.2;
  promptfoo needed 6.8 s and Inspect 9.1 s for this work, ideal 1.4 s);
- warm (everything cached): wall time and calls made (targets <= 1 s and 0);
- peak memory of a 10,000-call run in a fresh process (target <= 300 MB).
Run: python -m bench.run
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.fakes.benchmark import server_process

REPO = Path(__file__).resolve().parent.parent
LATENCY_MS = 50
CONCURRENCY = 32


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


# The clock starts after the imports (Python start-up is not part of a run) and covers
# planning, every call, scoring, storing and assembling the comparison.
_CHILD = """
import resource, sys, time
import httpx, engine.checks.registry, engine.checks.jsregex
from engine.run import RunOptions, prepare_run
from engine.run.service import run_sync
from engine.store import Store
text = open(sys.argv[1]).read()
store = Store()
start = time.perf_counter()
out_dir = __import__("pathlib").Path(sys.argv[3]) if len(sys.argv) > 3 else None
prepared = prepare_run(store, text, source="bench.yml", judge=False,
                       options=RunOptions(concurrency=int(sys.argv[2]), out_dir=out_dir))
assert not prepared.problems, prepared.problems
planned = time.perf_counter() - start
outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
wall = time.perf_counter() - start
print(f"plan {planned:.3f}", file=sys.stderr)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{outcome.status} {outcome.progress.done_calls} {outcome.progress.cached_calls} {wall:.3f} {peak:.1f}")
"""


def run_child(
    folder: Path, text: str, env: dict[str, str], concurrency: int, out_dir: Path | None = None
) -> tuple[str, int, int, float, float]:
    """Run one benchmark run in a fresh process; return (status, done, cached, seconds, peak MB)."""
    path = folder / "bench.yml"
    path.write_text(text)
    extra = [str(out_dir)] if out_dir is not None else []
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), str(concurrency), *extra],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    status, done, cached, wall, peak = out.stdout.split()
    return status, int(done), int(cached), float(wall), float(peak)


def main() -> int:
    """Run the benchmark and print the figures; exit 1 when a target is missed."""
    ok = True
    with (
        tempfile.TemporaryDirectory() as tmp,
        server_process("--latency-ms", str(LATENCY_MS)) as url,
    ):
        folder = Path(tmp)
        env = {
            **os.environ,
            "BLUEPRINT_HOME": str(folder / "home"),
            "OPENAI_BASE_URL": f"{url}/v1",
            "OPENAI_API_KEY": "bench-key",
        }
        models = ["openai:fake-a", "openai:fake-b", "openai:fake-c"]
        text = blueprint(300, models)
        calls = 900
        ideal = calls * LATENCY_MS / 1000 / CONCURRENCY
        status, done, _, wall, _ = run_child(folder, text, env, CONCURRENCY)
        ratio = wall / ideal
        ok &= status == "completed" and done == calls and ratio <= 1.2
        print(
            f"cold: {calls} calls at concurrency {CONCURRENCY}, {LATENCY_MS} ms latency: {wall:.2f} s "
            f"(ideal {ideal:.2f} s, ratio {ratio:.2f}, target <= 1.2) {'OK' if ratio <= 1.2 else 'MISSED'}"
        )
        status, done, cached, wall, _ = run_child(folder, text, env, CONCURRENCY)
        made = done - cached
        ok &= status == "completed" and made == 0 and wall <= 1.0
        print(
            f"warm: {wall:.2f} s, {made} calls made, {cached} answered from the cache "
            f"(target <= 1 s and 0 calls) {'OK' if wall <= 1.0 and made == 0 else 'MISSED'}"
        )

    with tempfile.TemporaryDirectory() as tmp, server_process("--latency-ms", "5") as url:
        folder = Path(tmp)
        env = {
            **os.environ,
            "BLUEPRINT_HOME": str(folder / "home"),
            "OPENAI_BASE_URL": f"{url}/v1",
            "OPENAI_API_KEY": "bench-key",
        }
        models = [f"openai:fake-{i}" for i in range(10)]
        status, done, _, wall, peak = run_child(
            folder, blueprint(1000, models), env, CONCURRENCY, out_dir=folder / "out"
        )
        ok &= status == "completed" and done == 10_000 and peak <= 300
        print(
            f"10,000-call run (5 ms latency, comparison JSON written): {wall:.1f} s, peak memory "
            f"{peak:.0f} MB "
            f"(target <= 300 MB) {'OK' if peak <= 300 else 'MISSED'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
