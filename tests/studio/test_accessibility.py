"""Every page passes an automated WCAG 2.1 AA check (axe-core): no serious or critical violation."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.store import open_store
from tests.studio.a11y import axe_source, serious_violations
from tests.studio.browser import (
    EDITOR_FRAME,
    Studio,
    ace,
    click_quiet,
    new_page,
    open_example,
    running_studio,
    screenshot,
    wait_quiet,
)
from tests.studio.helpers import example, make_run

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Studio, str]]:
    home = tmp_path_factory.mktemp("a11y-home")
    run_id = make_run(open_store(home / "studio.db"), example("functions.yml"), ["ideal"])
    with running_studio(home, {}) as server:
        yield server, run_id


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with new_page(browser, width=1300, height=1400) as page:
        yield page


def settle(page: Any) -> None:
    """Wait until the page is drawn and quiet: no script running, no faded (stale) element.

    Streamlit fades stale elements while a script reruns; checked then, their faded colours
    would be reported as contrast violations that no user sees once the page has settled.
    """
    page.get_by_role("heading").first.wait_for()
    wait_quiet(page)
    page.wait_for_timeout(300)
    wait_quiet(page)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/run",
        "/results",
        "/history",
        "/settings",
        "/results?run={run}",
        "/run?run={run}",
        "/compare",
        "/compare?base={run}&cand={run}",
    ],
)
def test_page_has_no_serious_accessibility_violation(
    studio: tuple[Studio, str], page: Any, path: str
):
    server, run_id = studio
    page.goto(server.url + path.format(run=run_id))
    settle(page)
    assert serious_violations(page, axe_source()) == []


def test_editor_with_a_blueprint_and_a_scored_answer_has_no_serious_violation(
    studio: tuple[Studio, str], page: Any
):
    server, _ = studio
    open_example(page, server.url, "Two good ways to answer")
    click_quiet(page, page.get_by_role("button", name="Use the ideal answer"))
    click_quiet(page, page.get_by_role("button", name="Score this answer"))
    page.get_by_text("Function").first.wait_for()
    settle(page)
    assert serious_violations(page, axe_source()) == []


def test_an_example_is_opened_with_the_keyboard_alone(studio: tuple[Studio, str], page: Any):
    server, _ = studio
    page.goto(server.url + "/")
    settle(page)
    start = page.get_by_role("button", name="Start from this example").first
    for _ in range(60):  # Tab through the page until the first example's button has focus
        page.keyboard.press("Tab")
        if start.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached “Start from this example”")
    page.keyboard.press("Enter")
    page.get_by_role("heading", name="Problems").wait_for()
    frame = page.frame_locator('iframe[title="code_editor.code_editor"] >> visible=true')
    assert "title:" in frame.locator("#REACT_ACE_EDITOR").evaluate("el => el.env.editor.getValue()")


def _second_line_becomes(page: Any, start: str, timeout_s: float = 10.0) -> None:
    """Wait until the editor's second line starts with `start` (keys reach the frame later)."""
    deadline = time.monotonic() + timeout_s
    while True:
        line = str(ace(page).evaluate("el => el.env.editor.session.getLine(1)"))
        if line.startswith(start):
            return
        if time.monotonic() > deadline:
            state = ace(page).evaluate(
                "el => [el.env.editor.getValue().slice(0, 120), el.env.editor.isFocused(), "
                "JSON.stringify(el.env.editor.getCursorPosition())]"
            )
            pytest.fail(f"the second line is {line!r}, not {start!r}... (editor: {state!r})")
        page.wait_for_timeout(50)


def test_the_editor_is_no_keyboard_trap(studio: tuple[Studio, str], page: Any):
    """Tab indents inside the editor; Esc then Tab leaves it; Enter on it resumes typing."""
    server, _ = studio
    open_example(page, server.url, "Two good ways to answer")
    editor = ace(page)
    text_input = page.frame_locator(EDITOR_FRAME).locator("textarea.ace_text-input")
    editor.evaluate("el => { el.env.editor.focus(); el.env.editor.gotoLine(2, 0); }")
    expect(text_input).to_be_focused()
    page.keyboard.press("Tab")
    _second_line_becomes(page, "  title:")
    # the edit reaches the app after the editor's 250 ms debounce and reruns the page: let
    # that rerun finish first, or its redraw can land between the refocus and the key below
    page.wait_for_timeout(500)
    wait_quiet(page)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    # focus has left the editor's frame for the next control of the page
    active = page.evaluate(
        "() => [document.activeElement.tagName, document.activeElement.textContent.trim()]"
    )
    # (the next control after the editor: a panel under it, or the Run link)
    assert active[0] in ("A", "BUTTON", "SUMMARY", "INPUT", "TEXTAREA"), active
    page.keyboard.press("Shift+Tab")  # back onto the editor (not into its text)
    expect(text_input).not_to_be_focused()
    page.keyboard.press("Enter")  # and into its text again
    expect(text_input).to_be_focused()  # (a loaded machine may take a moment to move it)
    page.keyboard.type("#")
    _second_line_becomes(page, "  #title:")
    screenshot(page, "editor-keyboard")
