"""A share link in a real browser, in team mode: the run's scores and nothing else.

The studio runs in team mode (`--host 127.0.0.1 --public-url ...`, `[auth]` configured; no
one logs in here). A fresh browser context holding only a share link sees the scores and the
report download; every other page, run or draft it tries by URL gives the login page and
none of their content. A revoked or expired link says so.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.store import open_store
from tests.fakes.llm_server import FakeLLM
from tests.studio.browser import new_page, studio_command, team_studio
from tests.studio.conftest import ANSWERS, scripted
from tests.studio.helpers import example, make_run
from tests.test_host_check import status

pytestmark = pytest.mark.browser

WAIT = 30_000
"""Milliseconds to wait for the studio to draw (the first page of a new server is slow)."""

DRAFT_TEXT = "title: Private draft of someone else zq7\n"
TITLE = "Two good ways to answer"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home = tmp_path_factory.mktemp("team-home")
    store = open_store(home / "studio.db")
    with FakeLLM() as fake, ThreadPoolExecutor(1) as pool:
        # in a thread of its own: Playwright's loop may already run in this one
        fake.reply_with(scripted(ANSWERS))
        text = example("or-paths.yml")
        models = ["openai:fake-a", "openai:fake-b"]
        run_id = pool.submit(
            make_run,
            store,
            text,
            models,
            environ=fake.env(),
            judges=["openai:fake-judge"],
            judge=True,
        ).result()
        other = pool.submit(make_run, store, text, models[:1], environ=fake.env()).result()
    store.save_draft("draft-0001", DRAFT_TEXT, "Private draft")
    links = {
        "anyone": store.create_share_link(run_id, "anyone").token,
        "team": store.create_share_link(run_id, "team").token,
        "revoke": store.create_share_link(run_id, "anyone").token,
        "expired": store.create_share_link(
            run_id, "anyone", datetime.now(UTC) - timedelta(minutes=1)
        ).token,
    }
    with team_studio(home) as (server, env):
        yield {"studio": server, "run": run_id, "other": other, "links": links, "env": env}


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with new_page(browser, height=1400) as page:
        yield page


def test_a_share_link_shows_the_scores_and_nothing_else(team: dict[str, Any], page: Any):
    url, run_id, token = team["studio"].url, team["run"], team["links"]["anyone"]
    page.goto(f"{url}/share?token={token}")
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible(timeout=WAIT)
    expect(page.get_by_text(TITLE).first).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("button", name="Download report (HTML)")).to_be_visible(timeout=WAIT)
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0
    body = page.inner_text("body")
    assert "Start run" not in body and "History" not in body

    tries = [
        "/",
        "/editor",
        "/run",
        "/results",
        "/history",
        "/settings",
        f"/results?run={run_id}",
        f"/results?run={team['other']}",
        f"/run?run={run_id}",
        "/?draft=draft-0001",
        "/editor?draft=draft-0001",
        f"/history?token={token}",
        f"/results?token={token}&run={team['other']}",
        "/compare",
        f"/compare?base={run_id}&cand={team['other']}",
    ]
    for path in tries:
        page.goto(f"{url}{path}")
        expect(page.get_by_role("button", name="Log in")).to_be_visible(timeout=WAIT)
        body = page.inner_text("body")
        for secret in ("Leaderboard", TITLE, "Private draft", "zq7", "Start run", "Past runs"):
            assert secret not in body, (path, secret)
        assert page.locator('[data-testid="stSidebarNav"]').count() == 0

    # a draft named next to a valid link stays closed; the link still shows its own run only
    page.goto(f"{url}/share?token={token}&draft=draft-0001")
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible(timeout=WAIT)
    assert "zq7" not in page.inner_text("body")


def test_a_team_link_asks_a_stranger_to_log_in(team: dict[str, Any], page: Any):
    page.goto(f"{team['studio'].url}/share?token={team['links']['team']}")
    expect(page.get_by_text("for team members only")).to_be_visible(timeout=WAIT)
    assert "Leaderboard" not in page.inner_text("body")


def test_revoked_and_expired_links_say_so(team: dict[str, Any], page: Any):
    url, token = team["studio"].url, team["links"]["revoke"]
    page.goto(f"{url}/share?token={token}")
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible(timeout=WAIT)
    script = studio_command(1)[:-3]  # `blueprint` (or `python -m engine`) without `studio ...`
    done = subprocess.run(
        [*script, "share", "--revoke", f"{url}/share?token={token}"],
        env=team["env"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    page.goto(f"{url}/share?token={token}")
    expect(page.get_by_text("This share link was revoked")).to_be_visible(timeout=WAIT)
    assert "Leaderboard" not in page.inner_text("body")
    page.goto(f"{url}/share?token={team['links']['expired']}")
    expect(page.get_by_text("This share link has expired")).to_be_visible(timeout=WAIT)


def test_a_foreign_host_is_refused(team: dict[str, Any]):
    url = team["studio"].url
    assert status(url, f"/share?token={team['links']['anyone']}", "evil.example") == 400
    assert status(url, "/_stcore/stream", "evil.example", upgrade=True) == 400
    assert status(url, "/_stcore/health", url.removeprefix("http://")) == 200


def test_the_studio_printed_its_public_url(team: dict[str, Any]):
    printed = Path(team["studio"].log).read_text()
    assert f"Blueprint Studio (team mode): {team['studio'].url}" in printed
