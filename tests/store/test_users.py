"""Team members in the store contract (every backend), and who may log in with which role."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.store import Store
from engine.store.users import allowed_domains, email_allowed, first_admins, first_role
from tests.store.test_contract import BACKENDS


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A fresh store of each backend of the contract tests."""
    return BACKENDS[request.param](request, tmp_path)()


def test_first_login_records_the_member_and_later_logins_keep_the_role(store):
    first = store.record_login("Alice@Example.org", "Alice", "admin")
    assert first.email == "alice@example.org" and first.role == "admin" and first.name == "Alice"
    store.record_login("bob@example.org", None, "viewer")
    assert store.set_role("bob@example.org", "editor").role == "editor"
    again = store.record_login("bob@example.org", "Bob", "viewer")
    assert again.role == "editor" and again.name == "Bob"
    assert [u.email for u in store.users()] == ["alice@example.org", "bob@example.org"]
    assert store.user("ALICE@example.org").role == "admin"
    assert store.user("nobody@example.org") is None
    assert store.set_role("nobody@example.org", "admin") is None


def test_admins_and_domains_from_the_environment():
    env = {
        "BLUEPRINT_ADMINS": " Alice@Example.org, ,carol@x.io",
        "BLUEPRINT_ALLOWED_DOMAINS": "@example.org",
    }
    admins, domains = first_admins(env), allowed_domains(env)
    assert admins == {"alice@example.org", "carol@x.io"} and domains == {"example.org"}
    assert first_role("ALICE@example.org", admins) == "admin"
    assert first_role("bob@example.org", admins) == "viewer"
    assert email_allowed("bob@example.org", domains, admins)
    assert email_allowed("carol@x.io", domains, admins)  # a first admin, whatever the domain
    assert not email_allowed("eve@evil.example", domains, admins)
    assert not email_allowed("eve@example.org.evil.example", domains, admins)
    assert email_allowed("eve@evil.example", frozenset(), admins)  # no domains: anyone
    assert not email_allowed("no-at-sign", frozenset(), admins)


def test_a_member_set_before_the_first_login_keeps_the_role_at_it(store):
    early = store.set_member("Carol@Example.org", "editor")
    assert (early.email, early.role, early.last_login_at, early.active) == (
        "carol@example.org",
        "editor",
        "",
        True,
    )
    logged = store.record_login("carol@example.org", "Carol", "viewer")
    assert logged.role == "editor" and logged.name == "Carol" and logged.last_login_at
    assert store.set_member("carol@example.org", "admin").role == "admin"


def test_removing_or_disabling_a_member_ends_their_sessions(store):
    store.record_login("bob@example.org", "Bob", "viewer")
    store.start_session("s-1", "bob@example.org")
    store.start_session("s-2", "Bob@Example.org")
    store.end_session("s-2", "logout")
    assert store.session("s-2").ended_reason == "logout"
    disabled = store.set_disabled("bob@example.org", True)
    assert disabled is not None and not disabled.active and disabled.disabled_at
    assert store.session("s-1").ended_reason == "disabled"
    assert store.session("s-2").ended_reason == "logout"  # an ended session keeps its reason
    assert store.set_disabled("bob@example.org", False).active
    store.start_session("s-3", "bob@example.org")
    assert store.remove_member("BOB@example.org")
    assert store.user("bob@example.org") is None
    assert store.session("s-3").ended_reason == "removed"
    assert not store.remove_member("bob@example.org")
    assert store.set_disabled("nobody@example.org", True) is None


def test_sessions_are_kept_touched_and_forgotten(store):
    first = store.start_session("s-1", "ann@example.org")
    again = store.start_session("s-1", "ann@example.org")
    assert again == first and first.ended_at is None
    store.touch_session("s-1")
    assert store.session("s-1").last_seen_at >= first.last_seen_at
    assert store.forget_sessions("2000-01-01T00:00:00.000+00:00") == 0
    assert store.forget_sessions("2999-01-01T00:00:00.000+00:00") == 1
    assert store.session("s-1") is None
