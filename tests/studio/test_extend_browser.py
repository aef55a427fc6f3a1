"""Add prompts in a real browser: ask for more, read the diff, accept; the YAML and the
Versions panel show them. The fake LLM drafts; the guidance is typed key by key."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.drafting.test_extend import CURRENT, TWO_MORE
from tests.fakes.llm_server import FakeLLM
from tests.fakes.scripted import answer_as
from tests.studio.a11y import AXE, serious_violations
from tests.studio.browser import (
    Studio,
    click_quiet,
    editor_text,
    element_screenshot,
    new_page,
    running_studio,
    screenshot,
    wait_quiet,
)
from tests.studio.test_form_sync_browser import open_file, view

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/converse")


@pytest.fixture(scope="module")
def studio(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> Iterator[tuple[Studio, FakeLLM]]:
    home = tmp_path_factory.mktemp("extend-home")
    with FakeLLM() as fake:
        fake.reply_with(answer_as("drafter", TWO_MORE))
        with running_studio(home, fake.env()) as server:
            yield server, fake


def _shot(page: Any, locator: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(element_screenshot(locator, f"converse-{name}"), SHOTS / f"{name}.png")
    shutil.copyfile(screenshot(page, f"converse-{name}-page"), SHOTS / f"{name}-page.png")


def _type(page: Any, field: Any, text: str) -> None:
    field.click()
    field.press_sequentially(text, delay=10)
    field.press("Enter")
    wait_quiet(page)


def test_ask_for_more_prompts_read_the_diff_accept_and_see_a_new_version(
    browser: Any, studio: tuple[Studio, FakeLLM], tmp_path: Path
):
    server, fake = studio
    with new_page(browser, width=1400, height=2600) as page:
        open_file(page, server.url, tmp_path, CURRENT)
        view(page, "YAML")
        assert editor_text(page) == CURRENT
        click_quiet(page, page.get_by_text("Drafting help: a model drafts, you decide"))
        panel = page.get_by_test_id("stExpander").filter(has_text="Add prompts")
        model = panel.get_by_label("Model", exact=True)
        model.fill("")
        _type(page, model, "openai:drafter")
        guidance = panel.get_by_label("What should the new prompts be about?")
        _type(page, guidance, "two more about edge cases of tax residency")
        click_quiet(page, panel.get_by_role("button", name="Add prompts", exact=True))
        diff = panel.get_by_test_id("stCode").filter(has_text="with the new prompts")
        expect(diff).to_contain_text("+- id: dual", timeout=60_000)
        expect(diff).to_contain_text("+- id: days-2")
        expect(panel.get_by_text("The model proposes 2 new prompts")).to_be_visible()
        assert "two more about edge cases of tax residency" in fake.calls[-1].last_user
        assert editor_text(page) == CURRENT  # shown, not added
        _shot(page, panel, "add-prompts-diff")
        if AXE.is_file():  # the diff and its buttons (scripts/test installs axe)
            assert serious_violations(page, AXE.read_text(encoding="utf-8")) == []
        click_quiet(page, panel.get_by_role("button", name="Add these prompts to the blueprint"))
        page.get_by_text("Added 2 prompts (dual, days-2) as version").wait_for()
        wait_quiet(page)
        text = editor_text(page)
        assert text.startswith(CURRENT)
        assert "- id: dual" in text and "- id: days-2" in text
        assert "Explains split-year treatment." in text
        expect(
            panel.get_by_test_id("stCode").filter(has_text="with the new prompts")
        ).to_have_count(0)
        click_quiet(page, page.get_by_text("Versions", exact=True))
        versions = page.get_by_test_id("stExpander").filter(has_text="Restore this version")
        versions.get_by_text("2 versions.").wait_for()
        cells = versions.locator('td[role="gridcell"]')
        expect(cells.filter(has_text="Added prompts: dual, days-2")).to_have_count(1)
        expect(versions.get_by_test_id("stCode")).to_contain_text("+- id: dual")
        _shot(page, versions, "add-prompts-version")
