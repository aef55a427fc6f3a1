"""The edit-run-compare loop in a real browser: run, edit one point, run again, compare.

A user runs the functions example with the offline `ideal` model, changes one point in the
editor, runs again, selects both runs in History and opens their comparison: exactly that
point is removed + added, every other point is the same.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.store import open_store
from tests.studio.browser import (
    Studio,
    ace,
    click_quiet,
    editor_text,
    external_requests,
    new_page,
    open_example,
    screenshot,
    studio_server,
    wait_quiet,
)

pytestmark = pytest.mark.browser

EXAMPLE = "Capital cities, checked by functions"


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Studio]:
    with studio_server(tmp_path_factory, "compare-home") as server:
        yield server


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    with new_page(browser, height=1800) as page:
        yield page


def run_with_ideal(page: Any) -> str:
    """From the editor: run the open blueprint on the `ideal` model; return the run id."""
    click_quiet(page, page.get_by_role("link", name="Run this blueprint"))
    page.get_by_role("heading", name="The plan").wait_for()
    wait_quiet(page)
    label = "Models to run"
    widget = page.get_by_test_id("stMultiSelect").filter(
        has=page.locator(f'input[aria-label="{label}"]')
    )
    chips = widget.locator("span[data-tag]")
    chips.first.wait_for()
    while chips.count():
        left = chips.count()
        click_quiet(page, chips.first.locator('button[aria-label^="Remove "]'))
        expect(chips).to_have_count(left - 1)
    box = page.get_by_role("combobox", name=label, exact=True)
    box.fill("ideal")
    box.press("Enter")
    box.press("Escape")
    expect(chips).to_have_count(1)
    start = page.get_by_role("button", name="Start run")
    expect(start).to_be_enabled()
    click_quiet(page, start)
    page.wait_for_url(re.compile(r".*/run\?run=[\w-]{22,}"))
    page.get_by_text("2 of 2 answers scored").wait_for()
    return str(page.url.split("run=")[1].split("&")[0])


def selected_count(page: Any) -> int | None:
    """How many History rows are selected, read from what the page offers (None: busy)."""
    if page.get_by_role("link", name=re.compile("Compare these two runs")).count():
        return 2
    if page.get_by_role("link", name="Open its results").count():
        return 1
    if page.get_by_text("Select a row to open its results").count():
        return 0
    if page.get_by_text("Select two rows to compare them, or one").count():
        return 3
    return None


def select_rows(page: Any, rows: list[int]) -> None:
    """Tick rows of the History table (a canvas grid: click each row's selection box).

    Each click is made on a quiet page and its effect is read back; a click that a redraw
    swallowed is made again.
    """
    grid = page.get_by_test_id("stDataFrame").first
    grid.wait_for()
    height = 35  # Streamlit's row height (the header has the same)
    for done, row in enumerate(rows, start=1):
        for _ in range(3):
            wait_quiet(page)
            if selected_count(page) == done:
                break
            box = grid.bounding_box()
            assert box is not None
            page.mouse.click(box["x"] + 18, box["y"] + height * (row + 1) + height / 2)
            wait_quiet(page)
            if selected_count(page) == done:
                break
        assert selected_count(page) == done, f"row {row} could not be selected"


def edit_the_paris_point(page: Any, studio: Studio) -> None:
    """Back in the editor, change `$icontains: paris` into `$icontains: france` by typing."""
    click_quiet(page, page.get_by_test_id("stSidebarNav").get_by_role("link", name="Editor"))
    ace(page).wait_for()
    wait_quiet(page)
    text = editor_text(page)
    line = text.splitlines().index("    - $icontains: paris") + 1
    ace(page).evaluate(
        f"el => {{ el.env.editor.focus(); el.env.editor.gotoLine({line}, 0); "
        "el.env.editor.navigateLineEnd(); }"
    )
    for _ in "paris":  # at machine speed: every key must still reach the saved draft
        page.keyboard.press("Backspace")
    page.keyboard.type("france")
    edited = text.replace("$icontains: paris", "$icontains: france")
    expect(page.get_by_role("link", name="Run this blueprint")).to_be_visible()
    page.wait_for_timeout(1500)  # the editor sends its text after a pause in typing
    wait_quiet(page)
    assert editor_text(page) == edited
    # and the studio has it (its autosave), so the next run runs the edited text
    store = open_store(studio.home / "studio.db")
    deadline = time.monotonic() + 30
    while not any(store.draft(d.id) == edited for d in store.list_drafts()):
        assert time.monotonic() < deadline, "the edit never reached the studio"
        page.wait_for_timeout(200)
    wait_quiet(page)


def assert_one_point_replaced(page: Any) -> None:
    """The comparison page shows exactly the edited point as removed + added."""
    page.get_by_role("heading", name="Points").wait_for()
    page.get_by_text("5 same, 0 changed, 1 added, 1 removed").wait_for()
    points = page.locator('[data-testid="cmp-points"]')
    points.locator("td").filter(has_text='icontains("france")').first.wait_for()
    rows = points.locator("tbody tr")
    shown = sorted(
        " | ".join(rows.nth(i).locator("td").all_inner_texts()[:4]) for i in range(rows.count())
    )
    assert len(shown) == 2, shown
    assert "added" in shown[0] and 'icontains("france")' in shown[0]
    assert "removed" in shown[1] and 'icontains("paris")' in shown[1]


def test_edit_one_point_run_again_and_compare_from_history(page: Any, studio: Studio):
    outside = external_requests(page)
    open_example(page, studio.url, EXAMPLE)
    assert "title: Capital cities" in editor_text(page)
    first = run_with_ideal(page)

    edit_the_paris_point(page, studio)
    second = run_with_ideal(page)
    assert second != first

    click_quiet(page, page.get_by_test_id("stSidebarNav").get_by_role("link", name="History"))
    page.get_by_role("heading", name="History").wait_for()
    select_rows(page, [0, 1])
    click_quiet(page, page.get_by_role("link", name=re.compile("Compare these two runs")))
    page.wait_for_url(re.compile(rf".*/compare\?base={first}&cand={second}"))
    assert_one_point_replaced(page)
    # the run pickers are built when their expander opens
    click_quiet(page, page.get_by_text("Pick two runs"))
    expect(page.get_by_role("combobox", name="Baseline run")).to_be_visible()
    screenshot(page, "compare-runs")
    assert outside == []


def test_edit_one_point_rescore_and_compare(page: Any, studio: Studio):
    """Edit a point, re-score the first run's answers with the draft (nothing generated), compare."""
    outside = external_requests(page)
    open_example(page, studio.url, EXAMPLE)
    first = run_with_ideal(page)
    edit_the_paris_point(page, studio)

    click_quiet(page, page.get_by_test_id("stSidebarNav").get_by_role("link", name="Results"))
    page.get_by_role("heading", name="Leaderboard").wait_for()
    assert f"run={first}" in page.url or page.get_by_text(first).count()
    click_quiet(page, page.get_by_text("Re-score with the current draft"))
    page.get_by_text("0 answers generated").wait_for()
    click_quiet(page, page.get_by_role("button", name="Start the re-score"))
    click_quiet(page, page.get_by_role("link", name="See the re-score"))
    page.wait_for_url(lambda url: "/results?run=" in url and first not in url)
    second = str(page.url.split("run=")[1].split("&")[0])
    back = page.get_by_role("link", name=re.compile("^Re-scored from the run "))
    back.wait_for()
    assert f"run={first}" in (back.get_attribute("href") or "")

    page.goto(f"{studio.url}/compare?base={first}&cand={second}")
    assert_one_point_replaced(page)
    screenshot(page, "compare-rescore")
    assert outside == []
