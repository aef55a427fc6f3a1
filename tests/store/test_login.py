"""`engine.login.admit`: who a team studio lets in on each request (every store backend)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.login import admit, email_verified, has_admin, session_id
from engine.store import Store
from tests.store.test_contract import BACKENDS

ADMINS = frozenset({"alice@example.org"})
DOMAINS = frozenset({"example.org"})


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A fresh store of each backend of the contract tests."""
    return BACKENDS[request.param](request, tmp_path)()


def claims(email: str, nonce: str = "n-1", **extra: object) -> dict[str, object]:
    """The claims of one login, as Streamlit keeps them (issued now)."""
    return {
        "is_logged_in": True,
        "iss": "http://idp",
        "sub": email,
        "email": email,
        "iat": int(time.time()),
        "nonce": nonce,
        **extra,
    }


def let_in(store: Store, login: dict[str, object], **kw: object):
    options: dict[str, object] = {"admins": ADMINS, "domains": DOMAINS, "idle_hours": 8.0}
    options.update(kw)
    return admit(store, login, **options)  # type: ignore[arg-type]


def test_a_listed_admin_needs_a_verified_email(store):
    unverified = let_in(store, claims("alice@example.org"))
    assert unverified.refusal is None and unverified.member.role == "viewer"
    verified = let_in(store, claims("alice@example.org", "n-2", email_verified=True))
    assert verified.member.role == "admin"  # promoted at this login, though known as a viewer
    assert email_verified({"email_verified": "true"}) and not email_verified({})


def test_an_unverified_listed_admin_outside_the_domains_is_refused(store):
    outsider = frozenset({"root@other.net"})
    refused = let_in(store, claims("root@other.net"), admins=outsider)
    assert refused.refusal == "denied" and store.user("root@other.net") is None
    ok = let_in(store, claims("root@other.net", email_verified=True), admins=outsider)
    assert ok.refusal is None and ok.member.role == "admin"


def test_listing_an_admin_later_promotes_at_the_next_login_not_before(store):
    first = claims("bob@example.org", "n-1", email_verified=True)
    assert let_in(store, first).member.role == "viewer"
    bob = frozenset({"bob@example.org"})
    assert let_in(store, first, admins=bob).member.role == "viewer"  # same login: no change
    assert (
        let_in(store, claims("bob@example.org", "n-2", email_verified=True), admins=bob).member.role
        == "admin"
    )


def test_logout_removal_and_disabling_refuse_the_same_login_at_once(store):
    login = claims("bob@example.org")
    assert let_in(store, login).member is not None
    store.end_session(session_id(login), "logout")
    assert let_in(store, dict(login)).refusal == "logout"  # a copied cookie holds the same claims
    second = claims("bob@example.org", "n-2")
    assert let_in(store, second).member is not None
    store.set_role("bob@example.org", "editor")
    assert let_in(store, second).member.role == "editor"  # the role is read on every request
    store.remove_member("bob@example.org")
    assert let_in(store, second).refusal == "removed"
    third = claims("bob@example.org", "n-3")
    assert let_in(store, third).member.role == "viewer"  # an allowed domain: back as a viewer
    store.set_disabled("bob@example.org", True)
    assert let_in(store, third).refusal == "disabled"
    assert let_in(store, claims("bob@example.org", "n-4")).refusal == "disabled"


def test_an_idle_session_ends(store):
    login = claims("ann@example.org")
    assert let_in(store, login).member is not None
    later = datetime.now(UTC) + timedelta(hours=8, minutes=1)
    assert let_in(store, login, clock=later).refusal == "idle"
    assert let_in(store, login).refusal == "idle"  # ended on the server, not only late
    stale = claims("ann@example.org", "n-old", iat=int(time.time()) - 9 * 3600)
    assert let_in(store, stale).refusal == "idle"  # an old login the server never saw
    assert let_in(store, claims("ann@example.org", "n-2"), idle_hours=0.5).member is not None


def test_an_email_outside_the_domains_is_denied_and_no_admin_is_seen(store):
    assert let_in(store, claims("eve@evil.example")).refusal == "denied"
    assert let_in(store, {"is_logged_in": True, "sub": "x"}).refusal == "denied"
    assert not has_admin(store.users())
    store.set_member("carol@example.org", "admin")
    assert has_admin(store.users())
    store.set_disabled("carol@example.org", True)
    assert not has_admin(store.users())
