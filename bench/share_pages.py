"""Share pages: ten visitors at once, the size and time of a big run's page, a big report.

1. Stores one finished run (the functions example, answered by the offline `ideal` model),
   makes an "anyone" share link, starts `blueprint studio`, then opens `/share?token=...` in
   ten fresh headless Chromium contexts at the same moment and times, per context, the wait
   until the leaderboard's table holds the model's score. Baseline in the same session: the
   same page opened by one context alone. Target (issue 12): each of the ten drawn in <= 3 s.
2. A run of 1,000 cells (100 generated prompts x 10 models answered by the local fake LLM,
   text points judged by a fake judge) behind a share link: the time of the page's answer over
   HTTP (the first, drawn cold, and the median of the next ones) and its size, for the first
   page, a later page and one prompt's page. Target (issue 39): <= 0.5 s and <= 2 MB.
3. The one-file HTML report of 10,000 cells (1,000 generated prompts x 10 models, scored
   offline): its size and the median time to draw it. Target (issue 39): <= 15 MB.
Run: python -m bench.share_pages [--visitors N] [--repeat N] [--skip-visitors]
(needs /usr/bin/chromium for part 1)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.studio.browser import CHROMIUM, CHROMIUM_ARGS, running_studio

TARGET_S = 3.0
PAGE_S, PAGE_MB, REPORT_MB = 0.5, 2.0, 15.0
MODELS = 10


def _answer(prompt: str, model: str) -> str:
    """A fake model's answer: about 600 characters, different per model and prompt."""
    n = sum(map(ord, prompt + model)) % 7
    return (
        f"Concept {prompt.split()[2] if len(prompt.split()) > 2 else 0} means that a thing is "
        "defined by how it is used, because usage fixes meaning; see the source for details. "
        + "It has consequences for practice and for teaching. " * (3 + n)
        + f"<b>{model}</b> & friends — done."
    )


def _big_run(home: Path, prompts: int) -> str:
    """A completed run of `prompts` generated prompts x 10 fake models; its share token."""
    from concurrent.futures import ThreadPoolExecutor

    from bench.common import generated_blueprint
    from engine.store import open_store
    from tests.fakes.llm_replies import FakeReply, FakeRequest, judge_reply
    from tests.fakes.llm_server import FakeLLM
    from tests.studio.conftest import judge_rule
    from tests.studio.helpers import make_run

    def reply(request: FakeRequest) -> FakeReply:
        judged = judge_reply(request, judge_rule)
        if judged is not None:
            return judged
        last = request.messages[-1] if request.messages else {}
        text = str(last.get("content") or "") if isinstance(last, dict) else ""
        return FakeReply(text=_answer(text, request.model))

    store = open_store(home / "studio.db")
    models = [f"openai:fake-{i}" for i in range(MODELS)]
    with FakeLLM() as fake, ThreadPoolExecutor(1) as pool:
        fake.reply_with(reply)
        run_id = pool.submit(
            make_run,
            store,
            generated_blueprint(prompts),
            models,
            environ=fake.env(),
            judges=["openai:fake-judge"],
            judge=True,
        ).result()
    return store.create_share_link(run_id, "anyone").token


def _page_figures(url: str, token: str, repeat: int) -> list[str]:
    """Time and size of three pages of a big run's share link (first cold, then median)."""
    import httpx

    lines = []
    with httpx.Client(base_url=url, timeout=120) as client:
        for what, query in [
            ("first page", ""),
            ("page 2", "&page=2"),
            ("one prompt", "&prompt=p00042&a=openai:fake-3&b=openai:fake-7"),
        ]:
            times = []
            size = 0
            for _ in range(repeat + 1):
                started = time.perf_counter()
                answer = client.get(f"/share?token={token}{query}")
                times.append(time.perf_counter() - started)
                answer.raise_for_status()
                size = len(answer.content)
            warm = statistics.median(times[1:])
            good = warm <= PAGE_S and size <= PAGE_MB * 2**20
            lines.append(
                f"1,000-cell share page, {what}: {size / 2**20:.2f} MB, first {times[0]:.2f} s "
                f"(drawn cold), then median {warm:.3f} s of {repeat} (targets <= {PAGE_S} s, "
                f"<= {PAGE_MB:.0f} MB) {'OK' if good else 'MISSED'}"
            )
    return lines


