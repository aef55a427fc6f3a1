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


def test_the_results_page_speaks_to_a_personal_user(page: Any, made: tuple[Studio, str, str]):
    studio, run_id, _ = made
    page.goto(f"{studio.url}/results?run={run_id}")
    page.get_by_role("heading", name="Leaderboard").wait_for()
    wait_quiet(page)
    # share links: personal mode has no team members to offer them to
    click_quiet(page, page.get_by_text("Share links (read-only"))
    page.get_by_role("button", name="Create share link").wait_for()
    expect(page.get_by_text("Team members (logged in)")).to_have_count(0)
    expect(page.get_by_text("anyone with the link who can reach this studio")).to_be_visible()
    # the upload box says the studio's own limit, not Streamlit's 200MB
    click_quiet(page, page.get_by_text("Open a comparison file (from Blueprint Studio or Weval)"))
    drop = page.get_by_test_id("stFileUploaderDropzoneInstructions")
    expect(drop).to_contain_text("64MB")
    expect(drop).not_to_contain_text("200MB")


def _slider_value(page: Any) -> str:
    return str(page.get_by_role("slider").first.get_attribute("aria-valuetext"))


def test_the_review_score_starts_at_the_judges_score(page: Any, made: tuple[Studio, str, str]):
    studio, run_id, _ = made
    page.goto(f"{studio.url}/results?run={run_id}")
    page.get_by_text("Review the judges").wait_for()
    wait_quiet(page)
    expect(page.get_by_role("slider").first).to_have_attribute("aria-valuetext", "0.50")
    box = page.get_by_role("combobox", name="Judged points (one or several)")
    box.click()
    box.press_sequentially("#3 · openai:fake-b", delay=20)  # the judges gave 0.00
    box.press("Enter")
    box.press("Escape")
    wait_quiet(page)
    expect(page.get_by_role("slider").first).to_have_attribute("aria-valuetext", "0.00")
    box.click()
    box.press_sequentially("#1 · openai:fake-b", delay=20)  # the judges gave 1.00
    box.press("Enter")
    box.press("Escape")
    wait_quiet(page)
    expect(page.get_by_role("slider").first).to_have_attribute("aria-valuetext", "0.50")
    click_quiet(page, page.get_by_text("Give my own score"))
    click_quiet(page, page.get_by_role("button", name="Save verdict"))
    page.get_by_text("Saved your verdict (score 0.50) on 2 point(s).").wait_for()
    wait_quiet(page)
    legend = page.get_by_text("“0.50 → 0.25 reviewed”")
    expect(legend).to_contain_text("“0.50 ✓ reviewed”")


def test_a_rescore_links_back_to_its_run_by_name(page: Any, made: tuple[Studio, str, str]):
    studio, run_id, rescore_id = made
    page.goto(f"{studio.url}/results?run={rescore_id}")
    back = page.get_by_role("link", name=re.compile("^Re-scored from the run "))
    back.wait_for()
    expect(back).to_contain_text("Two good ways to answer · ")
    expect(back).not_to_contain_text(run_id)
    click_quiet(page, back)
    page.wait_for_url(re.compile(rf".*run={run_id}"))
    expect(page.get_by_role("link", name=re.compile("^Re-scored from"))).to_have_count(0)


SIX_PROBLEMS = """title: Six problems
---
- id: one
  prompt: Say hi
  shuold:
    - Says hi.
- id: two
  prompt: Say bye
  should:
    - $contains
- id: three
  prompt: Count
  should:
    - - Counts to three.
    - - Counts to four.
    - $no_such_function: x
"""


def _open_blank_and_type(page: Any, url: str, text: str) -> None:
    """Start from a blank blueprint, clear it, and type `text` line by line as a person does."""
    page.goto(url + "/")
    click_quiet(page, page.get_by_role("button", name="Start from a blank blueprint"))
    ace(page).wait_for()
    wait_quiet(page)
    ace(page).evaluate("el => { el.env.editor.focus(); el.env.editor.selectAll(); }")
    page.keyboard.press("Delete")
    for line in text.splitlines():
        # Ace keeps the previous line's indent on Enter: go to the line's start first
        page.keyboard.press("Home")
        page.keyboard.press("Shift+Home")
        page.keyboard.press("Delete")
        page.keyboard.type(line, delay=5)
        page.keyboard.press("Enter")
    for _ in range(100):
        if editor_text(page).strip() == text.strip():
            break
        page.wait_for_timeout(100)
    assert editor_text(page).strip() == text.strip()


