"""The studio's views on the share page and in the HTML report, opened by a visitor in Chromium.

A team-mode studio (no one logged in) holds a run of the or-paths example whose two models
answer with hostile text: markup that would run if it were HTML, a very long line, and
right-to-left text. A reviewer's verdict and an executive summary are stored with it. A fresh
browser context holding only the share link finds every view (header, summary, leaderboard
with error bars, heatmap, verdicts, points x models, why this score with its per-path chart,
answers side by side), moves through them by plain links, and sees nothing run and nothing
else of the studio. The report file, downloaded from the share page, is opened from disk
the same way. axe finds no serious or critical violation on either.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from playwright.sync_api import expect

from engine.report.reviews import judged_points
from engine.run.summary import load_run_comparison
from engine.store import ReviewRow, open_store
from tests.fakes.llm_server import FakeLLM
from tests.studio.a11y import axe_source, serious_violations
from tests.studio.browser import external_requests, new_page, team_studio
from tests.studio.conftest import scripted
from tests.studio.helpers import example, make_run

pytestmark = pytest.mark.browser

WAIT = 30_000
SHOTS = Path("/tmp/shots/share")
RTL = "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd \u202eevil\u202c \u0645\u0631\u062d\u0628\u0627"
MARKUP = (
    '<script>window.__pwned=1;alert(1)</script><img src=x onerror="alert(2)">'
    '<a href="/history">history</a><style>body{display:none}</style>'
)
LONG = "w" * 6000
ANSWERS = {
    "fake-a": f"New Year's Day is on January 1 in the Gregorian calendar. {MARKUP} {RTL}",
    "fake-b": f"Other calendars have other new years. Which calendar do you mean? {LONG}",
}
SUMMARY = {
    "modelId": "openai:summarizer",
    "structured": {
        "keyFindings": [f"fake-a won {MARKUP}"],
        "strengths": ["Both were polite."],
        "weaknesses": [],
        "patterns": [],
        "grades": [],
    },
}


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home = tmp_path_factory.mktemp("share-views")
    store = open_store(home / "studio.db")
    with FakeLLM() as fake, ThreadPoolExecutor(1) as pool:
        fake.reply_with(scripted(ANSWERS))
        run_id = pool.submit(
            make_run,
            store,
            example("or-paths.yml"),
            ["openai:fake-a", "openai:fake-b"],
            environ=fake.env(),
            judges=["openai:fake-judge"],
            judge=True,
        ).result()
    store.save_executive_summary(run_id, SUMMARY)
    point = judged_points(load_run_comparison(store, run_id))[0]
    store.save_reviews(
        [
            ReviewRow(
                point.prompt_id,
                point.model,
                point.answer_hash,
                point.criterion_hash,
                "reviewer@example.org",
                point.criterion,
                "score",
                0.25,
                point.judge_score,
                f"Too generous {MARKUP}",
                run_id,
                point.index,
                "2026-12-01T06:00:00.000+00:00",
            )
        ]
    )
    token = store.create_share_link(run_id, "anyone").token
    with team_studio(home) as (server, _env):
        yield {"url": server.url, "token": token, "run": run_id, "home": home}


@pytest.fixture
def visitor(browser: Any) -> Iterator[Any]:
    """A fresh context that fails the test on any dialog (an `alert` would mean script ran)."""
    with new_page(browser, width=1300, height=1500) as page:
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.dialogs = dialogs
        yield page
        assert dialogs == []


def _inert(page: Any) -> None:
    """Nothing of the hostile text ran or became markup."""
    assert page.locator("script").count() == 0
    assert page.locator("img, iframe, object, embed").count() == 0
    assert page.evaluate("() => window.__pwned === undefined")
    assert page.locator("body").is_visible()  # the answer's <style> did not hide the page
    text = page.inner_text("body")
    assert "<script>window.__pwned=1;alert(1)</script>" in text  # shown as text


def _share_links_only(page: Any, url: str, token: str) -> None:
    """Every link stays on this share page (an anchor, or the page with the same token)."""
    for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
        parts = urlsplit(href)
        assert f"{parts.scheme}://{parts.netloc}" == url, href
        assert parts.path == "/share", href
        assert parse_qs(parts.query).get("token") == [token], href
    actions = page.eval_on_selector_all("form", "els => els.map(e => e.action)")
    assert actions == [f"{url}/share/download"]


def test_the_share_page_shows_each_view_to_a_visitor(shared: dict[str, Any], visitor: Any):
    url, token = shared["url"], shared["token"]
    outside = external_requests(visitor)
    visitor.goto(f"{url}/share?token={token}")
    page = visitor
    expect(page.get_by_role("heading", name="Two good ways to answer")).to_be_visible(timeout=WAIT)
    # the header: the date in words, the models by their one display name, the cost figure
    top = page.inner_text("body")
    assert re.search(r"Run of \d{1,2} [A-Z][a-z]+ 20\d\d, \d\d:\d\d UTC", top)
    assert "Models: openai:fake-a, openai:fake-b" in top
    assert "cost unknown" in top and "settings.toml" not in top and "[temp:" not in top
    for name in ["Executive summary", "Leaderboard", "Scores by prompt", "Reviewers' verdicts"]:
        expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    for name in ["Points × models", "Why this score", "Answers side by side"]:
        expect(page.get_by_role("heading", name=name, exact=True).first).to_be_visible()
    assert "How sure is this ranking?" in top or "95% interval" in top  # error bars' words
    assert "Too generous" in top and "a reviewer scores it (0.25)" in top
    assert "reviewer@example.org" not in top  # authors hidden from a visitor
    # the heatmap: numbers on the studio's blues, each cell a link to its prompt's detail
    cell = page.locator("table.heat td").first
    assert re.fullmatch(r"\d\.\d\d|failed|n/a|–", cell.inner_text().strip())
    colours = page.eval_on_selector_all(
        "table.heat td", "els => els.map(e => getComputedStyle(e).backgroundColor)"
    )
    for colour in colours:
        r, g, b = (int(x) for x in re.findall(r"\d+", colour)[:3])
        assert not (g > r + 20 and g > b + 20), colour  # no green: the studio's palette
    cell.locator("a").click()
    expect(page).to_have_url(re.compile(r"#p-new-year$"))
    detail = page.locator("section#p-new-year")
    expect(detail).to_be_visible()
    # points x models: each point's score and the judges' reasons
    grid = detail.locator("table.grid")
    expect(grid.get_by_text("Names the Gregorian calendar.")).to_be_visible()
    assert "fake-judge" in grid.inner_text()  # the judge by its shown name
    # why this score: the per-path chart (best path marked) and the arithmetic
    detail.locator("details", has_text="openai:fake-a:").locator("summary").first.click()
    chart = detail.locator("svg.chart").first
    expect(chart).to_be_visible()
    drawn = chart.text_content() or ""
    assert "★" in drawn and "best path, counts" in drawn and "Final score" in drawn
    expect(detail.get_by_text("best path: this one counts").first).to_be_visible()
    # answers side by side: a default pair, another picked by a plain link
    pair = detail.locator(".pair .ans")
    expect(pair).to_have_count(2)
    assert "Gregorian" in pair.nth(0).inner_text() or "Gregorian" in pair.nth(1).inner_text()
    page.screenshot(path=str(_shot("share-page-detail.png")), full_page=False)
    detail.locator("p.pick").nth(1).get_by_role("link", name="openai:fake-a").click()
    expect(page).to_have_url(re.compile(r"prompt=new-year.*#sbs-p-new-year$"))
    shown = page.locator(".pair .ans")
    expect(shown).to_have_count(1)  # the same model on both sides: one answer
    page.get_by_role("link", name="Back to all the results").click()
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    _inert(page)
    _share_links_only(page, url, token)
    assert outside == []
    page.goto(f"{url}/share?token={token}")
    page.get_by_role("heading", name="Leaderboard").wait_for()
    page.screenshot(path=str(_shot("share-page-top.png")), full_page=False)
    page.screenshot(path=str(_shot("share-page-full.png")), full_page=True)


def test_the_token_opens_nothing_else_of_the_studio(shared: dict[str, Any], visitor: Any):
    url, token = shared["url"], shared["token"]
    for path in [
        f"/?token={token}",
        f"/results?token={token}",
        f"/results?token={token}&run={shared['run']}",
        f"/history?token={token}",
        f"/editor?token={token}",
        f"/compare?token={token}&base={shared['run']}",
    ]:
        visitor.goto(f"{url}{path}")
        expect(visitor.get_by_role("button", name="Log in")).to_be_visible(timeout=WAIT)
        body = visitor.inner_text("body")
        assert "Leaderboard" not in body and "Two good ways" not in body, path
    with httpx.Client(base_url=url, timeout=60) as client:
        assert client.get(f"/share/download?token={token}&file=../studio.db").status_code == 404
        odd = client.get(f"/share?token={token}&prompt=nope&a=<b>&page=99999")
        assert odd.status_code == 200 and "<b>" not in odd.text  # unknown ids are dropped


def test_the_report_file_shows_each_view_offline(
    shared: dict[str, Any], visitor: Any, tmp_path: Path
):
    url, token = shared["url"], shared["token"]
    with httpx.Client(base_url=url, timeout=60) as client:
        answer = client.get(f"/share/download?token={token}&file=html")
    assert answer.status_code == 200
    assert "settings.toml" not in answer.text  # no operator hints for a visitor
    report = tmp_path / "report.html"
    report.write_text(answer.text, encoding="utf-8")
    page = visitor
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(report.as_uri())
    expect(page.get_by_role("heading", name="Two good ways to answer")).to_be_visible()
    for name in ["Executive summary", "Leaderboard", "Scores by prompt", "Reviewers' verdicts"]:
        expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    page.locator("table.heat td a").first.click()
    expect(page.locator("section#p-new-year")).to_be_visible()
    assert page.evaluate("() => location.hash") == "#p-new-year"
    detail = page.locator("section#p-new-year")
    expect(detail.locator("table.grid")).to_be_visible()
    detail.locator("details", has_text="openai:fake-b:").locator("summary").first.click()
    expect(detail.locator("svg.chart").nth(1)).to_be_visible()
    # side by side: the page's radio buttons pick two answers, shown by CSS alone
    shown = detail.locator(".pair .ans:visible")
    expect(shown).to_have_count(2)
    picker = page.locator(".picker")
    picker.get_by_role("group", name="Right").get_by_label("openai:fake-a").check()
    expect(shown).to_have_count(1)  # both sides the same model
    picker.get_by_role("group", name="Left").get_by_label("openai:fake-b").check()
    expect(shown).to_have_count(2)
    left = detail.locator(".pair .ans", has_text="openai:fake-b · score").bounding_box()
    right_box = detail.locator(".pair .ans", has_text="openai:fake-a · score").bounding_box()
    assert left and right_box and left["x"] < right_box["x"]  # fake-b on the left, as picked
    assert LONG[:100] in shown.nth(0).inner_text() or LONG[:100] in shown.nth(1).inner_text()
    box = detail.locator(".pair").bounding_box()
    assert box is not None and box["width"] <= 1300  # the long line wraps inside the page
    _inert(page)
    assert [r for r in requests if not r.startswith("file:")] == []
    page.screenshot(path=str(_shot("report-detail.png")), full_page=False)
    page.goto(report.as_uri())
    page.screenshot(path=str(_shot("report-top.png")), full_page=False)


def test_axe_finds_no_serious_violation_on_the_share_page_or_the_report(
    shared: dict[str, Any], browser: Any, tmp_path: Path
):
    source = axe_source()
    url, token = shared["url"], shared["token"]
    with httpx.Client(base_url=url, timeout=60) as client:
        report = tmp_path / "report.html"
        report.write_text(client.get(f"/share/download?token={token}&file=html").text)
    # axe is a script: this context lets it in (the pages' policy forbids every script)
    with new_page(browser, width=1300, height=1500, bypass_csp=True) as page:
        for target in [f"{url}/share?token={token}", report.as_uri()]:
            page.goto(target)
            page.get_by_role("heading", name="Leaderboard").wait_for()
            assert serious_violations(page, source) == [], target
        page.goto(f"{url}/share?token={token}&prompt=new-year")
        page.get_by_role("heading", name="Answers side by side").wait_for()
        assert serious_violations(page, source) == []


def _shot(name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / name