def _report_figures(repeat: int) -> tuple[str, bool]:
    """Size and median draw time of the HTML report of 1,000 prompts x 10 models."""
    from bench.common import generated_blueprint
    from engine.blueprint import parse_blueprint
    from engine.checks import CheckEnv
    from engine.comparison.build import build_comparison
    from engine.report import render_html
    from engine.responses import ResponseRow
    from engine.scoring.offline import score_rows
    from engine.settings import Settings

    blueprint = parse_blueprint(generated_blueprint(1000))
    rows = []
    responses: dict[str, dict[str, str]] = {}
    for i, prompt in enumerate(blueprint.prompts):
        for m in range(MODELS):
            model = f"openai:fake-{m}"
            text = _answer(f"Explain concept {i}", model)
            rows.append(ResponseRow(len(rows) + 1, prompt.id, model, text))
            responses.setdefault(prompt.id, {})[model] = text
    cells = score_rows(blueprint, rows, CheckEnv(settings=Settings()))
    comparison = build_comparison(blueprint, cells, responses=responses)
    times, size = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        size = len(render_html(comparison).encode("utf-8"))
        times.append(time.perf_counter() - started)
    good = size <= REPORT_MB * 2**20
    return (
        f"10,000-cell HTML report: {size / 2**20:.2f} MB, drawn in median "
        f"{statistics.median(times):.2f} s of {repeat} (target <= {REPORT_MB:.0f} MB) "
        f"{'OK' if good else 'MISSED'}",
        good,
    )


def _stored_run(home: Path) -> str:
    """A completed run in `home`'s store and an anyone-link to it; returns the link's token."""
    from engine.store import open_store
    from tests.studio.helpers import example, make_run

    store = open_store(home / "studio.db")
    run_id = make_run(store, example("functions.yml"), ["ideal"])
    return store.create_share_link(run_id, "anyone").token


async def _open(browser: Any, url: str) -> float:
    """Seconds from a fresh context's first request to the leaderboard's score on screen."""
    context = await browser.new_context(viewport={"width": 1300, "height": 1200})
    try:
        page = await context.new_page()
        page.set_default_timeout(60_000)
        started = time.perf_counter()
        await page.goto(url)
        # the leaderboard is the table with an "Average" column, whatever draws it (Streamlit's
        # Markdown or the plain share page)
        table = page.locator("table").filter(has_text="Average").first
        await table.get_by_text("1.00").first.wait_for()
        return time.perf_counter() - started
    finally:
        await context.close()


async def _measure(url: str, visitors: int, repeat: int) -> tuple[list[float], list[float]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            await _open(browser, url)  # the server's first page draws its caches: untimed
            alone = [await _open(browser, url) for _ in range(repeat)]
            together: list[float] = []
            for _ in range(repeat):
                together += await asyncio.gather(*(_open(browser, url) for _ in range(visitors)))
        finally:
            await browser.close()
    return alone, together


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.share_pages")
    parser.add_argument("--visitors", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-visitors", action="store_true", help="leave out part 1")
    args = parser.parse_args()
    repeat = max(3, args.repeat)
    report_line, report_good = _report_figures(repeat)
    print(report_line, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        token = _big_run(home, 100)
        with running_studio(home, {}) as studio:
            lines = _page_figures(studio.url, token, repeat)
    for line in lines:
        print(line, flush=True)
    pages_good = all(line.endswith("OK") for line in lines)
    if args.skip_visitors:
        return 0 if report_good and pages_good else 1
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        token = _stored_run(home)
        with running_studio(home, {}) as studio:
            alone, together = asyncio.run(
                _measure(f"{studio.url}/share?token={token}", args.visitors, args.repeat)
            )
    worst = max(together)
    good = worst <= TARGET_S
    print(
        f"share link, one visitor alone: {min(alone):.2f} s (best of {len(alone)}) | "
        f"{args.visitors} visitors at once: median {statistics.median(together):.2f} s, "
        f"slowest {worst:.2f} s (ratio {worst / min(alone):.1f}x alone; "
        f"target each <= {TARGET_S:.0f} s) {'OK' if good else 'MISSED'}"
    )
    return 0 if good and report_good and pages_good else 1


if __name__ == "__main__":
    sys.exit(main())
