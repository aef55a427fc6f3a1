"""The Form's "any one of these" block in a real browser: a person builds an OR of two
points by clicking, and a real OR written in YAML (two nested lists) shows as ONE block with
two alternatives. The YAML it writes scores as the best alternative, not as an average."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.blueprint import parse_blueprint
from engine.lint import lint
from tests.studio.browser import (
    EDITOR_FRAME,
    Studio,
    click_quiet,
    element_screenshot,
    new_page,
    open_example,
    studio_server,
)
from tests.studio.test_form_browser import click, settle, view, wait_for_yaml

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/orblock.png"


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Studio]:
    with studio_server(tmp_path_factory, "or-block-home") as server:
        yield server


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    with new_page(browser, height=2200) as page:
        yield page


def block(page: Any) -> Any:
    """The bordered container of the first "any one of these" block."""
    heading = page.get_by_text("Any one of these ·").first
    heading.wait_for()
    # the innermost block holding both its heading and its "Add an alternative" button
    return (
        page.get_by_test_id("stVerticalBlock")
        .filter(has_text="Any one of these ·")
        .filter(has=page.get_by_role("button", name="Add an alternative"))
        .last
    )


def test_two_points_made_a_block_are_two_alternatives(page: Any, studio: Studio) -> None:
    page.goto(studio.url + "/")
    click(page, "Start from a blank blueprint")
    page.frame_locator(EDITOR_FRAME).locator(".ace_editor").wait_for()
    settle(page)
    view(page, "Form")
    page.get_by_role("heading", name="Blueprint", exact=True).wait_for()

    # the two judged points of the blank blueprint: either one is enough
    for nth in (1, 2):
        click_quiet(page, page.get_by_text("Select to group").nth(nth))
        expect(page.get_by_role("checkbox", name="Select to group").nth(nth)).to_be_checked()
        settle(page)
    click(page, "Make a block")
    page.get_by_text("Any one of these · 2 alternatives").wait_for()
    expect(page.get_by_text("Alternative 1 · one point")).to_be_visible()
    expect(page.get_by_text("Alternative 2 · one point")).to_be_visible()
    expect(page.get_by_text("best alternative").first).to_be_visible()
    # a deliberate OR is not fought by lint: no one-point-path warning, no fix that undoes it
    expect(page.get_by_text("alternative path with only one point")).to_have_count(0)
    expect(page.get_by_role("button", name="Apply fix: Make it a required point")).to_have_count(0)

    # a second point in alternative 1 (both needed there), and a third alternative
    click(page, "Add a point to this alternative", 0)
    page.get_by_text("Alternative 1 · all 2 points needed").wait_for()
    click(page, "Add an alternative")
    page.get_by_text("Any one of these · 3 alternatives").wait_for()
    expect(page.get_by_text("Alternative 3 · one point")).to_be_visible()
    settle(page)
    shot = element_screenshot(block(page), "or-block")
    shutil.copyfile(shot, SCREENSHOT)

    text = wait_for_yaml(page, lambda t: t.count("- - ") == 3)
    points = parse_blueprint(text).prompts[0].points
    assert [(p.text or f"${p.fn}", p.path) for p in points] == [
        ("$icontains", None),
        ("Explains the answer in plain words.", 1),
        ("New point", 1),
        ("Does not make up facts.", 2),
        ("New point", 3),
    ]
    # the one-point alternatives carry the comment that tells lint they are meant
    mark = "  # lint: ignore[single-element-path]\n"
    assert "- - Does not make up facts." + mark in text and "- - New point" + mark in text
    assert "single-element-path" not in {d.code for d in lint(text)}


def test_an_or_written_in_yaml_shows_as_one_block(page: Any, studio: Studio) -> None:
    open_example(page, studio.url, "Two good ways to answer")
    view(page, "Form")
    page.get_by_text("Any one of these · 2 alternatives").wait_for()
    expect(page.get_by_text("Any one of these ·")).to_have_count(1)
    expect(page.get_by_text("Alternative 1 · all 2 points needed")).to_be_visible()
    expect(page.get_by_text("Alternative 2 · all 2 points needed")).to_be_visible()
    inside = block(page)
    expect(inside.get_by_label("Criterion", exact=True)).to_have_count(3)
    expect(inside.get_by_label("Function", exact=True)).to_have_count(1)
