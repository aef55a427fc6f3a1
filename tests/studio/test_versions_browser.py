"""Versions in a real browser: edit, pause, edit again; both edits are versions; see the diff
between them; restore the text the draft was opened with (itself a new version)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.studio.browser import (
    Studio,
    ace,
    click_quiet,
    editor_text,
    new_page,
    open_example,
    screenshot,
    studio_server,
    wait_quiet,
)

pytestmark = pytest.mark.browser

# the studio's editing pause for this test (30 s by default); every key reaches the studio
# as it is typed, so on a loaded machine two keys' saves can be seconds apart: keep it well
# above that
PAUSE_S = 6.0


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    env = {"BLUEPRINT_VERSION_PAUSE_S": str(PAUSE_S)}
    with studio_server(tmp_path_factory, "versions-home", env) as server:
        yield server


def type_at_end(page: Any, text: str) -> None:
    """Type at the end of the editor and wait for the edit's round trip to the server."""
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.navigateFileEnd(); }")
    page.keyboard.type(text)
    page.wait_for_timeout(2500)  # the debounced edit reaches the server
    wait_quiet(page)


def test_edit_pause_edit_then_compare_and_restore_the_first(browser: Any, studio: Studio):
    with new_page(browser, width=1400, height=2200) as page:
        open_example(page, studio.url, "Two good ways to answer")
        opened = editor_text(page)
        type_at_end(page, "# first edit\n")
        time.sleep(PAUSE_S)  # a pause in editing: the next edit starts a new version
        type_at_end(page, "# second edit\n")
        assert editor_text(page) == opened + "# first edit\n# second edit\n"
        click_quiet(page, page.get_by_text("Versions", exact=True))
        panel = page.get_by_test_id("stExpander").filter(has_text="Restore this version")
        panel.get_by_text("3 versions.").wait_for()  # opened, first edit, second edit
        cells = panel.locator('td[role="gridcell"]')
        expect(cells.filter(has_text="Edits (typing)")).to_have_count(2)
        diff = panel.get_by_test_id("stCode")
        expect(diff).to_contain_text("+# second edit")
        assert "+# first edit" not in diff.inner_text()  # the two edits are two versions
        screenshot(page, "versions-diff")
        picker = panel.get_by_role("combobox", name="Version", exact=True)
        click_quiet(page, picker)
        page.get_by_role("option", name="Version 1", exact=True).click()
        expect(diff).to_contain_text("+# first edit")  # version 1 → version 3: both edits
        click_quiet(page, panel.get_by_role("button", name="Restore this version"))
        page.get_by_text("Restored version 1 as version 4.").wait_for()
        wait_quiet(page)
        assert editor_text(page) == opened
        panel.get_by_text("4 versions.").wait_for()
