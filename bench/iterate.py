"""Run-against-run speed: `blueprint compare` and the studio's Compare page, 1,000 prompts x 10 models.

1. Scores a generated blueprint (1,000 prompts, 5 function points each) twice with
   `blueprint score` (10 models; the second time a tenth of the answers changed), then times
   the WHOLE `blueprint compare A B --format json` process against a baseline run in the same
   session: a bare Python process that only loads both JSON files. Target: <= 1 s.
2. Stores two runs of that blueprint (10 offline `replay:` models, the second run with one
   point edited in every tenth prompt and a tenth of the answers changed) through the engine's
   run pipeline, starts `blueprint studio` on them and times, in headless Chromium, opening
   `/compare?base=A&cand=B` in a new tab until the page is drawn: the model deltas, the first
   page of the prompt x model grid and the point changes have their cells. The first open
   also loads and compares both runs (the studio then caches the comparison); later opens
   are new tabs. Baseline in the same session: the results page of the candidate run (same
   studio, same browser). Target: page drawn <= 2 s.
3. Re-score: a run of 300 prompts x 10 models (3,000 cells, one judged point and two function
   points each) is generated and judged once against the fake LLM server (a separate process,
   0 ms latency); then the WHOLE `blueprint rescore RUN` process is timed, every judgment
   being cached. Baseline in the same session: `blueprint run` of the same blueprint again,
   everything cached (the same answers and judgments, read back through the cache). The fake
   server's request count must not move. Target: <= 3 s and 0 calls.
Run: python -m bench.iterate [--skip-cli] [--skip-page] [--skip-rescore] (the page needs
/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench.run import bytecode_env

PROMPTS = 1000
MODELS = [f"bench:model-{i}" for i in range(10)]
TARGET_S = 1.0
PAGE_TARGET_S = 2.0


def blueprint_text() -> str:
    lines = ["title: Iterate bench", "models: [bench:model-0]", "---"]
    for i in range(PROMPTS):
        lines += [
            f"- id: p{i}",
            f"  prompt: Question {i}?",
            "  should:",
            f"    - $icontains: word{i % 7}",
            "    - $word_count_between: [2, 40]",
            f"    - $not_icontains: bad{i % 5}",
            "    - - $contains: A",
            "      - $contains: B",
            "    - - $icontains: c",
        ]
    return "\n".join(lines) + "\n"


def responses(path: Path, seed: int, changed: float) -> None:
    rnd = random.Random(seed)
    base = random.Random(0)
    with path.open("w", encoding="utf-8") as out:
        for i in range(PROMPTS):
            for model in MODELS:
                words = [f"word{base.randrange(7)}", "A", "c", "text"] * base.randrange(1, 6)
                if rnd.random() < changed:
                    words = [f"bad{i % 5}", "B"]
                row = {"prompt_id": f"p{i}", "model": model, "response": " ".join(words)}
                out.write(json.dumps(row) + "\n")


def timed(cmd: list[str], repeat: int = 5) -> float:
    """The median wall time of `cmd`, run from bytecode (a first run, untimed, writes it)."""
    env = bytecode_env(os.environ)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure_cli() -> bool:
    """`blueprint compare` of two scored comparison files, whole process; True if on target."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bp = folder / "bench.yml"
        bp.write_text(blueprint_text(), encoding="utf-8")
        outs = []
        for name, changed in (("base", 0.0), ("cand", 0.1)):
            rows = folder / f"{name}.jsonl"
            responses(rows, 1, changed)
            out = folder / f"{name}.json"
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "engine",
                    "score",
                    str(bp),
                    "--responses",
                    str(rows),
                    "--out",
                    str(out),
                    "--no-judge",
                ],
                check=True,
                stderr=subprocess.DEVNULL,
            )
            outs.append(str(out))
        size = sum(Path(p).stat().st_size for p in outs) / 1e6
        ours = timed([sys.executable, "-m", "engine", "compare", "--format", "json", *outs])
        bare = timed([sys.executable, "-c", f"import json\nfor p in {outs!r}: json.load(open(p))"])
        ok = ours <= TARGET_S
        print(
            f"compare {PROMPTS} prompts x {len(MODELS)} models ({size:.1f} MB of JSON): "
            f"{ours:.2f} s whole process | bare json.load of both {bare:.2f} s "
            f"(ratio {ours / bare:.1f}x) | target <= {TARGET_S:.0f} s {'OK' if ok else 'MISSED'}"
        )
    return ok


# --- the Compare page -------------------------------------------------------------------


