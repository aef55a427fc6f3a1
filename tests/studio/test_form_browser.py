"""The Form view in a real browser: a new user builds a three-prompt blueprint with an OR
block and a `should_not` point without writing YAML, runs it, and the YAML view shows what
they built, with the note they had written kept."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.blueprint import parse_blueprint
from tests.fakes.llm_replies import FakeReply, FakeRequest, judge_reply
from tests.fakes.llm_server import FakeLLM
from tests.studio.browser import (
    EDITOR_FRAME,
    Studio,
    click_quiet,
    editor_text,
    external_requests,
    new_page,
    screenshot,
    studio_server,
    wait_quiet,
)
from tests.studio.conftest import judge_rule

pytestmark = pytest.mark.browser

NOTE = "# Notes for my team: keep these questions short."
CAPITALS = {"france": "Paris", "spain": "Madrid", "italy": "Rome"}


def reply(request: FakeRequest) -> FakeReply:
    judged = judge_reply(request, judge_rule)
    if judged is not None:
        return judged
    asked = str(request.messages[-1].get("content", "")) if request.messages else ""
    for country, city in CAPITALS.items():
        if country in asked.lower():
            return FakeReply(text=f"The capital is {city}.")
    return FakeReply(text="I do not know.")


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Studio]:
    with FakeLLM() as fake:
        fake.reply_with(reply)
        with studio_server(tmp_path_factory, "form-home", fake.env(key="sk-form-test")) as server:
            yield server


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    with new_page(browser, height=1800) as page:
        yield page


def settle(page: Any) -> None:
    """Wait until the app has finished drawing the page after the last change."""
    page.wait_for_timeout(100)
    wait_quiet(page)


def fill(page: Any, label: str, nth: int, text: str, *, area: bool = False) -> None:
    """Type into the `nth` field called `label` and wait until the page shows it back."""
    settle(page)
    box = page.get_by_label(label, exact=True).nth(nth)
    box.fill(text)
    box.press("Control+Enter" if area else "Enter")
    expect(page.get_by_label(label, exact=True).nth(nth)).to_have_value(text)
    settle(page)


def click(page: Any, name: str, nth: int = 0) -> None:
    settle(page)
    click_quiet(page, page.get_by_role("button", name=name, exact=True).nth(nth))
    settle(page)


def view(page: Any, name: str) -> None:
    click_quiet(page, page.get_by_test_id("stRadio").get_by_text(name, exact=True))


def wait_for_yaml(page: Any, predicate: Any) -> str:
    """Switch to the YAML view and wait until its text satisfies `predicate`."""
    view(page, "YAML")
    page.wait_for_function("() => true")
    for _ in range(100):
        text = editor_text(page)
        if predicate(text):
            return text
        page.wait_for_timeout(100)
    raise AssertionError(editor_text(page))


def test_a_new_user_builds_and_runs_a_blueprint_in_the_form(page: Any, studio: Studio) -> None:
    outside = external_requests(page)
    page.goto(studio.url + "/")
    click(page, "Start from a blank blueprint")
    editor = page.frame_locator(EDITOR_FRAME).locator(".ace_editor")
    editor.wait_for()
    # the one line of YAML this user writes: a note for the team, at the top
    # (inserted as one edit: typed key by key, Enter would accept an autocomplete suggestion)
    editor.evaluate(
        "(el, note) => { el.env.editor.focus(); "
        "el.env.editor.session.insert({row: 0, column: 0}, note); }",
        NOTE + "\n",
    )
    page.wait_for_timeout(1500)  # the editor sends its text after a pause in typing
    settle(page)
    view(page, "Form")
    page.get_by_role("heading", name="Blueprint", exact=True).wait_for()

    fill(page, "Title", 0, "Capitals quiz")
    page.get_by_role("heading", name="Capitals quiz").wait_for()
    fill(page, "Id", 0, "france")
    fill(page, "Question", 0, "What is the capital of France?", area=True)
    fill(page, "Argument", 0, "paris")
    # the two judged points become one "any one of these" block
    for nth in (1, 2):
        click_quiet(page, page.get_by_text("Select to group").nth(nth))
        expect(page.get_by_role("checkbox", name="Select to group").nth(nth)).to_be_checked()
        settle(page)
    click(page, "Make a block", 0)
    page.get_by_text("Any one of these").first.wait_for()
    page.get_by_text("count as ONE item").first.wait_for()

    click(page, "Add a prompt")
    page.get_by_role("heading", name="Prompt 2 · prompt-2").wait_for()
    click(page, "Add a prompt")
    page.get_by_role("heading", name="Prompt 3 · prompt-3").wait_for()

    fill(page, "Id", 1, "spain")
    fill(page, "Question", 1, "What is the capital of Spain?", area=True)
    click(page, "Add a point", 2)  # prompt 2, should
    expect(page.get_by_label("Criterion", exact=True)).to_have_count(3)
    fill(page, "Criterion", 2, "Names Madrid as the capital.")
    click(page, "Add a point", 3)  # prompt 2, should not
    expect(page.get_by_label("Criterion", exact=True)).to_have_count(4)
    fill(page, "Criterion", 3, "Names Barcelona as the capital.")
    page.get_by_text("the answer should not meet this").first.wait_for()

    fill(page, "Id", 2, "italy")
    fill(page, "Question", 2, "What is the capital of Italy?", area=True)
    click(page, "Add a check", 4)  # prompt 3, should
    expect(page.get_by_label("Argument", exact=True)).to_have_count(2)
    fill(page, "Argument", 1, "rome")
    page.get_by_role("heading", name="Prompt 3 · italy").wait_for()
    screenshot(page, "form-built")

    text = wait_for_yaml(page, lambda t: "rome" in t)
    assert text.startswith(NOTE + "\n")
    bp = parse_blueprint(text)
    assert bp.title == "Capitals quiz"
    assert [p.id for p in bp.prompts] == ["france", "spain", "italy"]
    assert [p.path for p in bp.prompts[0].points] == [None, 1, 2]  # two alternatives
    assert [(p.text, p.inverted) for p in bp.prompts[1].points] == [
        ("Names Madrid as the capital.", False),
        ("Names Barcelona as the capital.", True),
    ]
    assert [(p.fn, p.args) for p in bp.prompts[2].points] == [("icontains", "rome")]
    screenshot(page, "form-yaml-view")

    click_quiet(page, page.get_by_role("link", name="Run this blueprint"))
    page.get_by_role("heading", name="The plan").wait_for()
    widget = page.get_by_test_id("stMultiSelect").filter(
        has=page.locator('input[aria-label="Models to run"]')
    )
    click_quiet(
        page, widget.locator("span[data-tag]").first.locator('button[aria-label^="Remove "]')
    )
    box = page.get_by_role("combobox", name="Models to run", exact=True)
    box.fill("openai:fake-a")
    box.press("Enter")
    box.press("Escape")
    click_quiet(page, page.get_by_text("Choose judge models"))
    judges = page.get_by_role("combobox", name="Judge models", exact=True)
    judges.fill("openai:fake-judge")
    judges.press("Enter")
    judges.press("Escape")
    start = page.get_by_role("button", name="Start run")
    expect(start).to_be_enabled()
    click_quiet(page, start)
    page.wait_for_url(re.compile(r".*/run\?run=[\w-]{22,}"))
    page.get_by_text("3 of 3 answers scored").wait_for(timeout=30_000)
    screenshot(page, "form-run-completed")
    assert outside == []
