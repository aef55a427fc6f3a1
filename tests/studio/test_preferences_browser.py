"""Compare answers in a real browser: pick in three pairs, names hidden, then see the win rate."""

from __future__ import annotations

import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.stats.proportion import wilson
from engine.store import open_store
from tests.fakes.llm_server import FakeLLM
from tests.studio.a11y import axe_source, serious_violations
from tests.studio.browser import click_quiet, new_page, running_studio, screenshot, wait_quiet
from tests.studio.conftest import scripted
from tests.studio.helpers import make_run

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/pairs")
ANSWERS = {
    "fake-a": "New Year's Day is January 1 in the Gregorian calendar. <b>bold?</b>",
    "fake-b": "Other calendars have other new years. Which calendar do you mean?",
}
BLUEPRINT = """title: New year, three ways
---
- id: q1
  prompt: When is New Year's Day?
  should:
    - Names the Gregorian calendar.
    - Is polite.
- id: q2
  prompt: What date does the year begin on?
  should:
    - Names the Gregorian calendar.
    - Is polite.
- id: q3
  prompt: On which day does a new year start?
  should:
    - Names the Gregorian calendar.
    - Is polite.
"""
MODELS = ["openai:fake-a", "openai:fake-b"]


def _run(llm_env: dict[str, str], home: Path) -> str:
    return make_run(
        open_store(home / "studio.db"),
        BLUEPRINT,
        MODELS,
        environ=llm_env,
        judges=["openai:fake-judge"],
        judge=True,
    )


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(screenshot(page, name), SHOTS / f"{name}.png")


def test_three_picks_with_hidden_names_give_a_win_rate_on_the_results_page(
    browser: Any, scripted_llm: FakeLLM, llm_env: dict[str, str], tmp_path: Path
):
    scripted_llm.reply_with(scripted(ANSWERS))
    with ThreadPoolExecutor(1) as pool:  # the browser's event loop owns this thread
        run_id = pool.submit(_run, llm_env, tmp_path).result()
    store = open_store(tmp_path / "studio.db")
    # what a person picks, by the answer they read: the Gregorian one twice, then "the same"
    wanted = ["gregorian", "gregorian", "same"]
    with running_studio(tmp_path, {}) as studio, new_page(browser, height=1800) as page:
        page.goto(f"{studio.url}/preferences?run={run_id}")
        page.get_by_role("heading", name="Compare answers").wait_for()
        for done, want in enumerate(wanted):
            page.get_by_text(f"You have compared {done} of the 3 pairs of this run.").wait_for()
            page.get_by_text("Answer A", exact=True).wait_for()
            wait_quiet(page)
            html = page.content()
            for model in ("fake-a", "fake-b", "fake-judge"):
                assert model not in html  # neither the page nor its widget keys name a model
            answers = page.get_by_test_id("stCode")
            expect(answers).to_have_count(2)
            first, second = answers.nth(0).inner_text(), answers.nth(1).inner_text()
            assert {first.strip(), second.strip()} == set(ANSWERS.values())  # as plain text
            if done == 0:
                expect(page.get_by_text("<b>bold?</b>")).to_have_count(1)  # never as HTML
                expect(page.get_by_text(re.compile("seed|token", re.I))).to_have_count(0)
                assert serious_violations(page, axe_source()) == []
                _shot(page, "compare-answers")
            if want == "same":
                label = "About the same"
            else:
                label = "A is better" if "Gregorian" in first else "B is better"
            click_quiet(page, page.get_by_role("button", name=label))
            page.get_by_text(re.compile(r"Saved your pick")).wait_for()
        page.get_by_text("You have compared every pair of this run. Thank you.").wait_for()
        picks = store.preferences(run_id)
        assert {(p.model_a, p.model_b, p.reviewer) for p in picks} == {
            ("openai:fake-a[temp:0]", "openai:fake-b[temp:0]", "me")  # canonical order
        }
        assert sorted(p.prompt_id for p in picks) == ["q1", "q2", "q3"]
        assert sorted(p.choice for p in picks) == ["a", "a", "same"]  # whatever was shown as A

        click_quiet(page, page.get_by_role("link", name="See what people preferred (Results)"))
        section = page.get_by_role("heading", name="What people preferred")
        section.wait_for()
        wait_quiet(page)
        rate = wilson(2.5, 3)  # two wins and a tie (half) of three picks
        interval = f"{rate.low:.0%} to {rate.high:.0%}"
        row = page.get_by_role("row").filter(has_text=interval)
        expect(row).to_have_count(1)
        expect(row).to_contain_text("83%")
        page.get_by_text("The judges' scores agree with 2 of 3 picks").wait_for()
        section.scroll_into_view_if_needed()
        _shot(page, "preferences-results")
