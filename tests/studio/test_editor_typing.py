"""Typing in the editor: Enter always makes a new line, and marks stay beside their line."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.studio.browser import Studio, screenshot, start_studio, stop_studio

pytestmark = pytest.mark.browser

FRAME = 'iframe[title="code_editor.code_editor"] >> visible=true'


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    home = tmp_path_factory.mktemp("typing-home")
    server = start_studio(home, {}, home / "studio.log")
    try:
        yield server
    finally:
        stop_studio(server)


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1300, "height": 1400})
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def quiet(page: Any) -> None:
    """Wait until no script runs and no element is stale (the page is not being redrawn)."""
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"], [data-stale="true"]')""",
        timeout=60_000,
    )


def ace(page: Any) -> Any:
    return page.frame_locator(FRAME).locator("#REACT_ACE_EDITOR")


def open_example(page: Any, studio: Studio, title: str) -> None:
    page.goto(studio.url + "/")
    card = (
        page.get_by_test_id("stVerticalBlock")
        .filter(has_text=title)
        .filter(has=page.get_by_role("button", name="Start from this example"))
    )
    card.get_by_role("button", name="Start from this example").last.click()
    page.get_by_role("heading", name="Problems").wait_for()
    ace(page).wait_for()


def marked_line_offset(page: Any) -> tuple[int, float]:
    """The first annotated line, and how far its gutter mark sits from its text (pixels)."""
    found = ace(page).evaluate(
        """el => {
          const ed = el.env.editor;
          const row = ed.session.getAnnotations().map(a => a.row).sort((a, b) => a - b)[0];
          if (row === undefined) return null;
          ed.scrollToLine(row, true, false, () => {});
          ed.renderer.updateFull(true);
          const cell = [...el.querySelectorAll('.ace_gutter-cell')]
            .find(c => c.textContent.trim() === String(row + 1));
          const pos = ed.renderer.textToScreenCoordinates(row, 0);
          return cell ? [row + 1, cell.getBoundingClientRect().top - pos.pageY] : [row + 1, 9999];
        }"""
    )
    assert found is not None, "no line is marked"
    return int(found[0]), float(found[1])


def test_enter_after_a_word_the_document_contains_makes_a_new_line(page: Any, studio: Studio):
    open_example(page, studio, "Two good ways to answer")
    before = ace(page).evaluate("el => el.env.editor.getValue()")
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.navigateFileEnd(); }")
    # `th` starts words of the document (the, the, ...); `typ` no word: both were completed
    for typed in ("- id: th", "typo"):
        page.keyboard.type(typed)
        time.sleep(0.8)  # long enough for a live completion popup to open
        quiet(page)  # and for the typed text's round trip to the server to end
        page.keyboard.press("Enter")
        time.sleep(0.3)
    quiet(page)
    after = ace(page).evaluate("el => el.env.editor.getValue()")
    assert after.startswith(before)
    assert re.fullmatch(r"- id: th\n\s*typo\n\s*", after[len(before) :]), after[len(before) :]
    popup = page.frame_locator(FRAME).locator(".ace_autocomplete")
    assert popup.count() == 0 or not popup.first.is_visible()


def test_marks_stay_beside_their_line_after_opening_typing_and_scoring(page: Any, studio: Studio):
    open_example(page, studio, "Two good ways to answer")
    page.wait_for_timeout(500)
    line, offset = marked_line_offset(page)
    assert line == 16 and abs(offset) <= 3, ("after opening", line, offset)
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.gotoLine(14, 40); }")
    page.keyboard.type(" Briefly.")
    page.wait_for_timeout(2500)  # the debounced edit reaches the server and comes back
    line, offset = marked_line_offset(page)
    assert abs(offset) <= 3, ("after typing", line, offset)
    page.get_by_role("button", name="Use the ideal answer").click()
    page.get_by_role("button", name="Score this answer").click()
    page.get_by_text("Function").first.wait_for()
    line, offset = marked_line_offset(page)
    screenshot(page, "editor-marks-after-scoring")
    assert abs(offset) <= 3, ("after scoring", line, offset)
