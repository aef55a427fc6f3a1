"""Untrusted text stays text: script and image tags in answers and blueprints never run.

A model answers with `<script>window.__pwned=1</script><img src=x onerror=...>`, the
blueprint carries the same text in its title, description, prompt and points, and an opened
comparison file carries it in model and prompt ids. On every page that shows them, and in the
downloaded report, `window.__pwned` must stay undefined and nothing may fetch `x`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.fakes.llm_replies import FakeReply, FakeRequest, first_word_rule, judge_reply
from tests.fakes.llm_server import FakeLLM
from tests.studio.browser import (
    EDITOR_FRAME,
    Studio,
    click_quiet,
    download,
    new_page,
    screenshot,
    studio_server,
    wait_quiet,
)

pytestmark = pytest.mark.browser

HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
MARKDOWN = "![x](x.png) [link](javascript:window.__pwned=3)"
BLUEPRINT = f"""\
title: 'Safety {HOSTILE} {MARKDOWN}'
description: '{HOSTILE}'
models: [openai:fake-a]
---
- id: xss
  prompt: 'Repeat this: {HOSTILE} {MARKDOWN}'
  ideal: '{HOSTILE}'
  should:
    - $contains: '<script>'
    - 'Mentions {HOSTILE}'
    - - $icontains: '<img'
      - 'Says <b>bold</b> {HOSTILE}'
    - - 'Refuses [click](javascript:alert(1)) ![x](http://192.0.2.1/x.png)'