def replay_files(folder: Path, seed: int, changed: float) -> list[str]:
    """One responses file per model (a `replay:` model answers from its file)."""
    rnd = random.Random(seed)
    base = random.Random(0)
    paths = []
    for m in range(len(MODELS)):
        path = folder / f"model-{m}.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for i in range(PROMPTS):
                words = [f"word{base.randrange(7)}", "A", "c", "text"] * base.randrange(1, 6)
                if rnd.random() < changed:
                    words = [f"bad{i % 5}", "B"]
                out.write(json.dumps({"prompt_id": f"p{i}", "response": " ".join(words)}) + "\n")
        paths.append(f"replay:{path}")
    return paths


def store_run(home: Path, text: str, models: list[str]) -> str:
    """Store a completed run through the engine's run pipeline; return its id."""
    from engine.run import RunOptions
    from engine.run.service import run_sync
    from engine.store import open_store
    from studio.core import runs

    store = open_store(home / "studio.db")
    prepared = runs.prepare(
        store,
        text,
        "bench.yml",
        models=models,
        judges=None,
        judge=False,
        options=RunOptions(concurrency=64),
        record=True,
        environ={},
    )
    if prepared.problems or prepared.run_id is None:
        raise SystemExit(f"cannot plan the benchmark run: {prepared.problems}")
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options, environ={})
    if outcome.status != "completed":
        raise SystemExit(f"the benchmark run ended {outcome.status}: {outcome.error}")
    return prepared.run_id


def _compare_drawn(page: Any) -> None:
    """The model deltas, the first grid page and the points have their cells on screen.

    The three are static tables: each one's last expected cell is waited for.
    """
    page.locator('[data-testid="cmp-models"] tbody tr').nth(len(MODELS) - 1).wait_for()
    page.locator('[data-testid="cmp-grid"] tbody tr').nth(24).locator("td").nth(
        len(MODELS) - 1
    ).wait_for()
    page.locator('[data-testid="cmp-points"] tbody tr').nth(19).wait_for()


def _results_drawn(page: Any) -> None:
    page.get_by_test_id("stDataFrame").first.locator('td[role="gridcell"]').nth(19).wait_for(
        state="attached"
    )


def _open(context: Any, url: str, drawn: Any, text: str) -> float:
    page = context.new_page()
    page.set_default_timeout(120_000)
    started = time.perf_counter()
    page.goto(url)
    page.get_by_text(text, exact=False).first.wait_for()
    drawn(page)
    took = time.perf_counter() - started
    page.close()
    return took


def measure_page(repeats: int) -> bool:
    """The Compare page of two stored 1,000 x 10 runs; True if on target."""
    from playwright.sync_api import sync_playwright

    from tests.studio.browser import CHROMIUM, CHROMIUM_ARGS, start_studio, stop_studio

    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium to time the Compare page.")
        return False
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        os.environ["BLUEPRINT_HOME"] = str(home)
        text = blueprint_text()
        edited = "\n".join(
            f"{line}0" if line.startswith("    - $not_icontains: bad") and n % 10 == 0 else line
            for n, line in enumerate(text.splitlines())
        )
        started = time.perf_counter()
        # both runs' `replay:` models read the same paths (written again between the runs),
        # so the two runs have the same models and their cells pair up
        (home / "replay").mkdir()
        base = store_run(home, text, replay_files(home / "replay", 1, 0.0))
        cand = store_run(home, edited + "\n", replay_files(home / "replay", 1, 0.1))
        made = time.perf_counter() - started
        cells = PROMPTS * len(MODELS)
        print(f"two stored runs of {cells} cells each, made in {made:.1f} s", flush=True)
        studio = start_studio(home, {}, home / "studio.log")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                context = browser.new_context(viewport={"width": 1400, "height": 2400})
                target = f"{studio.url}/compare?base={base}&cand={cand}"
                first = _open(context, target, _compare_drawn, "Prompts 1–25 of")
                later = [
                    _open(context, target, _compare_drawn, "Prompts 1–25 of")
                    for _ in range(repeats)
                ]
                results_url = f"{studio.url}/results?run={cand}"
                _open(context, results_url, _results_drawn, "Prompts 1–20 of")  # fills its cache
                results = [
                    _open(context, results_url, _results_drawn, "Prompts 1–20 of")
                    for _ in range(repeats)
                ]
                context.close()
                browser.close()
        finally:
            stop_studio(studio)
    drawn = statistics.median(later)
    baseline = statistics.median(results)
    ok = drawn <= PAGE_TARGET_S
    print(
        f"Compare page, {PROMPTS} prompts x {len(MODELS)} models: first open (loads and compares "
        f"both runs) {first:.2f} s; new tabs afterwards (median of {repeats}) {drawn:.2f} s | "
        f"results page of one of the runs, same session {baseline:.2f} s (ratio "
        f"{drawn / baseline:.1f}x) | target <= {PAGE_TARGET_S:.0f} s {'OK' if ok else 'MISSED'}"
    )
    return ok


