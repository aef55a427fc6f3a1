"""A chat app's pasted answers in a real browser: two answers of three prompts are scored as a
run of `app:chatgpt-web`, and the third prompt shows as "not answered", never as a failure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.pasted.data import CAPITALS_APP
from tests.studio.browser import (
    Studio,
    click_quiet,
    new_page,
    screenshot,
    studio_server,
    wait_quiet,
)

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/publish")


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    with studio_server(tmp_path_factory, "pasted-home") as server:
        yield server


def open_file(page: Any, studio: Studio, path: Path) -> None:
    page.goto(studio.url + "/")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    page.get_by_role("heading", name="Problems").wait_for()
    wait_quiet(page)


def test_two_answers_of_three_prompts_make_a_run_with_one_not_answered(
    browser: Any, studio: Studio, tmp_path: Path
):
    path = tmp_path / "capitals-app.yml"
    path.write_text(CAPITALS_APP, encoding="utf-8")
    with new_page(browser, height=2400) as page:
        open_file(page, studio, path)
        click_quiet(
            page, page.get_by_test_id("stSidebarNav").get_by_role("link", name="Run", exact=True)
        )
        section = page.get_by_test_id("stExpander").filter(has_text="Test a chat app")
        click_quiet(page, section.get_by_text("Test a chat app: paste its answers"))
        # every prompt is shown in full, the multi-turn one with each turn, as plain text
        section.get_by_text("Only its capital. Which city is that?").wait_for()
        expect(section.get_by_text("Lovely! Which cities would you like to see?")).to_be_visible()
        name = section.get_by_role("textbox", name="The app's name", exact=True)
        name.fill("app:chatgpt-web")
        name.press("Enter")
        wait_quiet(page)
        areas = section.get_by_role("textbox", name="The app's answer", exact=True)
        expect(areas).to_have_count(3)
        areas.nth(0).fill("The capital of France is Paris.")
        areas.nth(2).fill("That would be Rome, not Milan.")
        areas.nth(2).press("Tab")  # the text areas keep their text on the server
        wait_quiet(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "pasted-answers.png"), full_page=True)
        click_quiet(page, section.get_by_role("button", name="Score these answers"))
        page.get_by_text("1 prompt(s) not answered").wait_for(timeout=60_000)
        page.get_by_text("2 of 2 answers scored").wait_for(timeout=90_000)
        click_quiet(page, page.get_by_role("link", name="See the results"))
        page.get_by_role("heading", name="Leaderboard").wait_for()
        board = page.get_by_test_id("stMarkdownContainer").locator("table").first
        expect(board).to_contain_text("app:chatgpt-web")
        expect(board).not_to_contain_text("scored on")  # no failure, no partial mark
        page.get_by_text("Not answered: spain (no score, not counted as failures).").wait_for()
        heat = page.locator('[data-testid="stDataFrame"]').first
        cells = heat.locator('td[role="gridcell"]')
        cells.filter(has_text="not answered").first.wait_for(state="attached")
        assert cells.filter(has_text="failed").count() == 0
        assert cells.filter(has_text="0.50").count() == 1  # italy-trip: Rome, but names Milan
        page.screenshot(path=str(SHOTS / "pasted-results.png"), full_page=True)
        screenshot(page, "pasted-results")
