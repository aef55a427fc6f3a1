"""The Form's fields show the blueprint as it is now, in a real browser, typed key by key.

After a change that did not come from a field (Undo, a restored version, an edit in the YAML
view, a one-click fix, another draft opened, another tab saving the same draft) every field
shows the current YAML, and nothing undone or replaced comes back on a later Tab, rerun or
switch of views.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.blueprint import parse_blueprint
from tests.studio.browser import (
    Studio,
    ace,
    click_quiet,
    editor_text,
    new_page,
    screenshot,
    studio_server,
    wait_quiet,
)

pytestmark = pytest.mark.browser

BLUEPRINT = """\
title: Capitals
description: Three capitals.
models:
  - openai:gpt-4.1-mini
temperature: 3
---
- id: france
  prompt: What is the capital of France?
  should:
    - $icontains: paris
- id: spain
  prompt: What is the capital of Spain?
  should:
    - $icontains: madrid
- id: italy
  prompt: What is the capital of Italy?
  should:
    - $icontains: rome
"""
STALE = "This field showed an older version of the blueprint"


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    with studio_server(tmp_path_factory, "form-sync-home") as server:
        yield server


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    with new_page(browser, height=2000) as page:
        yield page


def settle(page: Any) -> None:
    """Wait until the app has finished drawing the page after the last change."""
    page.wait_for_timeout(150)
    wait_quiet(page)


def open_file(page: Any, url: str, tmp_path: Any, text: str = BLUEPRINT) -> None:
    """Open `text` as a file from the computer: a draft of its own, in the Form view."""
    path = tmp_path / "capitals.yml"
    path.write_text(text, encoding="utf-8")
    page.goto(url + "/")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(path)
    page.get_by_role("heading", name="Problems").wait_for()
    settle(page)
    view(page, "Form")


def view(page: Any, name: str) -> None:
    """Switch the editor to the YAML or the Form view."""
    click_quiet(page, page.get_by_test_id("stRadio").get_by_text(name, exact=True))
    settle(page)
    if name == "Form":
        page.get_by_role("heading", name="Blueprint", exact=True).wait_for()
    else:
        ace(page).wait_for()


def field(page: Any, label: str) -> Any:
    """The first field called `label` (the header's, for Title and Description)."""
    return page.get_by_label(label, exact=True).first


def type_in(page: Any, label: str, text: str) -> None:
    """Click into a field, replace what it holds by typing `text` key by key, then Tab."""
    settle(page)
    box = field(page, label)
    box.click()
    page.keyboard.press("Control+A")
    box.press_sequentially(text, delay=15)
    page.keyboard.press("Tab")
    settle(page)


def tab_through(page: Any, label: str) -> None:
    """Click into a field and leave it with Tab, changing nothing."""
    settle(page)
    field(page, label).click()
    page.keyboard.press("Tab")
    settle(page)


def click(page: Any, name: str) -> None:
    settle(page)
    click_quiet(page, page.get_by_role("button", name=name, exact=True).first)
    settle(page)


def heading(page: Any, title: str) -> None:
    page.get_by_role("heading", name=title, exact=True).wait_for()


def yaml_text(page: Any) -> str:
    """Switch to the YAML view and read its text (after the page has settled)."""
    view(page, "YAML")
    return editor_text(page)


def title_of(text: str) -> str | None:
    return parse_blueprint(text).title


def test_undo_twice_then_switch_views_brings_nothing_back(page: Any, studio: Studio, tmp_path):
    open_file(page, studio.url, tmp_path)
    type_in(page, "Title", "First title")
    heading(page, "First title")
    type_in(page, "Title", "Second title")
    heading(page, "Second title")
    click(page, "Undo")
    heading(page, "First title")
    expect(field(page, "Title")).to_have_value("First title")
    click(page, "Undo")
    heading(page, "Capitals")
    expect(field(page, "Title")).to_have_value("Capitals")
    screenshot(page, "form-sync-undo")
    assert title_of(yaml_text(page)) == "Capitals"
    view(page, "Form")
    expect(field(page, "Title")).to_have_value("Capitals")
    tab_through(page, "Title")
    type_in(page, "Description", "After two undos.")
    text = yaml_text(page)
    assert title_of(text) == "Capitals"
    assert parse_blueprint(text).description == "After two undos."


def test_restore_a_version_then_edit_another_field(page: Any, studio: Studio, tmp_path):
    open_file(page, studio.url, tmp_path)
    type_in(page, "Title", "Changed title")
    heading(page, "Changed title")
    click_quiet(page, page.get_by_text("Versions", exact=True))
    panel = page.get_by_test_id("stExpander").filter(has_text="Restore this version")
    panel.get_by_text("2 versions.").wait_for()
    click_quiet(page, panel.get_by_role("button", name="Restore this version"))
    page.get_by_text("Restored version 1 as version 3.").wait_for()
    settle(page)
    heading(page, "Capitals")
    expect(field(page, "Title")).to_have_value("Capitals")
    type_in(page, "Description", "Restored, then described.")
    text = yaml_text(page)
    assert title_of(text) == "Capitals"
    assert parse_blueprint(text).description == "Restored, then described."


def test_a_title_edited_in_yaml_shows_in_the_form_and_tab_keeps_it(
    page: Any, studio: Studio, tmp_path
):
    open_file(page, studio.url, tmp_path)
    type_in(page, "Title", "Typed in the form")
    heading(page, "Typed in the form")
    view(page, "YAML")
    # select the title's value on line 1 and type the new one over it, key by key
    ace(page).evaluate(
        "el => { const e = el.env.editor; e.focus(); e.gotoLine(1, 7); "
        "e.selection.selectLineEnd(); }"
    )
    page.keyboard.type("Typed in YAML", delay=15)
    page.wait_for_timeout(1500)  # the editor sends its text after a pause in typing
    settle(page)
    heading(page, "Typed in YAML")
    view(page, "Form")
    expect(field(page, "Title")).to_have_value("Typed in YAML")
    tab_through(page, "Title")
    type_in(page, "Description", "Edited after the YAML.")
    heading(page, "Typed in YAML")
    expect(field(page, "Title")).to_have_value("Typed in YAML")
    text = yaml_text(page)
    assert title_of(text) == "Typed in YAML"
    assert parse_blueprint(text).description == "Edited after the YAML."


def test_a_one_click_fix_shows_in_the_form(page: Any, studio: Studio, tmp_path):
    open_file(page, studio.url, tmp_path)
    temperature = "Temperature; empty for the default"
    expect(field(page, temperature)).to_have_value("3")
    type_in(page, temperature, "2.5")
    expect(field(page, temperature)).to_have_value("2.5")
    click(page, "Apply fix: Use 2")
    page.get_by_text("Applied: Use 2").wait_for()
    expect(field(page, temperature)).to_have_value("2")
    type_in(page, "Title", "Fixed")
    heading(page, "Fixed")
    expect(field(page, temperature)).to_have_value("2")
    text = yaml_text(page)
    assert title_of(text) == "Fixed"
    assert parse_blueprint(text).temperature == 2


def test_opening_another_draft_shows_its_fields(page: Any, studio: Studio, tmp_path):
    open_file(page, studio.url, tmp_path)
    type_in(page, "Title", "My capitals")
    heading(page, "My capitals")
    click_quiet(page, page.get_by_role("button", name="New"))
    click(page, "Two good ways to answer")
    heading(page, "Two good ways to answer")
    expect(field(page, "Title")).to_have_value("Two good ways to answer")
    expect(page.get_by_label("Id", exact=True)).to_have_count(1)
    expect(page.get_by_label("Id", exact=True)).to_have_value("new-year")
    tab_through(page, "Title")
    type_in(page, "Id", "new-years-day")
    text = yaml_text(page)
    assert title_of(text) == "Two good ways to answer"
    assert [p.id for p in parse_blueprint(text).prompts] == ["new-years-day"]


def test_two_tabs_on_one_draft(browser: Any, studio: Studio, tmp_path):
    with new_page(browser, height=2000) as first:
        open_file(first, studio.url, tmp_path)
        type_in(first, "Title", "Started in tab one")
        heading(first, "Started in tab one")
        second = first.context.new_page()
        second.goto(first.url)
        heading(second, "Started in tab one")
        settle(second)
        view(second, "Form")
        type_in(second, "Title", "Changed in tab two")
        heading(second, "Changed in tab two")
        # tab one still shows the older text: its change is refused, not applied over it
        type_in(first, "Description", "Written in tab one")
        first.get_by_text(STALE).wait_for()
        screenshot(first, "form-sync-two-tabs")
        heading(first, "Changed in tab two")
        expect(field(first, "Title")).to_have_value("Changed in tab two")
        expect(field(first, "Description")).to_have_value("Three capitals.")
        type_in(first, "Description", "Written in tab one")
        expect(field(first, "Description")).to_have_value("Written in tab one")
        text = yaml_text(first)
        assert title_of(text) == "Changed in tab two"
        assert parse_blueprint(text).description == "Written in tab one"
        # tab two, too, showed the older text: its change is refused, then made again
        type_in(second, "Id", "paris")
        second.get_by_text(STALE).wait_for()
        expect(field(second, "Description")).to_have_value("Written in tab one")
        type_in(second, "Id", "paris")
        text = yaml_text(second)
        assert title_of(text) == "Changed in tab two"
        assert parse_blueprint(text).description == "Written in tab one"
        assert parse_blueprint(text).prompts[0].id == "paris"
