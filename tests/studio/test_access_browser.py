"""Team access in a real browser with a real OpenID Connect login (oidc-provider-mock).

A team started without `BLUEPRINT_ADMINS` warns that it has no admin and says the command
that fixes it; listing an e-mail later promotes that viewer at their next login, but only
when the provider says the e-mail is verified; `blueprint members set` gives a role before
the first login. Log out ends the login on the server (a copied cookie stops working);
a removed member is refused at their next click. A page that fails shows an error id and
no traceback; the server's log holds the traceback under that id.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from engine.store import open_store
from tests.studio.browser import click_quiet, studio_command, wait_quiet
from tests.studio.oidc import TeamStudio, log_in_again, login, team_studio

pytestmark = pytest.mark.browser

WAIT = 30_000
"""Milliseconds to wait for the studio to draw (the first page of a new server is slow)."""


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TeamStudio]:
    """A team studio started without BLUEPRINT_ADMINS (admins come from settings.toml)."""
    env = {"BLUEPRINT_ALLOWED_DOMAINS": "example.com", "BLUEPRINT_ADMINS": ""}
    with team_studio(tmp_path_factory.mktemp("access-home"), env) as server:
        yield server


def list_admins(team: TeamStudio, *emails: str) -> None:
    """Write `[team] admins` of the studio's settings.toml (read at every request)."""
    names = ", ".join(f'"{e}"' for e in emails)
    (team.home / "settings.toml").write_text(f"[team]\nadmins = [{names}]\n")


def members_cli(team: TeamStudio, *args: str) -> subprocess.CompletedProcess[str]:
    """`blueprint members ...` against the studio's store."""
    env = {k: v for k, v in os.environ.items() if k != "BLUEPRINT_DATABASE_URL"}
    env["BLUEPRINT_HOME"] = str(team.home)
    command = [*studio_command(1)[:-3], "members", *args]  # the program, without `studio --port N`
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


def test_no_admin_is_warned_and_a_listed_verified_email_is_promoted(browser: Any, team: TeamStudio):
    carol = login(browser, team, "carol@example.com")
    expect(carol.get_by_text("Logged in as carol@example.com (viewer)")).to_be_visible(timeout=WAIT)
    expect(carol.get_by_text("This team has no admin")).to_be_visible()
    expect(carol.get_by_text("blueprint members set EMAIL admin").first).to_be_visible()
    started = team.log.read_text(errors="replace")  # `blueprint studio` said it at start
    assert (
        "this team has no admin yet" in started and "blueprint members set EMAIL admin" in started
    )
    listed = members_cli(team, "list")
    assert listed.returncode == 0 and "carol@example.com  viewer" in listed.stdout
    assert "the team has no admin" in listed.stderr

    list_admins(team, "carol@example.com", "dave@example.com")
    dave = login(browser, team, "dave@example.com", verified=False)  # listed, not verified
    expect(dave.get_by_text("Logged in as dave@example.com (viewer)")).to_be_visible(timeout=WAIT)
    again = login(browser, team, "carol@example.com")  # a new login of a listed, verified e-mail
    expect(again.get_by_text("Logged in as carol@example.com (admin)")).to_be_visible(timeout=WAIT)
    assert "This team has no admin" not in again.inner_text("body")
    again.goto(f"{team.url}/admin")
    expect(again.get_by_role("heading", name="Team")).to_be_visible(timeout=WAIT)
    assert open_store(team.home / "studio.db").user("dave@example.com").role == "viewer"

    made = members_cli(team, "set", "erin@example.com", "editor")  # before her first login
    assert made.returncode == 0, made.stderr
    erin = login(browser, team, "erin@example.com")
    expect(erin.get_by_text("Logged in as erin@example.com (editor)")).to_be_visible(timeout=WAIT)
    for page in (carol, dave, again, erin):
        page.context.close()