"""


def reply(request: FakeRequest) -> FakeReply:
    judged = judge_reply(request, first_word_rule())
    if judged is not None:
        return FakeReply(text=judged.text + "\n" + HOSTILE)
    return FakeReply(text=f"Sure: {HOSTILE}")


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Studio]:
    with FakeLLM() as fake:
        fake.reply_with(reply)
        with studio_server(tmp_path_factory, "safety-home", fake.env()) as server:
            yield server


@pytest.fixture
def page(browser: Any, studio: Studio) -> Iterator[Any]:
    with new_page(browser, accept_downloads=True) as page:
        page.fetched_x = []
        page.on(
            "request",
            lambda r: page.fetched_x.append(r.url) if re.search(r"/x(\.png)?$", r.url) else None,
        )
        yield page


def assert_not_pwned(page: Any, where: str) -> None:
    """Neither the page nor any of its frames ran the injected code or fetched `x`."""
    page.wait_for_timeout(300)  # give an onerror handler the time to fire, if one existed
    assert page.evaluate("() => window.__pwned") is None, where
    for frame in page.frames:
        assert frame.evaluate("() => window.__pwned") is None, (where, frame.url)
    if page.locator(EDITOR_FRAME).count():
        inside = page.frame_locator(EDITOR_FRAME).locator("body")
        assert inside.evaluate("() => window.__pwned") is None, where
    assert page.fetched_x == [], where  # type: ignore[attr-defined]


def test_hostile_text_never_runs_anywhere(page: Any, studio: Studio, browser: Any, tmp_path: Path):
    page.goto(studio.url + "/")
    click_quiet(page, page.get_by_role("button", name="Start from a blank blueprint"))
    editor = page.frame_locator(EDITOR_FRAME).locator(".ace_editor")
    editor.wait_for()
    editor.evaluate("(el, t) => el.env.editor.setValue(t, -1)", BLUEPRINT)
    page.get_by_role("heading", name=re.compile(r"^Safety")).wait_for()
    page.get_by_text("window.__pwned=1", exact=False).first.wait_for()
    assert editor.evaluate("el => el.env.editor.getValue()") == BLUEPRINT
    # hover every gutter mark, so Ace draws its tooltips too
    for mark in (
        page.frame_locator(EDITOR_FRAME)
        .locator(
            ".ace_gutter-cell.ace_error, .ace_gutter-cell.ace_warning, .ace_gutter-cell.ace_info"
        )
        .all()
    ):
        mark.hover()
    assert_not_pwned(page, "editor")
    # try a response made of the hostile text
    wait_quiet(page)
    page.get_by_label("An answer to score").fill(HOSTILE)
    click_quiet(page, page.get_by_role("button", name="Score this answer"))
    page.get_by_text("Score without judges").wait_for()
    assert_not_pwned(page, "try a response")
    screenshot(page, "safety-editor")

    # run it, judged, and read every view of the results
    click_quiet(page, page.get_by_role("link", name="Run this blueprint"))
    page.get_by_role("heading", name="The plan").wait_for()
    click_quiet(page, page.get_by_text("Choose judge models"))
    box = page.get_by_role("combobox", name="Judge models", exact=True)
    box.fill("openai:fake-judge")
    box.press("Enter")
    box.press("Escape")
    expect(page.get_by_test_id("stMetricValue").nth(2)).to_have_text("3")
    assert_not_pwned(page, "run plan")
    click_quiet(page, page.get_by_role("button", name="Start run"))
    page.get_by_text("1 of 1 answers scored").wait_for(timeout=30_000)
    assert_not_pwned(page, "run progress")
    click_quiet(page, page.get_by_role("link", name="See the results", exact=True))
    page.get_by_role("heading", name="Leaderboard").wait_for()
    assert_not_pwned(page, "results")
    for tab in ["Why this score", "Answers side by side", "Time & cost", "Points × models"]:
        click_quiet(page, page.get_by_role("tab", name=tab))
        page.wait_for_timeout(800)
        page.get_by_role("tab", name=tab, selected=True).wait_for()
        if tab == "Answers side by side":
            page.get_by_text(f"Sure: {HOSTILE}", exact=True).first.wait_for()
        assert_not_pwned(page, f"results: {tab}")
    click_quiet(page, page.get_by_text("The judges' reasons for every model"))
    assert_not_pwned(page, "results: judges' reasons")
    screenshot(page, "safety-results")

    # the history table
    click_quiet(page, page.get_by_test_id("stSidebarNav").get_by_role("link", name="History"))
    page.get_by_role("heading", name="History").wait_for()
    page.get_by_test_id("stDataFrame").wait_for()
    assert_not_pwned(page, "history")

    # the downloaded report, opened from disk with scripts allowed
    page.go_back()
    page.get_by_role("heading", name="Leaderboard").wait_for()
    report = tmp_path / "report.html"
    download(page, page.get_by_role("button", name="Download report (HTML)")).save_as(report)
    assert HOSTILE not in report.read_text(encoding="utf-8")
    offline = browser.new_context(offline=True)
    try:
        view = offline.new_page()
        view.goto(report.as_uri())
        for summary in view.locator("summary").all():
            summary.click()
        view.get_by_text(f"Sure: {HOSTILE}", exact=True).first.wait_for()
        view.wait_for_timeout(300)
        assert view.evaluate("() => window.__pwned") is None
        screenshot(view, "safety-report")
    finally:
        offline.close()


def test_a_hostile_comparison_file_is_shown_as_text(page: Any, studio: Studio, tmp_path: Path):
    hostile_file = tmp_path / "![x](x.png)<img src=x onerror=window.__pwned=4>.json"
    hostile_file.write_text(
        json.dumps(
            {
                "configId": "x",
                "configTitle": f"File {HOSTILE}",
                "description": HOSTILE,
                "promptContexts": {HOSTILE: [{"role": "user", "content": HOSTILE}]},
                "allFinalAssistantResponses": {HOSTILE: {HOSTILE: HOSTILE}},
                "evaluationResults": {
                    "llmCoverageScores": {
                        HOSTILE: {
                            HOSTILE: {
                                "avgCoverageExtent": 0.5,
                                "pointAssessments": [
                                    {
                                        "keyPointText": HOSTILE,
                                        "coverageExtent": 0.5,
                                        "reflection": HOSTILE,
                                        "pathId": HOSTILE,
                                    }
                                ],
                            }
                        }
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    page.goto(studio.url + "/results")
    page.get_by_role("heading", name="Results").wait_for()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(hostile_file)
    page.get_by_role("heading", name="Leaderboard").wait_for()
    page.get_by_text("Opened ![x](x.png)<img src=x", exact=False).wait_for()
    assert_not_pwned(page, "opened file")
    for tab in ["Why this score", "Answers side by side"]:
        click_quiet(page, page.get_by_role("tab", name=tab))
        page.get_by_role("tab", name=tab, selected=True).wait_for()
        page.wait_for_timeout(800)
        assert_not_pwned(page, f"opened file: {tab}")
    screenshot(page, "safety-opened-file")
    # a file that is not a comparison gets a clear message
    other = tmp_path / "package.json"
    other.write_text('{"name": "left-pad"}', encoding="utf-8")
    click_quiet(page, page.get_by_role("button", name="Close file"))
    page.get_by_text("No results to show yet").wait_for()
    expect(page.get_by_test_id("stFileChip")).to_have_count(0)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(other)
    page.get_by_text("package.json: this is not a comparison JSON file").wait_for()
    screenshot(page, "results-foreign-file")
