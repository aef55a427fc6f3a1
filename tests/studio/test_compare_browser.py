"""The edit-run-compare loop in a real browser: run, edit one point, run again, compare.

A user runs the functions example with the offline `ideal` model, changes one point in the
editor, runs again, selects both runs in History and opens their comparison: exactly that
point is removed + added, every other point is the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.studio.browser import Studio, external_requests, screenshot, start_studio, stop_studio

pytestmark = pytest.mark.browser

EDITOR_FRAME = 'iframe[title="code_editor.code_editor"] >> visible=true'
EXAMPLE = "Capital cities, checked by functions"


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Studio]:
    home = tmp_path_factory.mktemp("compare-home")
    server = start_studio(home, {}, home / "studio.log")
    try:
        yield server
    finally:
        stop_studio(server)


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1800})
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def ace(page: Any) -> Any:
    return page.frame_locator(EDITOR_FRAME).locator(".ace_editor")


def run_with_ideal(page: Any) -> str:
    """From the editor: run the open blueprint on the `ideal` model; return the run id."""
    page.get_by_role("link", name="Run this blueprint").click()
    page.get_by_role("heading", name="The plan").wait_for()
    label = "Models to run"
    widget = page.get_by_test_id("stMultiSelect").filter(
        has=page.locator(f'input[aria-label="{label}"]')
    )
    chips = widget.locator("span[data-tag]")
    chips.first.wait_for()
    while chips.count():
        left = chips.count()
        chips.first.locator('button[aria-label^="Remove "]').click()
        expect(chips).to_have_count(left - 1)
    box = page.get_by_role("combobox", name=label, exact=True)
    box.fill("ideal")
    box.press("Enter")
    box.press("Escape")
    expect(chips).to_have_count(1)
    start = page.get_by_role("button", name="Start run")
    expect(start).to_be_enabled()
    start.click()
    page.wait_for_url(re.compile(r".*/run\?run=[\w-]{22,}"))
    page.get_by_text("2 of 2 answers scored").wait_for()
    return str(page.url.split("run=")[1].split("&")[0])


def select_rows(page: Any, rows: list[int]) -> None:
    """Tick rows of the History table (a canvas grid: click each row's selection box)."""
    grid = page.get_by_test_id("stDataFrame").first
    grid.wait_for()
    box = grid.bounding_box()
    assert box is not None
    height = 35  # Streamlit's row height (the header has the same)
    for row in rows:
        page.mouse.click(box["x"] + 18, box["y"] + height * (row + 1) + height / 2)
        page.wait_for_timeout(400)


def test_edit_one_point_run_again_and_compare_from_history(page: Any, studio: Studio):
    outside = external_requests(page)
    page.goto(studio.url + "/")
    card = (
        page.get_by_test_id("stVerticalBlock")
        .filter(has_text=EXAMPLE)
        .filter(has=page.get_by_role("button", name="Start from this example"))
    )
    # the innermost block that names the example is its card (the outer blocks come first)
    card.last.get_by_role("button", name="Start from this example").click()
    ace(page).wait_for()
    assert "title: Capital cities" in ace(page).evaluate("el => el.env.editor.getValue()")
    first = run_with_ideal(page)

    # back to the draft: change `$icontains: paris` into `$icontains: france` by typing
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Editor").click()
    ace(page).wait_for()
    text = ace(page).evaluate("el => el.env.editor.getValue()")
    line = text.splitlines().index("    - $icontains: paris") + 1
    ace(page).evaluate(
        f"el => {{ el.env.editor.focus(); el.env.editor.gotoLine({line}, 0); "
        "el.env.editor.navigateLineEnd(); }"
    )
    for _ in "paris":
        page.keyboard.press("Backspace")
    page.keyboard.type("france")
    edited = text.replace("$icontains: paris", "$icontains: france")
    expect(page.get_by_role("link", name="Run this blueprint")).to_be_visible()
    page.wait_for_timeout(1500)  # the editor sends its text after a pause in typing
    assert ace(page).evaluate("el => el.env.editor.getValue()") == edited
    second = run_with_ideal(page)
    assert second != first

    page.get_by_test_id("stSidebarNav").get_by_role("link", name="History").click()
    page.get_by_role("heading", name="History").wait_for()
    select_rows(page, [0, 1])
    link = page.get_by_role("link", name=re.compile("Compare these two runs"))
    link.click()
    page.wait_for_url(re.compile(rf".*/compare\?base={first}&cand={second}"))
    page.get_by_role("heading", name="Points").wait_for()
    page.get_by_text("5 same, 0 changed, 1 added, 1 removed").wait_for()
    points = page.get_by_test_id("stDataFrame").nth(2)
    cells = points.locator('td[role="gridcell"]')
    cells.filter(has_text='icontains("france")').first.wait_for(state="attached")
    rows = points.locator('tr:has(td[role="gridcell"])')
    shown = sorted(
        " | ".join(rows.nth(i).inner_text().split("\n")[:4]) for i in range(rows.count())
    )
    assert len(shown) == 2, shown
    assert "added" in shown[0] and 'icontains("france")' in shown[0]
    assert "removed" in shown[1] and 'icontains("paris")' in shown[1]
    screenshot(page, "compare-runs")
    assert outside == []
