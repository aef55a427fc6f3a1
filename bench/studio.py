"""Studio speed: server start, and drawing the results of a 100-prompt × 10-model run.

Run with `python -m bench.studio` (needs Debian's /usr/bin/chromium; never `playwright install`).

What it does:
1. Makes a stored run of 100 prompts × 10 models (1,000 cells) in a temporary
   BLUEPRINT_HOME, through the engine's own run pipeline (`prepare_run` + `run_sync`),
   against the in-process fake LLM server (`tests.fakes.llm_server.FakeLLM`, no latency):
   models `openai:bench-0` … `openai:bench-9`, three function points per prompt, no judges.
2. Times `blueprint studio --port N` from start to a healthy `/_stcore/health`.
3. Times, in headless Chromium, opening `/results?run=<id>` in a new tab: "scores on
   screen" is when the page says "Prompts 1–20 of 100" and the leaderboard (every model's
   average, spread, counts and cost) is drawn; "page drawn" is when the prompt × model
   heatmap (a colour-coded data grid of the first 20 prompts × 10 models) has its cells too.
   The page needs no Plotly (its 4.7 MB bundle costs ~1.2 s to parse): the explanation
   chart loads only when its tab is opened. The first open starts with an empty browser
   cache and fills the studio's cache of completed runs.

Targets: start <= 5 s, results page drawn <= 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.run import RunOptions
from engine.run.service import run_sync
from engine.store import open_store
from studio.core import runs
from tests.fakes.llm_server import FakeLLM
from tests.studio.browser import CHROMIUM, CHROMIUM_ARGS, start_studio, stop_studio

START_TARGET_S = 5.0
RESULTS_TARGET_S = 2.0


def blueprint(prompts: int) -> str:
    """A blueprint of `prompts` prompts, each with three function points."""
    lines = ["title: Benchmark, 100 prompts", "---"]
    for i in range(prompts):
        lines += [
            f"- id: q{i:03d}",
            f"  prompt: Question number {i}, say the word echo.",
            "  should:",
            "    - $icontains: echo",
            f"    - $contains: 'number {i}'",
            "    - $word_count_between: [3, 40]",
        ]
    return "\n".join(lines) + "\n"


def make_run(home: Path, fake: FakeLLM, prompts: int, models: int) -> tuple[str, float]:
    """Store a completed run through the engine; return its id and the seconds it took."""
    import os

    os.environ["BLUEPRINT_HOME"] = str(home)
    store = open_store(home / "studio.db")
    env = fake.env()
    started = time.perf_counter()
    prepared = runs.prepare(
        store,
        blueprint(prompts),
        "bench.yml",
        models=[f"openai:bench-{i}" for i in range(models)],
        judges=None,
        judge=False,
        options=RunOptions(concurrency=64),
        record=True,
        environ=env,
    )
    if prepared.problems or prepared.run_id is None:
        raise SystemExit(f"cannot plan the benchmark run: {prepared.problems}")
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options, environ=env)
    if outcome.status != "completed":
        raise SystemExit(f"the benchmark run ended {outcome.status}: {outcome.error}")
    return prepared.run_id, time.perf_counter() - started


@dataclass
class Draw:
    """When a results page showed its scores, and when the whole page (heatmap) was drawn."""

    scores_s: float
    chart_s: float


SCORES_JS = (
    "() => document.querySelectorAll('[data-testid=\"stMarkdownContainer\"] table td').length >= 10"
)
CHART_JS = (
    '() => document.querySelectorAll(\'[data-testid="stDataFrame"] td[role="gridcell"]\')'
    ".length >= 20"
)


def _open(context: Any, url: str, prompts: int) -> Draw:
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    page.get_by_text(f"Prompts 1–20 of {prompts}.", exact=False).wait_for(timeout=60_000)
    page.wait_for_function(SCORES_JS, timeout=60_000)
    scores = time.perf_counter() - started
    page.wait_for_function(CHART_JS, timeout=60_000)
    chart = time.perf_counter() - started
    page.close()
    return Draw(scores, chart)


def draw_results(url: str, run_id: str, prompts: int, repeats: int) -> tuple[Draw, list[Draw]]:
    """Open the results page: once in a fresh browser profile, then `repeats` new tabs.

    The first open starts from nothing: no browser cache, and the studio's cache of
    completed runs is empty. The later opens are new tabs (new sessions) in a browser that
    has loaded the studio before, as for anyone following a share link twice.
    """
    from playwright.sync_api import sync_playwright

    target = f"{url}/results?run={run_id}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1200})
        first = _open(context, target, prompts)
        later = [_open(context, target, prompts) for _ in range(repeats)]
        context.close()
        browser.close()
    return first, later


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.studio")
    parser.add_argument("--prompts", type=int, default=100)
    parser.add_argument("--models", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=4)
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium to run this benchmark.")
        return 2
    with tempfile.TemporaryDirectory() as tmp, FakeLLM() as fake:
        home = Path(tmp)
        run_id, made = make_run(home, fake, args.prompts, args.models)
        cells = args.prompts * args.models
        print(f"stored run: {args.prompts} prompts x {args.models} models = {cells} cells")
        print(
            f"  made through the engine's run pipeline in {made:.2f} s ({cells / made:.0f} cells/s)"
        )
        started = time.perf_counter()
        studio = start_studio(home, fake.env(), home / "studio.log")
        start_s = time.perf_counter() - started
        try:
            timings = draw_results(studio.url, run_id, args.prompts, args.repeats)
        finally:
            stop_studio(studio)
    first, later = timings
    scores = statistics.median(d.scores_s for d in later)
    chart = statistics.median(d.chart_s for d in later)
    print(f"blueprint studio start -> healthy: {start_s:.2f} s (target <= {START_TARGET_S:.0f} s)")
    print(
        f"results page, first open (empty browser cache, fills the studio's run cache): "
        f"scores on screen {first.scores_s:.2f} s, page drawn (heatmap cells) {first.chart_s:.2f} s"
    )
    print(
        f"results page, new tabs afterwards (median of {len(later)}): scores on screen "
        f"{scores:.2f} s, page drawn (heatmap cells) {chart:.2f} s (target <= "
        f"{RESULTS_TARGET_S:.0f} s)"
    )
    ok = start_s <= START_TARGET_S and chart <= RESULTS_TARGET_S
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
