"""Typing in the editor: Enter always makes a new line, and marks stay beside their line."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.studio.browser import (
    EDITOR_FRAME,
    Studio,
    ace,
    click_quiet,
    new_page,
    open_example,
    screenshot,
    studio_server,
    wait_quiet,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    with studio_server(tmp_path_factory, "typing-home") as server:
        yield server


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    with new_page(browser, width=1300, height=1400) as page:
        yield page


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
    open_example(page, studio.url, "Two good ways to answer")
    before = ace(page).evaluate("el => el.env.editor.getValue()")
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.navigateFileEnd(); }")
    # `th` starts words of the document (the, the, ...); `typ` no word: both were completed
    for typed in ("- id: th", "typo"):
        page.keyboard.type(typed)
        time.sleep(0.8)  # long enough for a live completion popup to open
        wait_quiet(page)  # and for the typed text's round trip to the server to end
        page.keyboard.press("Enter")
        time.sleep(0.3)
    wait_quiet(page)
    after = ace(page).evaluate("el => el.env.editor.getValue()")
    assert after.startswith(before)
    assert re.fullmatch(r"- id: th\n\s*typo\n\s*", after[len(before) :]), after[len(before) :]
    popup = page.frame_locator(EDITOR_FRAME).locator(".ace_autocomplete")
    assert popup.count() == 0 or not popup.first.is_visible()


def test_marks_stay_beside_their_line_after_opening_typing_and_scoring(page: Any, studio: Studio):
    open_example(page, studio.url, "Two good ways to answer")
    # the example opens clean: delete the comment that silences its OR note, key by key
    silencer = "  # lint: ignore[or-block-with-required]"
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.gotoLine(17, 200); }")
    for _ in silencer:
        page.keyboard.press("Backspace")
    page.wait_for_timeout(2500)  # the debounced edit reaches the server and comes back
    line, offset = marked_line_offset(page)
    assert line == 17 and abs(offset) <= 3, ("after the note came", line, offset)
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.gotoLine(14, 40); }")
    page.keyboard.type(" Briefly.")
    page.wait_for_timeout(2500)  # the debounced edit reaches the server and comes back
    line, offset = marked_line_offset(page)
    assert abs(offset) <= 3, ("after typing", line, offset)
    click_quiet(page, page.get_by_role("button", name="Use the ideal answer"))
    click_quiet(page, page.get_by_role("button", name="Score this answer"))
    page.get_by_text("Function").first.wait_for()
    line, offset = marked_line_offset(page)
    screenshot(page, "editor-marks-after-scoring")
    assert abs(offset) <= 3, ("after scoring", line, offset)