def test_the_shipped_or_example_opens_clean(page: Any, made: tuple[Studio, str, str]):
    studio, _, _ = made
    open_example(page, studio.url, "Two good ways to answer")
    expect(page.get_by_text("No problems found.")).to_be_visible()
    marks = page.frame_locator(EDITOR_FRAME).locator(
        ".ace_gutter-cell.ace_error, .ace_gutter-cell.ace_warning, .ace_gutter-cell.ace_info"
    )
    expect(marks).to_have_count(0)


def test_every_problem_is_listed_and_tooltips_speak_plain_words(
    page: Any, made: tuple[Studio, str, str]
):
    studio, _, _ = made
    _open_blank_and_type(page, studio.url, SIX_PROBLEMS)
    page.get_by_text(re.compile(r"^\d+ errors?")).first.wait_for()
    wait_quiet(page)
    places = page.get_by_text(re.compile(r"· line \d+, column \d+$"))
    summary = page.get_by_test_id("stAlert").filter(has_text=re.compile(r"errors?|warnings?"))
    said = summary.first.inner_text()
    total = sum(int(n) for n in re.findall(r"(\d+) (?:errors?|warnings?|notes?)", said))
    assert total >= 6, said
    expect(places).to_have_count(total)
    # none of them is hidden in a box that scrolls: each card lies in the page's own flow
    clipped = places.evaluate_all(
        """els => els.filter(el => {
             for (let p = el.parentElement; p; p = p.parentElement) {
               const s = getComputedStyle(p);
               if (['auto', 'scroll', 'hidden'].includes(s.overflowY)
                   && p.scrollHeight > p.clientHeight + 2 && p !== document.scrollingElement
                   && p.tagName !== 'BODY' && p.tagName !== 'HTML'
                   && !p.matches('[data-testid="stMain"], [data-testid="stAppViewContainer"], section'))
                 return true;
             }
             return false;
           }).length"""
    )
    assert clipped == 0
    # hover the misspelt key's mark: the tooltip says it in plain words
    mark = page.frame_locator(EDITOR_FRAME).locator(".ace_gutter-cell.ace_error").first
    mark.hover()
    tip = page.frame_locator(EDITOR_FRAME).locator(".ace_tooltip").first
    tip.wait_for()
    text = tip.inner_text()
    assert "“should”" in text and "`" not in text and "[" not in text, text


def test_drafting_help_refuses_in_plain_words_and_shows_the_reply(
    page: Any, made: tuple[Studio, str, str]
):
    studio, _, _ = made
    open_example(page, studio.url, "Two good ways to answer")
    click_quiet(page, page.get_by_text("Drafting help: a model drafts, you decide"))
    model = page.get_by_label("Model", exact=True)
    model.fill("")
    model.press_sequentially("openai:drafter", delay=10)
    model.press("Enter")
    goal = page.get_by_label("Draft a blueprint from a goal")
    goal.press_sequentially("Check that answers are kind.", delay=10)
    goal.press("Control+Enter")
    wait_quiet(page)
    click_quiet(page, page.get_by_role("button", name="Draft a blueprint"))
    error = page.get_by_text("written as prose, not as a blueprint in YAML")
    error.wait_for()
    expect(page.get_by_text("Document must be")).to_have_count(0)
    expect(page.get_by_text("What the model replied")).to_be_visible()
    code = page.locator("code").filter(has_text="kind & careful <3 **Be nice**")
    expect(code).to_have_count(1)  # as the model wrote it: no bold, no entity, no tag
    expect(page.locator("strong", has_text="Be nice")).to_have_count(0)
