"""Build by conversation in a real browser: the assistant asks, then proposes; the author reads
the diff and applies it (a new version); the conversation is still there after a reload.
The fake LLM is the assistant; messages are typed key by key."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.drafting.test_drafting import GOOD
from tests.drafting.test_extend import CURRENT
from tests.fakes.llm_replies import FakeRequest
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
    wait_quiet,
)
from tests.studio.test_conversation_panel import PRICES
from tests.studio.test_form_sync_browser import open_file, view

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/converse")
QUESTION = "Kind to whom: <b>strangers</b> at the door, or people locked out of their own home?"


def assistant(request: FakeRequest) -> str:
    """Asks first; proposes once the author has said who the answers are for."""
    return GOOD if "Strangers" in request.last_user else QUESTION


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Studio]:
    home = tmp_path_factory.mktemp("converse-home")
    (home / "settings.toml").write_text(PRICES, encoding="utf-8")  # the quick try's budget
    with FakeLLM() as fake:
        fake.reply_with(answer_as("assistant", assistant))
        with running_studio(home, fake.env()) as server:
            yield server


def _say(page: Any, panel: Any, text: str) -> None:
    box = panel.get_by_label("Your message", exact=True)
    box.click()
    box.press_sequentially(text, delay=10)
    box.press("Control+Enter")
    wait_quiet(page)
    click_quiet(page, panel.get_by_role("button", name="Send"))
    wait_quiet(page)


def _open_panel(page: Any, studio: Studio, tmp_path: Path, field: str, value: str) -> Any:
    """Open CURRENT, open the conversation panel and type `value` key by key into `field`."""
    open_file(page, studio.url, tmp_path, CURRENT)
    view(page, "YAML")
    click_quiet(page, page.get_by_text("Build by conversation"))
    panel = page.get_by_test_id("stExpander").filter(has_text="Build by conversation")
    box = panel.get_by_label(field, exact=True)
    box.fill("")
    box.press_sequentially(value, delay=10)
    box.press("Enter")
    wait_quiet(page)
    return panel


def test_ask_answer_propose_apply_and_find_the_conversation_again(
    browser: Any, studio: Studio, tmp_path: Path
):
    with new_page(browser, width=1500, height=2600) as page:
        panel = _open_panel(page, studio, tmp_path, "Assistant model", "openai:assistant")
        _say(page, panel, "I want to test that models refuse to help with break-ins, kindly.")
        question = panel.get_by_test_id("stChatMessage").filter(has_text="Kind to whom")
        expect(question).to_contain_text("<b>strangers</b>", timeout=60_000)  # as written
        expect(panel.locator("b", has_text="strangers")).to_have_count(0)
        expect(panel.get_by_role("button", name="Apply this proposal")).to_have_count(0)
        _say(page, panel, "Strangers. Please propose a blueprint.")
        diff = panel.get_by_test_id("stCode").filter(has_text="+++ proposed")
        expect(diff).to_contain_text("+title: Kind refusals", timeout=60_000)
        expect(diff).to_contain_text("-title: Tax residency")
        assert editor_text(page) == CURRENT  # shown, not applied
        SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(element_screenshot(panel, "converse-chat"), SHOTS / "chat-panel.png")
        if AXE.is_file():  # the chat, its diff and its buttons (scripts/test installs axe)
            assert serious_violations(page, AXE.read_text(encoding="utf-8")) == []
        click_quiet(page, panel.get_by_role("button", name="Apply this proposal"))
        page.get_by_text("Applied the assistant's proposal as version").wait_for()
        wait_quiet(page)
        assert editor_text(page).startswith("title: Kind refusals")
        expect(panel.get_by_text("Its proposal was applied.")).to_be_visible()
        click_quiet(page, page.get_by_text("Versions", exact=True))
        versions = page.get_by_test_id("stExpander").filter(has_text="Restore this version")
        expect(
            versions.locator('td[role="gridcell"]').filter(
                has_text="Applied the assistant's proposal (message 4)"
            )
        ).to_have_count(1)
        page.reload()
        page.get_by_role("heading", name="Problems").wait_for()
        wait_quiet(page)
        click_quiet(page, page.get_by_text("Build by conversation"))
        panel = page.get_by_test_id("stExpander").filter(has_text="Build by conversation")
        expect(panel.get_by_test_id("stChatMessage")).to_have_count(4)
        expect(panel.get_by_text("Its proposal was applied.")).to_be_visible()


def test_a_quick_try_runs_the_draft_and_says_its_results_in_the_chat(
    browser: Any, studio: Studio, tmp_path: Path
):
    with new_page(browser, width=1500, height=2600) as page:
        panel = _open_panel(
            page, studio, tmp_path, "Quick try models", "openai:fake-a, openai:fake-b"
        )
        click_quiet(page, panel.get_by_role("button", name="Quick try", exact=True))
        said = panel.get_by_test_id("stChatMessage").filter(has_text="Quick try results")
        expect(said).to_contain_text("(1 prompt, 2 models)", timeout=180_000)
        expect(said).to_contain_text("prompt days scored 0.00 or less on every model")
        expect(said).to_contain_text('"Mentions the 183-day rule." scored 0 on every model')
        link = said.get_by_role("link", name="Open the full results")
        expect(link).to_have_attribute("href", re.compile(r"/results\?run=[A-Za-z0-9_-]+$"))
        shots = Path("/tmp/shots/quicktry")
        shots.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(element_screenshot(panel, "quick-try"), shots / "quick-try-chat.png")
        with page.expect_popup() as opened:  # a link button opens a new tab
            link.click()
        results = opened.value
        results.get_by_text("Tax residency").first.wait_for(timeout=60_000)
        assert "/results?run=" in results.url
