"""Typing in the editor key by key, as a person does: what is typed is what the studio keeps.

Enter always makes a new line, marks stay beside their line, and the text of record (what
"Download" gives) is the text typed. The key-by-key tests type at a person's pace (a delay per
key, a pause after each line).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.store import open_store
from studio.core.gallery import BLANK
from tests.studio.browser import (
    EDITOR_FRAME,
    Studio,
    ace,
    click_quiet,
    download,
    editor_text,
    element_screenshot,
    new_page,
    open_example,
    screenshot,
    studio_server,
    wait_quiet,
)

pytestmark = pytest.mark.browser

KEY_DELAY_MS = 70  # a brisk typist
LINE_PAUSE_S = 0.4  # a person looks at the line before the next one


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


def start_blank(page: Any, url: str) -> None:
    """From the home page, start a blank blueprint and wait for its editor."""
    page.goto(url + "/")
    click_quiet(page, page.get_by_role("button", name="Start from a blank blueprint"))
    ace(page).wait_for()
    wait_quiet(page)


def type_lines(page: Any, lines: Sequence[str], *, enter_after_last: bool = True) -> None:
    """Type `lines` key by key, pressing Enter between them (and after the last)."""
    for i, line in enumerate(lines):
        page.keyboard.type(line, delay=KEY_DELAY_MS)
        if enter_after_last or i < len(lines) - 1:
            page.keyboard.press("Enter")
        time.sleep(LINE_PAUSE_S)


def type_blueprint(page: Any, lines: Sequence[str]) -> str:
    """Type `lines` (Enter after each); check the editor holds them; return the text."""
    type_lines(page, lines)
    typed = "\n".join(lines) + "\n"
    assert wait_for_text(page, typed) == typed
    return typed


def clear_editor(page: Any) -> None:
    """Click into the text, select all and delete it, as a person starting over does."""
    ace(page).locator(".ace_content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    time.sleep(LINE_PAUSE_S)


def text_of_record(page: Any) -> str:
    """The text the studio keeps: what its Download button gives, once the page is quiet."""
    wait_quiet(page)
    got = download(page, page.get_by_role("button", name="Download"))
    return Path(got.path()).read_text(encoding="utf-8")


def wait_for_text(page: Any, expected: str, timeout_s: float = 30.0) -> str:
    """Wait until the editor holds `expected` (a loaded machine may lag); return its text."""
    deadline = time.monotonic() + timeout_s
    text = editor_text(page)
    while text != expected and time.monotonic() < deadline:
        time.sleep(0.2)
        text = editor_text(page)
    return text


def problems_panel(page: Any) -> Any:
    """The column of the page that lists the problems."""
    return (
        page.get_by_test_id("stColumn")
        .filter(has=page.get_by_role("heading", name="Problems"))
        .last
    )


def line_geometry(page: Any, line_text: str, number: int) -> dict[str, Any]:
    """Where the text line reading `line_text`, gutter cell `number` and the marks are drawn.

    Read from the drawn page as it stands (nothing is re-rendered first): the tops of the
    text line and of the gutter cell, the line height, and the tops of the underlines.
    """
    found = ace(page).evaluate(
        """(el, [text, number]) => {
          const top = e => e.getBoundingClientRect().top;
          const line = [...el.querySelectorAll('.ace_text-layer .ace_line')]
            .find(l => l.textContent === text);
          const cell = [...el.querySelectorAll('.ace_gutter-cell')]
            .find(c => c.textContent.trim() === String(number));
          return {
            line: line ? top(line) : null,
            cell: cell ? top(cell) : null,
            cellClass: cell ? cell.className : '',
            height: el.env.editor.renderer.lineHeight,
            marks: [...el.querySelectorAll('.bp-marker-error')].map(top),
            annotated: el.env.editor.session.getAnnotations().map(a => a.row + 1),
          };
        }""",
        [line_text, number],
    )
    assert found["line"] is not None, f"no drawn line reads {line_text!r}"
    assert found["cell"] is not None, f"no gutter cell {number}"
    return dict(found)


def test_marks_and_line_numbers_sit_on_their_lines_after_select_all_delete_and_typing(
    page: Any, studio: Studio
) -> None:
    start_blank(page, studio.url)
    clear_editor(page)
    lines = [
        "title: Typed anew",
        "---",
        "- id: one",
        "  prompt: Say hello.",
        "  should:",
        "    - Says hello",
        "- id: two",
        '  prompt: "Say bye.',
        "  should:",
        "    - Says bye",
    ]
    typed = type_blueprint(page, lines)
    panel = problems_panel(page)
    panel.get_by_text("line 8, column 11").first.wait_for(timeout=30_000)
    wait_quiet(page)
    element_screenshot(ace(page), "editor-typed-with-mark")
    screenshot(page, "editor-typed-with-mark-page")
    at = line_geometry(page, '  prompt: "Say bye.', 8)
    assert at["annotated"] == [8], at
    assert "ace_error" in at["cellClass"], at
    # the line number 8 and its ✗ are beside the line they belong to, not a row below
    assert abs(at["cell"] - at["line"]) <= 3, at
    # and the underline is on that line too
    assert at["marks"], at
    assert all(at["line"] - 3 <= m <= at["line"] + at["height"] for m in at["marks"]), at
    # every other line number is beside its line too (the first and the last typed)
    for number, text in ((1, lines[0]), (len(lines), lines[-1])):
        other = line_geometry(page, text, number)
        assert abs(other["cell"] - other["line"]) <= 3, (number, other)
    assert text_of_record(page) == typed


def test_lines_typed_with_their_indentation_come_out_as_typed(page: Any, studio: Studio) -> None:
    start_blank(page, studio.url)
    clear_editor(page)
    lines = [
        "title: Greetings",
        "description: |",
        "  Two lines typed",
        "  one key at a time.",
        "---",
        "- id: hello",
        "  prompt: Say hello.",
        "  should:",
        "    - Says hello",
        "    - $icontains: hello",
        "- id: bye",
        "  prompt: Say bye.",
        "  should:",
        "    - Says bye",
    ]
    # each Enter used to keep the line's indentation, and the spaces typed went on top of it
    typed = type_blueprint(page, lines)
    assert text_of_record(page) == typed
    problems_panel(page).get_by_text("No problems found").wait_for(timeout=30_000)


def test_shift_tab_takes_back_what_tab_gave(page: Any, studio: Studio) -> None:
    start_blank(page, studio.url)
    clear_editor(page)
    type_lines(page, ["title: Tabs", "---", "- id: one", "  prompt: Say hi.", "  should:"])
    # Tab indents by 2 spaces each time
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.type("- Says hi", delay=KEY_DELAY_MS)
    head = "title: Tabs\n---\n- id: one\n  prompt: Say hi.\n  should:\n"
    assert wait_for_text(page, head + "    - Says hi") == head + "    - Says hi"
    # Shift+Tab takes 2 back, a second takes 2 more; Tab gives them again
    page.keyboard.press("Shift+Tab")
    assert wait_for_text(page, head + "  - Says hi") == head + "  - Says hi"
    page.keyboard.press("Shift+Tab")
    assert wait_for_text(page, head + "- Says hi") == head + "- Says hi"
    page.keyboard.press("Home")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert wait_for_text(page, head + "    - Says hi") == head + "    - Says hi"
    # on a line of its own: Tab gives 2 spaces, Shift+Tab takes those 2 and no more
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert wait_for_text(page, head + "    - Says hi\n  ") == head + "    - Says hi\n  "
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert wait_for_text(page, head + "    - Says hi\n") == head + "    - Says hi\n"
    assert text_of_record(page) == head + "    - Says hi\n"


def test_typing_the_closing_quote_lint_asks_for_closes_the_string(
    page: Any, studio: Studio
) -> None:
    start_blank(page, studio.url)
    clear_editor(page)
    type_lines(
        page,
        ["title: Quotes", "---", "- id: one", '  prompt: "Say bye.', "  should:", "    - Says bye"],
        enter_after_last=False,
    )
    typed = 'title: Quotes\n---\n- id: one\n  prompt: "Say bye.\n  should:\n    - Says bye'
    # typing `"` gave `""` (a pair), so the prompt read `"Say bye."` plus a stray quote
    assert wait_for_text(page, typed) == typed
    panel = problems_panel(page)
    panel.get_by_text("is never closed").first.wait_for(timeout=30_000)
    # the person goes back up to the prompt's end and types the quote lint asks for
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("End")
    time.sleep(LINE_PAUSE_S)
    page.keyboard.type('"', delay=KEY_DELAY_MS)
    fixed = typed.replace('"Say bye.', '"Say bye."')
    assert wait_for_text(page, fixed) == fixed
    panel.get_by_text("No problems found").wait_for(timeout=30_000)
    assert page.get_by_text("line up").count() == 0
    assert text_of_record(page) == fixed


@pytest.mark.parametrize("where", ["home page", "toolbar"])
def test_the_first_keys_typed_after_blank_blueprint_are_kept(
    page: Any, studio: Studio, where: str
) -> None:
    if where == "home page":
        page.goto(studio.url + "/")
        click_quiet(page, page.get_by_role("button", name="Start from a blank blueprint"))
    else:
        open_example(page, studio.url, "Two good ways to answer")
        click_quiet(page, page.get_by_role("button", name="New"))
        click_quiet(page, page.get_by_role("button", name="Blank blueprint"))
    # a person starts typing as soon as the blank text shows, while the page may still be busy
    ace(page).wait_for()
    assert wait_for_text(page, BLANK) == BLANK
    ace(page).locator(".ace_content").click()
    page.keyboard.press("Control+End")
    type_lines(page, ["# My notes", "- id: second", "  prompt: Another question."])
    typed = BLANK + "# My notes\n- id: second\n  prompt: Another question.\n"
    assert wait_for_text(page, typed) == typed
    assert text_of_record(page) == typed


def saved_draft_when(studio: Studio, expected: str, timeout_s: float = 30.0) -> bool:
    """Whether a draft in the studio's store comes to hold exactly `expected`."""
    store = open_store(studio.home / "studio.db")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(store.draft(d.id) == expected for d in store.list_drafts()):
            return True
        time.sleep(0.2)
    return False


def test_keys_typed_at_machine_speed_all_reach_the_saved_draft(page: Any, studio: Studio) -> None:
    """Bursts with no delay between keys (a fast typist, a key held down, a test script).

    Each key starts a run of the page while the one before may still be saving: the saved
    draft must end as the screen does, not with an older run's text (seen: `franc` kept
    while the screen showed `france`).
    """
    open_example(page, studio.url, "Two good ways to answer")
    ace(page).wait_for()
    wait_quiet(page)
    text = editor_text(page)
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.navigateFileEnd(); }")
    for burst in ("# notes typed quickly", " and more of them", " and the last few"):
        page.keyboard.type(burst)  # no delay between keys
        text += burst
        assert wait_for_text(page, text) == text
        wait_quiet(page)
        assert saved_draft_when(studio, text), f"the saved draft lost keys of {burst!r}"
    assert text_of_record(page) == text
