"""Getting around in a real browser: a heatmap cell, the share link's copy button, a new tab.

A real `blueprint studio` server (subprocess) reads a store that this process writes; a
fake LLM in this process answers. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from engine.run import RunOptions
from engine.run.service import run_in_thread
from engine.store import open_store
from studio.core import runs
from tests.fakes.llm_server import FakeLLM
from tests.studio.a11y import axe_source, serious_violations
from tests.studio.browser import Studio, element_screenshot, new_page, running_studio, wait_quiet
from tests.studio.helpers import example, make_run, wait_for_status

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeLLM]:
    with FakeLLM() as llm:
        yield llm


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("nav-home")


@pytest.fixture(scope="module")
def run_id(home: Path, fake: FakeLLM) -> str:
    """A completed run of two prompts × two models (`ideal` and a fake one)."""
    store = open_store(home / "studio.db")
    return make_run(store, example("functions.yml"), ["ideal", "openai:fake-a"], environ=fake.env())


@pytest.fixture(scope="module")
def studio(home: Path, fake: FakeLLM, run_id: str, browser: Any) -> Iterator[Studio]:
    with running_studio(home, fake.env()) as server:
        yield server


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    with new_page(
        browser, width=1300, height=1400, permissions=["clipboard-read", "clipboard-write"]
    ) as page:
        yield page


def test_a_heatmap_cell_opens_that_prompt_and_model(page: Any, studio: Studio, run_id: str):
    page.goto(f"{studio.url}/results?run={run_id}")
    page.get_by_role("heading", name="Look closer at one prompt").wait_for()
    page.wait_for_load_state("networkidle")
    heat = page.locator('[data-testid="stDataFrame"]').first
    heat.locator('td[role="gridcell"]').filter(has_text="0.33").wait_for(state="attached")
    wanted = re.compile(r".*prompt=list-three&model=openai%3Afake-a")
    for attempt in range(3):  # a click lost to a redraw (the grid moved) is made again
        wait_quiet(page)
        heat.scroll_into_view_if_needed()  # the rows must be on screen to be clicked
        box = heat.bounding_box()
        assert box is not None
        # the grid: a header row, then one 35-pixel row per prompt (france, list-three);
        # columns: prompt ids, then ideal, then openai:fake-a on the right half
        page.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + 35 + 35 + 17)
        try:
            page.wait_for_url(wanted, timeout=10_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    page.get_by_role("tab", name="Why this score", selected=True).wait_for()
    expect(page.get_by_role("combobox", name="Prompt", exact=True)).to_have_value(
        re.compile(r"^list-three")
    )
    element_screenshot(page.locator('[data-testid="stTabs"]'), "nav-heatmap-cell")


def test_the_share_link_is_copied_by_its_button(page: Any, studio: Studio, run_id: str):
    page.goto(f"{studio.url}/results?run={run_id}")
    page.get_by_role("heading", name="Leaderboard").wait_for()
    link = f"{studio.url}/results?run={run_id}"
    page.get_by_text(f"/results?run={run_id}").first.wait_for()
    code = page.get_by_test_id("stCode").filter(has_text=f"/results?run={run_id}")
    expect(code).to_have_count(1, timeout=20_000)
    code.hover()
    code.get_by_role("button", name="Copy to clipboard").click()
    page.wait_for_function("link => navigator.clipboard.readText().then(t => t === link)", arg=link)
    element_screenshot(code, "nav-share-link")
    assert serious_violations(page, axe_source()) == []


def test_a_new_tab_at_the_run_page_shows_the_run_in_progress(
    page: Any, studio: Studio, fake: FakeLLM
):
    lines = ["title: slow in the browser", "---"]
    for i in range(60):
        lines += [f"- id: q{i}", f"  prompt: question {i}", "  should:", "    - $contains: New"]
    store = open_store(studio.home / "studio.db")
    prepared = runs.prepare(
        store,
        "\n".join(lines) + "\n",
        "slow.yml",
        models=["openai:fake-a"],
        judges=None,
        judge=False,
        options=RunOptions(concurrency=2),
        record=True,
        environ=fake.env(),
    )
    assert prepared.run_id is not None and not prepared.problems
    fake.latency_ms = 300
    run_in_thread(prepared.run_id, prepared.plan, store, prepared.options, environ=fake.env())
    try:
        wait_for_status(store, prepared.run_id, ("running",))
        # the page is a new tab: a new session that knows no run, at /run without a link
        page.goto(f"{studio.url}/run")
        page.get_by_role("heading", name="Run: slow in the browser").wait_for()
        page.get_by_role("button", name="Stop").wait_for()
        page.get_by_text(re.compile(r"\d+ of 60 answers scored")).first.wait_for()
        page.wait_for_url(re.compile(rf".*run={prepared.run_id}"))
    finally:  # let it finish quickly (stopping a run is tested elsewhere)
        fake.latency_ms = 0
        wait_for_status(store, prepared.run_id, ("completed",), timeout=60)
