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