# --- re-scoring a run whose judgments are all cached ------------------------------------

RESCORE_PROMPTS = 300
RESCORE_MODELS = 10
RESCORE_TARGET_S = 3.0
_DONE = re.compile(r"^completed: (\d+)/(\d+) cells, (\d+) calls \((\d+) cached", re.M)


def rescore_blueprint() -> str:
    """300 prompts for 10 models, each with one point for the judge and two functions."""
    models = ", ".join(f"openai:fake-{m}" for m in range(RESCORE_MODELS))
    lines = [
        "title: Rescore bench",
        f"models: [{models}]",
        "evaluationConfig:",
        "  llm-coverage:",
        "    judges:",
        "      - model: openai:judge",
        "---",
    ]
    for i in range(RESCORE_PROMPTS):
        lines += [
            f"- id: p{i:04d}",
            f"  prompt: Question {i}?",
            "  should:",
            "    - Echo of the question is given.",
            "    - $contains: Question",
            "    - $word_count_between: [1, 200]",
        ]
    return "\n".join(lines) + "\n"


def _calls_seen(url: str) -> int:
    with urllib.request.urlopen(f"{url}/_stats", timeout=10) as answer:
        return int(json.load(answer)["calls"])


def _timed_cli(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Run `blueprint ARGS`; return its wall time, its CPU seconds and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        env=bytecode_env(env),
        capture_output=True,
        text=True,
    )
    took = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"blueprint {args[0]} failed: {done.stdout[-400:]} {done.stderr[-400:]}")
    return took, cpu, done.stdout


def measure_rescore(repeats: int) -> bool:
    """`blueprint rescore` of 3,000 cells with every judgment cached; True if on target."""
    from tests.fakes.benchmark import server_process

    cells = RESCORE_PROMPTS * RESCORE_MODELS
    with tempfile.TemporaryDirectory() as tmp, server_process("--latency-ms", "0") as url:
        folder = Path(tmp)
        env = {
            **{k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))},
            "BLUEPRINT_HOME": str(folder / "home"),
            "OPENAI_BASE_URL": f"{url}/v1",
            "OPENAI_API_KEY": "bench-key",
        }
        bp = folder / "bench.yml"
        bp.write_text(rescore_blueprint(), encoding="utf-8")
        out = ["--out", str(folder / "out")]
        made, _, stdout = _timed_cli(["run", str(bp), "--concurrency", "64", *out], env)
        run_id = stdout.split()[1]
        first_calls = _calls_seen(url)
        print(
            f"rescore setup: a run of {cells} cells generated and judged in {made:.1f} s "
            f"({first_calls} calls)",
            flush=True,
        )
        runs, rescores = [], []
        for _ in range(repeats):
            took, cpu, stdout = _timed_cli(["run", str(bp), *out], env)
            found = _DONE.search(stdout)
            if found is None or found.group(3) != found.group(4):
                raise SystemExit(f"the cached run made calls: {stdout[-400:]}")
            runs.append((took, cpu))
            took, cpu, stdout = _timed_cli(["rescore", run_id, *out], env)
            if "called: 0 models, 0 judge call(s)" not in stdout:
                raise SystemExit(f"the re-score made calls: {stdout[-400:]}")
            rescores.append((took, cpu))
        calls = _calls_seen(url) - first_calls
    ours, ours_cpu = (statistics.median(t) for t in zip(*rescores, strict=True))
    base, base_cpu = (statistics.median(t) for t in zip(*runs, strict=True))
    ok = ours <= RESCORE_TARGET_S and calls == 0
    print(
        f"rescore {cells} cells, every judgment cached: {ours:.2f} s whole process, "
        f"{ours_cpu:.2f} CPU s (medians of {repeats}), {calls} calls | `blueprint run` of the "
        f"same, all cached, same session: {base:.2f} s, {base_cpu:.2f} CPU s (ratio "
        f"{ours / base:.2f}x wall, {ours_cpu / base_cpu:.2f}x CPU) | target <= "
        f"{RESCORE_TARGET_S:.0f} s and 0 calls {'OK' if ok else 'MISSED'}"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    """Run the measurements and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.iterate")
    parser.add_argument("--skip-cli", action="store_true")
    parser.add_argument("--skip-page", action="store_true")
    parser.add_argument("--skip-rescore", action="store_true")
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--prompts", type=int, default=PROMPTS, help="a smaller try-out")
    args = parser.parse_args(argv)
    globals()["PROMPTS"] = args.prompts
    ok = True
    if not args.skip_cli:
        ok = measure_cli() and ok
    if not args.skip_page:
        ok = measure_page(args.repeats) and ok
    if not args.skip_rescore:
        ok = measure_rescore(args.repeats) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
