"""Smaller things a person hits (issue 31, item 4), each seen in a real browser.

One studio serves the module. Its store holds a judged run of the two-ways example and a
re-score of it, made before the studio starts; the fake LLM answers, judges and drafts.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.store import open_store
from studio import runs
from tests.fakes.llm_replies import FakeReply, FakeRequest, judge_reply
from tests.fakes.llm_server import FakeLLM
from tests.studio.browser import (
    EDITOR_FRAME,
    Studio,
    ace,
    click_quiet,
    editor_text,
    element_screenshot,
    new_page,
    open_example,
    running_studio,
    wait_quiet,
)
from tests.studio.conftest import ANSWERS, judge_rule, run_or_paths
from tests.studio.helpers import example, wait_for_status

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/smallui")
PROSE = "Sure! I would check that answers are kind & careful <3 **Be nice**, <i>always</i>"
DRAFTER_SAYS = "Sure! I would check that answers are kind & careful <3 **Be nice**, please."


def reply(request: FakeRequest) -> FakeReply:
    judged = judge_reply(request, judge_rule)
    if judged is not None:
        return judged
    if request.model == "drafter":
        return FakeReply(text=DRAFTER_SAYS)
    return FakeReply(text=ANSWERS.get(request.model, "I am not sure."))


def shot(locator: Any, name: str) -> Path:
    """Save an element's screenshot under /tmp/shots/smallui/ (and tests/artifacts/)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    shutil.copyfile(element_screenshot(locator, f"smallui-{name}"), path)
    return path


@pytest.fixture(scope="module")
def made(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> Iterator[tuple[Studio, str, str]]:
    """The studio, the id of a judged run, and the id of a re-score of it."""
    home = tmp_path_factory.mktemp("smallui-home")
    with FakeLLM() as fake, pytest.MonkeyPatch.context() as env:
        fake.reply_with(reply)
        for name, value in fake.env().items():
            env.setenv(name, value)
        store = open_store(home / "studio.db")
        with ThreadPoolExecutor(1) as pool:  # the browser's event loop owns this thread

            def both() -> tuple[str, str]:
                run_id = run_or_paths(store, fake.env())
                prepared = runs.rescore(
                    store, run_id, example("or-paths.yml"), "or-paths.yml", start=True
                )
                assert prepared.run_id is not None, prepared.problems
                wait_for_status(store, prepared.run_id, ("completed",), timeout=120)
                return run_id, prepared.run_id

            run_id, rescore_id = pool.submit(both).result()
        with running_studio(home, fake.env()) as studio:
            yield studio, run_id, rescore_id


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with new_page(browser, height=2400) as page:
        yield page


def test_the_leaderboard_bars_are_bars_not_text(page: Any, made: tuple[Studio, str, str]):
    studio, run_id, _ = made
    page.goto(f"{studio.url}/results?run={run_id}")
    page.get_by_role("heading", name="Leaderboard").wait_for()
    wait_quiet(page)
    table = page.locator("table").filter(has_text="95% interval").first
    expect(table).to_be_visible()
    assert "█" not in table.inner_text() and "▌" not in table.inner_text()
    bars = table.locator("td .stMarkdownColoredBackground")
    expect(bars).to_have_count(2)  # both models average 1.00: two full bars
    for i in range(2):
        colour = bars.nth(i).evaluate("el => getComputedStyle(el).backgroundColor")
        assert colour == "rgb(31, 95, 204)"  # the studio's accent, drawn solid
        box = bars.nth(i).bounding_box()
        assert box is not None and box["width"] > 80 and box["height"] > 8
    shot(table, "leaderboard")