def test_a_copied_login_cookie_stops_working_after_log_out(browser: Any, team: TeamStudio):
    bob = login(browser, team, "bob@example.com")
    expect(bob.get_by_text("Logged in as bob@example.com")).to_be_visible(timeout=WAIT)
    thief = browser.new_context(viewport={"width": 1400, "height": 1200})
    thief.add_cookies(bob.context.cookies())
    copy = thief.new_page()
    copy.set_default_timeout(30_000)
    copy.goto(f"{team.url}/history")
    expect(copy.get_by_text("Logged in as bob@example.com")).to_be_visible(timeout=WAIT)

    click_quiet(bob, bob.get_by_role("button", name="Log out"))
    # the studio ended the session, then sent the browser to the provider's end of session
    bob.wait_for_url(re.compile(r"/oauth2/end_session"), timeout=WAIT)

    copy.goto(f"{team.url}/history")  # the copied cookie, after bob logged out
    expect(copy.get_by_text("You logged out. Log in again")).to_be_visible(timeout=WAIT)
    expect(copy.get_by_role("button", name="Log in")).to_be_visible()
    assert "Logged in as bob" not in copy.inner_text("body")
    assert "History" not in copy.inner_text("body")

    bob.goto(f"{team.url}/")  # bob himself logs in again: a new login, a new session
    log_in_again(bob, team, "bob@example.com")
    expect(bob.get_by_text("Logged in as bob@example.com")).to_be_visible(timeout=WAIT)
    thief.close()
    bob.context.close()


def test_a_removed_member_is_refused_at_the_next_click(browser: Any, team: TeamStudio):
    list_admins(team, "alice@example.com")
    alice = login(browser, team, "alice@example.com")
    expect(alice.get_by_text("Logged in as alice@example.com (admin)")).to_be_visible(timeout=WAIT)
    frank = login(browser, team, "frank@example.com")
    expect(frank.get_by_text("Logged in as frank@example.com")).to_be_visible(timeout=WAIT)
    frank.goto(f"{team.url}/history")
    expect(frank.get_by_role("heading", name="History")).to_be_visible(timeout=WAIT)
    wait_quiet(frank)

    alice.goto(f"{team.url}/admin")
    expect(alice.get_by_role("button", name="Remove")).to_be_visible(timeout=WAIT)
    click_quiet(alice, alice.get_by_label("Member"))
    alice.get_by_role("option", name="frank@example.com").click()
    click_quiet(alice, alice.get_by_role("button", name="Remove"))
    expect(alice.get_by_text("frank@example.com is removed")).to_be_visible(timeout=WAIT)

    # frank's page is still open: his next click (the menu's Compare runs) is refused
    frank.get_by_role("link", name="Compare runs").click()
    expect(frank.get_by_text("You are no longer a member of this studio")).to_be_visible(
        timeout=WAIT
    )
    assert "Logged in as frank" not in frank.inner_text("body")
    assert "Compare runs" not in frank.locator("h1").all_inner_texts()
    frank.context.close()
    alice.context.close()


def test_a_failing_page_shows_an_error_id_and_the_log_holds_the_traceback(
    browser: Any, team: TeamStudio
):
    store = open_store(team.home / "studio.db")
    digest = store.save_blueprint("title: t\n", "t", "t.yml")
    run_id = store.create_run(
        blueprint_hash=digest, title="t", config_id=None, options={}, total_calls=1, total_cells=1
    )
    with sqlite3.connect(team.home / "studio.db") as db:  # a row the page cannot read
        db.execute("UPDATE runs SET options = '{not json' WHERE id = ?", (run_id,))
    list_admins(team, "alice@example.com")
    alice = login(browser, team, "alice@example.com")
    expect(alice.get_by_text("Logged in as alice@example.com")).to_be_visible(timeout=WAIT)
    alice.goto(f"{team.url}/results?run={run_id}")
    message = alice.get_by_text(re.compile(r"Something went wrong on this page \(error id"))
    expect(message).to_be_visible(timeout=WAIT)
    found = re.search(r"error id ([0-9a-f]{8})", message.inner_text())
    assert found is not None
    body = alice.inner_text("body")
    for leak in ("Traceback", ".py", str(team.home), "site-packages", "JSONDecodeError"):
        assert leak not in body
    ident = found.group(1)
    server_log = team.log.read_text(errors="replace")
    assert f"error {ident} on results" in server_log
    after = server_log.split(f"error {ident}", 1)[1]
    assert "Traceback (most recent call last)" in after and "JSONDecodeError" in after
    alice.context.close()

    link = store.create_share_link(run_id, "anyone", created_by="alice@example.com")
    shared = httpx.get(f"{team.url}/share", params={"token": link.token}, timeout=60)
    assert shared.status_code == 500 and shared.headers["cache-control"] == "no-store"
    found = re.search(r"error id ([0-9a-f]{8})", shared.text)
    assert found is not None
    for leak in ("Traceback", ".py", str(team.home), "JSONDecodeError"):
        assert leak not in shared.text
    assert f"error {found.group(1)} on share" in team.log.read_text(errors="replace")
