"""Team mode with a real OpenID Connect login (oidc-provider-mock): members, roles, admin page.

`BLUEPRINT_ADMINS` makes alice an admin at her first login; anyone else of the allowed domain
starts as a viewer, who reads runs but cannot open the Run page even by its URL; an admin
makes bob an editor on the Team page; an e-mail of another domain is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.store import open_store
from tests.studio.browser import EDITOR_FRAME, click_quiet, editor_text, open_example, wait_quiet
from tests.studio.oidc import TeamStudio, login, team_studio

pytestmark = pytest.mark.browser

WAIT = 30_000
"""Milliseconds to wait for the studio to draw (the first page of a new server is slow)."""


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TeamStudio]:
    env = {"BLUEPRINT_ADMINS": "alice@example.com", "BLUEPRINT_ALLOWED_DOMAINS": "example.com"}
    with team_studio(tmp_path_factory.mktemp("login-home"), env) as server:
        yield server


def test_roles_decide_the_pages_and_an_admin_changes_them(browser: Any, team: TeamStudio):
    alice = login(browser, team, "alice@example.com")
    expect(alice.get_by_text("Logged in as alice@example.com (admin)")).to_be_visible(timeout=WAIT)
    bob = login(browser, team, "bob@example.com")
    expect(bob.get_by_text("Logged in as bob@example.com (viewer)")).to_be_visible(timeout=WAIT)

    bob.goto(f"{team.url}/run")
    expect(bob.get_by_text("Your role (viewer) cannot open this page")).to_be_visible(timeout=WAIT)
    assert "Start run" not in bob.inner_text("body")
    bob.goto(f"{team.url}/admin")
    expect(bob.get_by_text("Logged in as bob@example.com (viewer)")).to_be_visible(timeout=WAIT)
    assert "Change role" not in bob.inner_text("body")
    bob.goto(f"{team.url}/history")
    expect(bob.get_by_role("heading", name="History")).to_be_visible(timeout=WAIT)
    bob.goto(f"{team.url}/compare")  # a viewer reads runs: comparing two is reading
    expect(bob.get_by_role("heading", name="Compare runs")).to_be_visible(timeout=WAIT)
    assert "cannot open this page" not in bob.inner_text("body")

    alice.goto(f"{team.url}/admin")
    expect(alice.get_by_role("button", name="Change role")).to_be_visible(timeout=WAIT)
    click_quiet(alice, alice.get_by_label("Member"))
    alice.get_by_role("option", name="bob@example.com").click()
    click_quiet(alice, alice.get_by_label("Role"))
    alice.get_by_role("option", name="editor").click()
    click_quiet(alice, alice.get_by_role("button", name="Change role"))
    expect(alice.get_by_text("bob@example.com is now editor.")).to_be_visible(timeout=WAIT)

    bob.goto(f"{team.url}/run")
    expect(bob.get_by_role("heading", name="Run")).to_be_visible(timeout=WAIT)
    assert "cannot open this page" not in bob.inner_text("body")
    bob.context.close()
    alice.context.close()


def test_an_email_outside_the_allowed_domains_is_refused(browser: Any, team: TeamStudio):
    eve = login(browser, team, "eve@evil.example")
    expect(eve.get_by_text("may not use this studio")).to_be_visible(timeout=WAIT)
    eve.goto(f"{team.url}/editor")
    expect(eve.get_by_text("may not use this studio")).to_be_visible(timeout=WAIT)
    eve.goto(f"{team.url}/compare")
    expect(eve.get_by_text("may not use this studio")).to_be_visible(timeout=WAIT)
    assert "Compare runs" not in eve.inner_text("body")
    assert eve.locator('[data-testid="stSidebarNav"]').count() == 0
    eve.context.close()


def test_a_members_draft_is_theirs_alone(browser: Any, team: TeamStudio):
    alice = login(browser, team, "alice@example.com")  # an admin: she may edit
    expect(alice.get_by_text("Logged in as alice@example.com")).to_be_visible(timeout=WAIT)
    open_example(alice, team.url, "Two good ways to answer")
    alice.wait_for_url(re.compile(r"[?&]draft="))
    draft = alice.url.split("draft=")[1].split("&")[0]
    assert "Two good ways to answer" in editor_text(alice)

    dave = login(browser, team, "dave@example.com")
    expect(dave.get_by_text("Logged in as dave@example.com")).to_be_visible(timeout=WAIT)
    open_store(team.home / "studio.db").set_role("dave@example.com", "editor")
    # dave types alice's draft address: the editor opens without her text
    dave.goto(f"{team.url}/editor?draft={draft}")
    expect(dave.get_by_role("heading", name="Editor")).to_be_visible(timeout=WAIT)
    wait_quiet(dave)
    # the start page (examples, a blank blueprint), not her draft in the editor
    expect(dave.get_by_role("button", name="Start from a blank blueprint")).to_be_visible()
    if dave.locator(EDITOR_FRAME).count():
        assert "title: Two good ways to answer" not in editor_text(dave)
    dave.context.close()
    alice.context.close()
