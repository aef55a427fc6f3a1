"""The studio on the team database after every connection of it was dropped (a restart, a failover).

A studio server on a PostgreSQL store shows a run's results page and answers a share link; then
all the database's connections are closed with `pg_terminate_backend`, as a PostgreSQL restart
or failover does, and the next share link and the next page load must work as before: no
HTTP 500, no traceback.
"""

from __future__ import annotations

import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.store import open_store
from tests.queue.conftest import allow_connections, drop_connections
from tests.store.pg import fresh_database
from tests.studio.browser import new_page, running_studio, screenshot, wait_quiet
from tests.studio.helpers import make_run

pytestmark = pytest.mark.slow

TEXT = (
    "title: Reconnects\n"
    "---\n"
    "- id: hello\n"
    "  prompt: Say hello\n"
    "  ideal: Hello there\n"
    "  should:\n"
    "    - $contains: Hello\n"
)
SHOTS = Path("/tmp/shots/reconnect")


@pytest.fixture
def team_db() -> Iterator[str]:
    """A fresh database of its own, dropped at the end (skipped without a server)."""
    with fresh_database("blueprint_reconnect") as url:
        yield url


def _results_page(browser, url: str, run_id: str, name: str) -> str:
    """Open the run's results page; return its text once drawn (and save a screenshot)."""
    with new_page(browser) as page:
        page.goto(f"{url}/results?run={run_id}")
        page.get_by_role("heading", name="Reconnects").first.wait_for(timeout=60_000)
        wait_quiet(page)
        assert page.get_by_test_id("stException").count() == 0
        shot = screenshot(page, name)
        SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, SHOTS / shot.name)
        return str(page.inner_text("body"))


def test_the_results_page_and_a_share_link_work_right_after_a_drop(browser, team_db, tmp_path):
    store = open_store(team_db)
    run_id = make_run(store, TEXT, ["ideal"])
    token = store.create_share_link(run_id, "anyone").token
    with running_studio(tmp_path, {"BLUEPRINT_DATABASE_URL": team_db}) as studio:
        before = _results_page(browser, studio.url, run_id, "reconnect-results-before")
        assert "Reconnects" in before

        assert drop_connections(team_db) >= 1  # the studio's pooled connection among them
        with urllib.request.urlopen(f"{studio.url}/share?token={token}", timeout=60) as answer:
            assert answer.status == 200
            shared = answer.read().decode()
        assert "Reconnects" in shared and "Leaderboard" in shared

        assert drop_connections(team_db) >= 1
        after = _results_page(browser, studio.url, run_id, "reconnect-results-after")
        assert "Reconnects" in after
        assert "Traceback" not in after and 'File "/' not in after
        assert "cannot reach the database" not in after
    log = (tmp_path / "studio.log").read_text()
    assert "Traceback" not in log


def test_while_the_database_refuses_connections_pages_say_so_plainly_then_work_again(
    browser, team_db, tmp_path
):
    store = open_store(team_db)
    run_id = make_run(store, TEXT, ["ideal"])
    token = store.create_share_link(run_id, "anyone").token
    with running_studio(tmp_path, {"BLUEPRINT_DATABASE_URL": team_db}) as studio:
        _results_page(browser, studio.url, run_id, "reconnect-results-before-outage")
        allow_connections(team_db, False)  # as while PostgreSQL restarts
        try:
            assert drop_connections(team_db) >= 1
            try:
                urllib.request.urlopen(f"{studio.url}/share?token={token}", timeout=60)
            except urllib.error.HTTPError as refused:
                status, body = refused.code, refused.read().decode()
            assert status == 503
            assert "the database does not answer" in body and "Traceback" not in body
            with new_page(browser) as page:
                page.goto(f"{studio.url}/results?run={run_id}")
                page.get_by_text("cannot reach its database right now").wait_for(timeout=90_000)
                text = str(page.inner_text("body"))
                shot = screenshot(page, "reconnect-results-during-outage")
                SHOTS.mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, SHOTS / shot.name)
            assert "Traceback" not in text and 'File "/' not in text
        finally:
            allow_connections(team_db, True)
        after = _results_page(browser, studio.url, run_id, "reconnect-results-after-outage")
        assert "Reconnects" in after
