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

from engine.run.summary import summarize_run
from engine.store import open_store
from studio.core import runs
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
from tests.studio.test_form_browser import wait_for_yaml
from tests.studio.test_form_sync_browser import open_file
from tests.studio.test_form_sync_browser import view as form_view

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/smallui")
SUMMARIZER_SAYS = "Both did fine, I think. *Model A* was <i>nicer</i> & [kinder](http://x.example)."
DRAFTER_SAYS = "Sure! I would check that answers are kind & careful <3 **Be nice**, please."


def reply(request: FakeRequest) -> FakeReply:
    judged = judge_reply(request, judge_rule)
    if judged is not None:
        return judged
    if request.model == "drafter":
        return FakeReply(text=DRAFTER_SAYS)
    if request.model == "summarizer":
        return FakeReply(text=SUMMARIZER_SAYS)
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
                summarize_run(store, run_id, "openai:summarizer", environ=fake.env())
                return run_id, prepared.run_id

            run_id, rescore_id = pool.submit(both).result()
        with running_studio(home, fake.env()) as studio:
            yield studio, run_id, rescore_id


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with new_page(browser, height=2400) as page:
        yield page


def test_the_shipped_or_example_opens_clean(page: Any, made: tuple[Studio, str, str]):
    studio, _, _ = made
    # the box that opens a blueprint file says the studio's own limit (BLUEPRINT_MAX_INPUT_MB)
    page.goto(studio.url + "/")
    drop = page.get_by_test_id("stFileUploaderDropzoneInstructions").first
    drop.wait_for()
    expect(drop).to_contain_text("32MB")
    expect(drop).not_to_contain_text("200MB")
    # first of the module: a reviewer's verdict (a later test) marks the points to rewrite
    open_example(page, studio.url, "Two good ways to answer")
    expect(page.get_by_text("No problems found.")).to_be_visible()
    marks = page.frame_locator(EDITOR_FRAME).locator(
        ".ace_gutter-cell.ace_error, .ace_gutter-cell.ace_warning, .ace_gutter-cell.ace_info"
    )
    expect(marks).to_have_count(0)


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
    # a summary the model did not format: said unread, its text shown as the model's reply
    summary = page.locator(".st-key-executive-summary")
    expect(summary.get_by_text("The summary could not be read")).to_be_visible()
    expect(summary.get_by_text("The model's reply", exact=True)).to_be_visible()
    expect(summary.get_by_text("Both did fine, I think. *openai:fake-a* was nicer")).to_be_visible()
    # no link and no emphasis from the model (the heading's own anchor link aside)
    expect(summary.locator("a:not([aria-label='Link to heading']), em, i")).to_have_count(0)
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


def _pick(page: Any, box: Any, option: str) -> None:
    """Type `option` into the multiselect `box` key by key and take it with Enter."""
    box.click()
    box.press_sequentially(option, delay=20)
    box.press("Enter")
    box.press("Escape")
    wait_quiet(page)


def test_the_review_score_starts_at_the_judges_score(page: Any, made: tuple[Studio, str, str]):
    studio, run_id, _ = made
    page.goto(f"{studio.url}/results?run={run_id}")
    page.get_by_text("Review the judges").wait_for()
    wait_quiet(page)
    slider = page.get_by_role("slider").first
    slider.wait_for()
    expect(slider).to_have_attribute("aria-valuetext", "0.50")  # nothing picked yet
    box = page.get_by_role("combobox", name="Judged points (one or several)")
    _pick(page, box, "#3 · openai:fake-b")  # the judges gave 0.00
    expect(slider).to_have_attribute("aria-valuetext", "0.00")
    _pick(page, box, "#1 · openai:fake-b")  # the judges gave 1.00: the two average 0.50
    expect(slider).to_have_attribute("aria-valuetext", "0.50")
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


FLOW = """title: Flow lists
---
- id: short
  prompt: Describe tea in a few words.
  should:
    - $word_count_between: [5, 80]
    - - Names a kind of tea.  # lint: ignore[single-element-path]
    - - Says how it tastes.  # lint: ignore[single-element-path]
"""


def test_the_form_picker_describes_functions_and_takes_a_typed_prefix(
    page: Any, made: tuple[Studio, str, str], tmp_path: Path
):
    studio, _, _ = made
    open_file(page, studio.url, tmp_path, FLOW)
    picker = page.get_by_role("combobox", name="Function").first
    expect(picker).to_have_value(re.compile(r"^word_count_between — Graded word count"))
    picker.click()
    page.get_by_role(
        "option", name=re.compile(r"^contains_any_of — At least one substring")
    ).wait_for()
    picker.press_sequentially("icontains_any", delay=30)
    picker.press("Enter")
    wait_quiet(page)
    expect(picker).to_have_value(re.compile(r"^icontains_any_of — At least one substring"))
    text = wait_for_yaml(page, lambda t: "$icontains_any_of" in t)
    assert "$word_count_between" not in text


def test_the_point_buttons_are_whole_and_a_moved_point_keeps_its_flow_list(
    page: Any, made: tuple[Studio, str, str], tmp_path: Path
):
    studio, _, _ = made
    open_file(page, studio.url, tmp_path, FLOW)
    for name in ("Up", "Down"):
        button = page.get_by_role("button", name=name, exact=True).first
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None and box["width"] >= 40 and box["height"] >= 24, (name, box)
        # its label is drawn whole: nothing of it cut off by a narrow column
        assert button.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), name
    into = page.get_by_role("combobox", name="Move into an alternative").first
    into.click()
    click_quiet(page, page.get_by_role("option", name="alternative at item 2"))
    text = wait_for_yaml(page, lambda t: t.count("- - ") == 2 and "      - $word" in t)
    assert "      - $word_count_between: [5, 80]\n" in text, text  # still a flow list
    assert "- 80" not in text


def test_the_or_block_of_the_example_shows_two_alternatives(
    page: Any, made: tuple[Studio, str, str]
):
    studio, _, _ = made
    open_example(page, studio.url, "Two good ways to answer")
    form_view(page, "Form")
    heading = page.get_by_text("Any one of these · 2 alternatives")
    heading.wait_for()
    expect(page.get_by_text("Alternative 1 · all 2 points needed")).to_be_visible()
    expect(page.get_by_text("Alternative 2 · all 2 points needed")).to_be_visible()
    block = (
        page.get_by_test_id("stVerticalBlock")
        .filter(has_text="Any one of these ·")
        .filter(has=page.get_by_role("button", name="Add an alternative"))
        .last
    )
    wait_quiet(page)
    shot(block, "form-or-block")
