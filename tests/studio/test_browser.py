"""The studio in a real browser: write, fix, run two models, read, share and download.

A real `blueprint studio` server (subprocess) talks to a fake LLM in this process; Chromium
drives it. Screenshots of every page go to tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.fakes.llm_replies import FakeReply, FakeRequest, judge_reply
from tests.fakes.llm_server import FakeLLM
from tests.studio.browser import (
    EDITOR_FRAME,
    Studio,
    ace,
    click_quiet,
    download,
    editor_text,
    element_screenshot,
    external_requests,
    new_page,
    open_example,
    screenshot,
    studio_server,
    wait_quiet,
)
from tests.studio.conftest import judge_rule
from tests.studio.helpers import example

pytestmark = pytest.mark.browser

ANSWERS = {
    # Path 1 in full: 1.00.  Path 2 half (no question asked): (1 + 0.5) / 2 = 0.75.
    "fake-a": "New Year's Day is on January 1 in the Gregorian calendar.",
    "fake-b": "Other calendars have other new years.",
}
KEY = "sk-browser-SECRET-7731"


def reply(request: FakeRequest) -> FakeReply:
    judged = judge_reply(request, judge_rule)
    if judged is not None:
        return judged
    return FakeReply(text=ANSWERS.get(request.model, "I do not know."))


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Studio]:
    with FakeLLM() as fake:
        fake.reply_with(reply)
        with studio_server(tmp_path_factory, "studio-home", fake.env(key=KEY)) as server:
            yield server


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    with new_page(browser, accept_downloads=True) as page:
        yield page


def gutter_classes(page: Any, line: int) -> str:
    cell = page.frame_locator(EDITOR_FRAME).locator(".ace_gutter-cell").nth(line - 1)
    return str(cell.get_attribute("class") or "")


def test_a_mistake_is_marked_at_its_line_and_fixed_in_one_click(page: Any, studio: Studio):
    outside = external_requests(page)
    open_example(page, studio.url, "Two good ways to answer")
    text = editor_text(page)
    assert text == example("or-paths.yml")
    # a known mistake, typed: `title` becomes `titel` on line 2
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.gotoLine(2, 3); }")
    page.keyboard.press("Delete")
    page.keyboard.press("Delete")
    page.keyboard.type("el")
    fix = page.get_by_role("button", name="Apply fix: Rename to title")
    fix.wait_for()
    page.frame_locator(EDITOR_FRAME).locator(".ace_gutter-cell.ace_warning").first.wait_for()
    assert "ace_warning" in gutter_classes(page, 2)
    assert page.get_by_text("line 2, column 1").is_visible()
    # the editor keeps what was typed while the page redraws around it
    mistaken = text.replace("title:", "titel:", 1)
    assert editor_text(page) == mistaken
    screenshot(page, "editor-mistake-marked")
    # a refresh loses nothing: the draft named in the address comes back, mistake included
    assert "?draft=" in page.url
    page.reload()
    ace(page).wait_for()
    fix.wait_for()
    assert editor_text(page) == mistaken
    click_quiet(page, fix)
    page.get_by_text("Applied: Rename to").wait_for()
    page.frame_locator(EDITOR_FRAME).locator(".ace_gutter-cell.ace_warning").wait_for(
        state="detached"
    )
    assert editor_text(page) == example("or-paths.yml")
    screenshot(page, "editor-fixed")
    assert outside == []


def choose_models(page: Any, label: str, models: list[str], before: list[str]) -> None:
    """Replace the chosen options of a multiselect (one change at a time, each confirmed)."""
    widget = page.get_by_test_id("stMultiSelect").filter(
        has=page.locator(f'input[aria-label="{label}"]')
    )
    chips = widget.locator("span[data-tag]")
    expect(chips).to_have_count(len(before))
    while chips.count():
        before = chips.count()
        click_quiet(page, chips.first.locator('button[aria-label^="Remove "]'))
        expect(chips).to_have_count(before - 1)
    box = page.get_by_role("combobox", name=label, exact=True)
    for model in models:
        box.fill(model)
        box.press("Enter")
        expect(widget.locator(f'span[data-tag][aria-label="{model}"]')).to_have_count(1)
    box.press("Escape")
    expect(chips).to_have_count(len(models))


def make_run(page: Any, studio: Studio) -> str:
    """Run the two-paths example on two models with a judge, from the studio; return its id."""
    open_example(page, studio.url, "Two good ways to answer")
    click_quiet(page, page.get_by_role("link", name="Run this blueprint"))
    page.get_by_role("heading", name="The plan").wait_for()
    wait_quiet(page)
    choose_models(
        page, "Models to run", ["openai:fake-a", "openai:fake-b"], before=["openai:gpt-4.1-mini"]
    )
    click_quiet(page, page.get_by_text("Choose judge models"))
    choose_models(page, "Judge models", ["openai:fake-judge"], before=[])
    values = page.get_by_test_id("stMetricValue")
    expect(values.nth(0)).to_have_text("2")  # answers to score: 1 prompt x 2 models
    expect(values.nth(2)).to_have_text("8")  # judge calls: 4 points in words x 2 models
    page.get_by_role("button", name="Start run").wait_for()
    page.get_by_text("calls to make").wait_for()
    screenshot(page, "run-plan")
    click_quiet(page, page.get_by_role("button", name="Start run"))
    page.wait_for_url(re.compile(r".*/run\?run=[\w-]{22,}"))
    page.get_by_text("2 of 2 answers scored").wait_for(timeout=30_000)
    page.get_by_role("link", name="See the results", exact=True).wait_for()
    return str(page.url.split("run=")[1].split("&")[0])


@pytest.fixture(scope="module")
def run_id(browser: Any, studio: Studio) -> str:
    """The id of the run `make_run` makes, once for the tests of this module that need one."""
    with new_page(browser) as page:
        outside = external_requests(page)
        made = make_run(page, studio)
        assert outside == []
        return made


def test_run_two_models_and_read_the_results(page: Any, studio: Studio, run_id: str):
    outside = external_requests(page)
    page.goto(f"{studio.url}/run?run={run_id}")
    page.get_by_text("2 of 2 answers scored").wait_for(timeout=30_000)
    page.get_by_role("link", name="See the results", exact=True).wait_for()
    screenshot(page, "run-completed")
    click_quiet(page, page.get_by_role("link", name="See the results"))
    page.wait_for_url(re.compile(r".*/results\?run="))
    page.get_by_role("heading", name="Leaderboard").wait_for()
    board = page.get_by_test_id("stMarkdownContainer").locator("table").first
    expect(board).to_contain_text("1.00")
    expect(board).to_contain_text("0.75")
    # the heatmap is a data grid (drawn on a canvas, with an accessible grid of its cells)
    heat = page.locator('[data-testid="stDataFrame"]').first
    cells = heat.locator('td[role="gridcell"]')
    cells.filter(has_text="0.75").first.wait_for(state="attached")
    assert cells.filter(has_text="1.00").count() >= 1
    screenshot(page, "results-overview")
    click_quiet(page, page.get_by_role("tab", name="Why this score"))
    page.get_by_text("★ best path").first.wait_for()
    page.get_by_text("Final score: (1.00 + 1.00) / 2 = 1.00").wait_for()
    # the other model: path 2 wins, half met
    picker = page.get_by_role("combobox", name="Model", exact=True)
    picker.click()
    picker.fill("fake-b")
    page.get_by_role("option", name="openai:fake-b").click()
    page.get_by_text("Final score: (1.00 + 0.50) / 2 = 0.75").wait_for()
    page.wait_for_url(re.compile(r".*model=openai%3Afake-b"))  # the view is in the link
    element_screenshot(page.locator('[data-testid="stTabs"]'), "results-why")
    assert outside == []


def test_the_share_link_opens_the_same_scores_in_a_fresh_browser(
    browser: Any, studio: Studio, run_id: str
):
    with new_page(browser, height=1400) as page:
        page.goto(f"{studio.url}/results?run={run_id}")
        page.get_by_role("heading", name="Leaderboard").wait_for()
        board = page.get_by_test_id("stMarkdownContainer").locator("table").first
        expect(board).to_contain_text("openai:fake-a")
        expect(board).to_contain_text("1.00")
        expect(board).to_contain_text("0.75")
        heat = page.locator('[data-testid="stDataFrame"]').first
        heat.locator('td[role="gridcell"]').filter(has_text="0.75").first.wait_for(state="attached")
        page.get_by_text(f"/results?run={run_id}").first.wait_for()
        screenshot(page, "results-shared-link")


def test_the_downloaded_report_opens_offline_with_the_scores(
    browser: Any, page: Any, studio: Studio, tmp_path: Path, run_id: str
):
    page.goto(f"{studio.url}/results?run={run_id}")
    page.get_by_role("heading", name="Leaderboard").wait_for()
    button = page.get_by_role("button", name="Download report (HTML)")
    button.wait_for()
    expect(button).to_be_enabled()
    report = tmp_path / "report.html"
    download(page, button).save_as(report)
    offline = browser.new_context(offline=True, java_script_enabled=True)
    try:
        view = offline.new_page()
        requests: list[str] = []
        view.on("request", lambda r: requests.append(r.url))
        view.goto(report.as_uri(), wait_until="load")
        expect(view).to_have_title("Two good ways to answer: results")
        table = view.locator("table").first
        assert "openai:fake-a" in table.inner_text() and "1.00" in table.inner_text()
        assert "0.75" in table.inner_text()
        view.locator("details summary").first.click()
        assert view.get_by_text("New Year's Day is on January 1").first.is_visible()
        assert requests == [report.as_uri()]
        screenshot(view, "report-offline")
    finally:
        offline.close()


def test_history_links_each_run_to_its_results(page: Any, studio: Studio, run_id: str):
    page.goto(f"{studio.url}/history")
    page.get_by_role("heading", name="History").wait_for()
    page.get_by_test_id("stDataFrame").wait_for()
    screenshot(page, "history")
    page.goto(f"{studio.url}/results?run={run_id}&prompt=new-year")
    page.get_by_role("heading", name="Look closer at one prompt").wait_for()
    click_quiet(page, page.get_by_role("tab", name="Answers side by side"))
    page.get_by_text(ANSWERS["fake-b"], exact=True).wait_for()
    element_screenshot(page.locator('[data-testid="stTabs"]'), "results-answers")


def test_the_api_key_is_in_no_log_no_store_and_no_page(page: Any, studio: Studio, run_id: str):
    page.goto(f"{studio.url}/results?run={run_id}")
    page.get_by_role("heading", name="Leaderboard").wait_for()
    assert KEY not in page.content()
    assert KEY not in studio.log.read_text(encoding="utf-8", errors="replace")
    for path in studio.home.rglob("*"):
        if path.is_file() and path != studio.log:
            assert KEY.encode() not in path.read_bytes(), path
