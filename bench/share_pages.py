"""A share link opened by ten people at once: the time until each of them sees the scores.

Stores one finished run (the functions example, answered by the offline `ideal` model), makes
an "anyone" share link, starts
`blueprint studio`, then opens `/share?token=...` in ten fresh headless Chromium contexts at
the same moment and times, per context, the wait until the leaderboard's table holds the
model's score. Baseline in the same session: the same page opened by one context alone.
Target (issue 12): each of the ten drawn in <= 3 s.
Run: python -m bench.share_pages [--visitors N] [--repeat N]  (needs /usr/bin/chromium)
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
        await table.get_by_text("1.000").first.wait_for()
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
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
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
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
