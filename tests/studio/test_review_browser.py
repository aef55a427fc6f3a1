"""Review in a real browser: give a judged point a score, see it saved and the point marked."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from engine.store import open_store
from tests.studio.a11y import axe_source, serious_violations
from tests.studio.browser import click_quiet, new_page, running_studio, screenshot, wait_quiet
from tests.studio.conftest import run_or_paths

pytestmark = pytest.mark.browser


def _pick(page: Any, box: Any, option: str) -> None:
    """Pick `option` in the multiselect `box`, opening its list again if a redraw closed it."""
    target = page.get_by_role("option", name=re.compile(re.escape(option)))
    for _ in range(3):
        if not target.is_visible():
            box.click()
        try:
            target.wait_for(timeout=10_000)
            break
        except PlaywrightTimeoutError:
            continue
    click_quiet(page, target)


def test_a_verdict_is_saved_and_its_point_is_listed_to_rewrite(
    browser: Any, llm_env: dict[str, str], tmp_path: Path
):
    store = open_store(tmp_path / "studio.db")
    with ThreadPoolExecutor(1) as pool:  # the browser's event loop owns this thread
        run_id = pool.submit(run_or_paths, store, llm_env).result()
    with running_studio(tmp_path, {}) as studio, new_page(browser, height=2400) as page:
        page.goto(f"{studio.url}/results?run={run_id}")
        page.get_by_text("Review the judges").wait_for()
        wait_quiet(page)
        expect(page.get_by_text("point(s) to rewrite first")).to_have_count(0)
        box = page.get_by_role("combobox", name="Judged points (one or several)")
        for option in ("#1 · openai:fake-b", "#3 · openai:fake-b"):  # two points at once
            _pick(page, box, option)
        box.press("Escape")
        click_quiet(page, page.get_by_text("Give my own score"))
        click_quiet(page, page.get_by_role("button", name="Save verdict"))
        page.get_by_text("Saved your verdict (score 0.50) on 2 point(s).").wait_for()
        wait_quiet(page)
        expect(page.get_by_text("· 2 point(s) to rewrite first")).to_have_count(1)
        click_quiet(page, page.get_by_text("Can the judges be trusted?"))
        page.get_by_text("The points to rewrite first").wait_for()
        wait_quiet(page)
        saved = store.reviews(sorted({c.prompt_id for c in store.cells(run_id)}))
        assert sorted((r.author, r.model_id, r.criterion, r.score) for r in saved) == [
            ("me", "openai:fake-b[temp:0]", "Is polite and to the point.", 0.5),
            ("me", "openai:fake-b[temp:0]", "Names the Gregorian calendar.", 0.5),
        ]
        assert serious_violations(page, axe_source()) == []  # the form, marks and calibration
        screenshot(page, "review-saved")
