"""In a real browser: the results page says which models are too close to call (1, 2=, 2=, 4)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.studio.browser import Studio, click_quiet, new_page, screenshot, studio_server
from tests.studio.test_how_sure import comparison_file

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Studio]:
    with studio_server(tmp_path_factory, "how-sure-home") as server:
        yield server


def test_the_leaderboard_shows_ties_and_says_which_gaps_are_chance(
    browser: Any, studio: Studio, tmp_path: Path
):
    with new_page(browser, height=2000) as page:
        page.goto(studio.url + "/results")
        page.get_by_role("heading", name="Results").wait_for()
        upload = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
        upload.set_input_files(comparison_file(tmp_path / "how-sure_comparison.json"))
        page.get_by_role("heading", name="Leaderboard").wait_for()
        table = page.locator("table").filter(has_text="95% interval").first
        ranks = [
            table.locator("tbody tr").nth(i).locator("td").first.inner_text() for i in range(4)
        ]
        assert ranks == ["1", "2=", "2=", "4"]
        page.get_by_text(
            "best scores higher than close-1, and the gap (0.30, from", exact=False
        ).wait_for()
        page.get_by_text(
            "are too close to call with these 12 prompts", exact=False
        ).first.wait_for()
        page.get_by_text(
            "To tell apart differences of 0.05 you would need about", exact=False
        ).wait_for()
        page.get_by_text("you have 12", exact=False).first.wait_for()
        click_quiet(page, page.get_by_text("Show the averages with their error bars"))
        page.locator('[data-testid="stPlotlyChart"]').first.wait_for()
        screenshot(page, "results-how-sure")
