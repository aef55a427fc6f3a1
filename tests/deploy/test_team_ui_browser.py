"""Team mode after `blueprint db copy` of a personal store, with real OIDC logins (issue 33, item 8).

- The personal store's "anyone" link arrives revoked: its visitor is told so, not shown the run.
- A viewer sees no button or link to start, resume or re-score runs (the Run page refuses
  them anyway); an admin sees them.
- The Run page's link to the results starts with the public URL.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.store.sqlite import SQLiteStore
from tests.conftest import EXAMPLES
from tests.studio.browser import Studio, free_port, stop_studio, studio_command, wait_healthy
from tests.studio.helpers import make_run
from tests.studio.oidc import LOOPBACK_ONLY, TeamStudio, login
from tests.test_host_check import AUTH

pytestmark = pytest.mark.browser

WAIT = 60_000
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Team:
    """A team studio over a copied personal store."""

    studio: Studio
    done: str
    stopped: str
    anyone: str
    copy_output: str


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory, idp: int) -> Iterator[Team]:
    personal = SQLiteStore(tmp_path_factory.mktemp("personal") / "studio.db")
    text = (EXAMPLES / "functions.yml").read_text()
    done = make_run(personal, text, ["ideal"], source="functions.yml")
    stopped = make_run(personal, text, ["ideal"], source="functions.yml")
    personal.set_run_status(stopped, "stopped")
    anyone = personal.create_share_link(done, "anyone").token

    home = tmp_path_factory.mktemp("team-home")
    target = str(home / "studio.db")
    copy = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "db",
            "copy",
            "--from",
            str(personal.path),
            "--to",
            target,
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert copy.returncode == 0, copy.stderr

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    (home / ".streamlit").mkdir()
    (home / ".streamlit" / "secrets.toml").write_text(
        AUTH.format(base=base).replace(
            "http://127.0.0.1:9/.well-known/openid-configuration",
            f"http://127.0.0.1:{idp}/.well-known/openid-configuration",
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    env |= {
        "BLUEPRINT_HOME": str(home),
        "BLUEPRINT_ADMINS": "alice@example.com",
        "AUTHLIB_INSECURE_TRANSPORT": "1",  # the local identity provider speaks plain http
    }
    log = home / "studio.log"
    command = [*studio_command(port), "--host", "127.0.0.1", "--public-url", base]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, env=env, cwd=home, stdout=out, stderr=subprocess.STDOUT)
    server = TeamStudio(base, home, proc, log, idp=f"http://127.0.0.1:{idp}")
    try:
        wait_healthy(base, proc, timeout=60)
        yield Team(server, done, stopped, anyone, copy.stdout)
    finally:
        stop_studio(server)


def test_a_copied_anyone_link_is_revoked_and_the_copy_said_so(browser: Any, team: Team):
    assert '1 "anyone" share link of the personal store was copied revoked' in team.copy_output
    context = browser.new_context()
    context.route(LOOPBACK_ONLY, lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{team.studio.url}/share?token={team.anyone}")
    expect(page.get_by_text("This share link was revoked")).to_be_visible(timeout=WAIT)
    assert "Leaderboard" not in page.inner_text("body")
    context.close()


def test_a_viewer_sees_no_run_buttons(browser: Any, team: Team):
    url = team.studio.url
    bob = login(browser, team.studio, "bob@example.com")
    expect(bob.get_by_text("Logged in as bob@example.com (viewer)")).to_be_visible(timeout=WAIT)
    bob.goto(f"{url}/results?run={team.stopped}")
    expect(bob.get_by_text("An editor can resume it.")).to_be_visible(timeout=WAIT)
    assert bob.get_by_role("link", name="Open it on the Run page").count() == 0
    assert bob.get_by_text("Re-score").count() == 0
    bob.goto(f"{url}/results")
    expect(bob.get_by_role("link", name="Past runs")).to_be_visible(timeout=WAIT)
    assert bob.get_by_role("link", name="Start a run").count() == 0
    bob.goto(f"{url}/run?run={team.stopped}")  # the server refuses the page itself
    expect(bob.get_by_text("Your role (viewer) cannot open this page")).to_be_visible(timeout=WAIT)
    assert bob.get_by_role("button", name="Resume").count() == 0
    bob.context.close()


def test_an_admin_resumes_from_results_and_the_run_page_links_the_public_url(
    browser: Any, team: Team
):
    url = team.studio.url
    alice = login(browser, team.studio, "alice@example.com")
    expect(alice.get_by_text("Logged in as alice@example.com (admin)")).to_be_visible(timeout=WAIT)
    alice.goto(f"{url}/results?run={team.stopped}")
    expect(alice.get_by_role("link", name="Open it on the Run page")).to_be_visible(timeout=WAIT)
    alice.goto(f"{url}/run?run={team.stopped}")
    expect(alice.get_by_role("button", name="Resume")).to_be_visible(timeout=WAIT)
    code = alice.locator('[data-testid="stCode"]').filter(has_text="results?run=")
    expect(code).to_have_text(f"{url}/results?run={team.stopped}", timeout=WAIT)
    alice.context.close()
