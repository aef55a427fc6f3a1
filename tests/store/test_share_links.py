"""Share links in the store contract (every backend of `BACKENDS`), and their tokens."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store import MIGRATIONS, Store, new_share_token
from engine.store.share_links import is_share_token, parse_duration
from tests.store.test_contract import BACKENDS, new_run


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A fresh store of each backend of the contract tests."""
    return BACKENDS[request.param](request, tmp_path)()


def test_the_migration_is_the_last_one_and_applied(store):
    assert "004_share_links" in [name for name, _ in MIGRATIONS]
    assert "004_share_links" in store.applied_migrations()


def test_tokens_are_long_random_and_never_read_as_options():
    tokens = {new_share_token() for _ in range(5000)}
    assert len(tokens) == 5000
    assert all(len(t) == 32 for t in tokens)  # 24 random bytes = 192 bits, url-safe base64
    assert not [t for t in tokens if t[0] in "-_"]
    assert all(is_share_token(t) for t in tokens)
    assert not is_share_token("-" + "a" * 31) and not is_share_token("a" * 31)


def test_create_list_resolve_revoke(store):
    run_id = new_run(store)
    other = new_run(store)
    team = store.create_share_link(run_id, "team")
    soon = datetime.now(UTC) + timedelta(days=7)
    anyone = store.create_share_link(run_id, "anyone", soon, created_by="a@example.org")
    store.create_share_link(other, "anyone")
    assert team.token != anyone.token and team.run_id == run_id
    assert {link.token for link in store.share_links(run_id)} == {team.token, anyone.token}
    assert store.share_link(anyone.token) == anyone
    assert anyone.audience == "anyone" and anyone.created_by == "a@example.org"
    assert anyone.state() == "active" and anyone.expires_at is not None
    assert anyone.state(soon + timedelta(seconds=1)) == "expired"
    revoked = store.revoke_share_link(team.token)
    assert revoked is not None and revoked.state() == "revoked"
    assert store.share_link(team.token).state() == "revoked"
    assert store.share_link(anyone.token).state() == "active"
    assert store.revoke_share_link(new_share_token()) is None
    assert store.share_link(new_share_token()) is None


def test_an_expired_link_says_expired(store):
    run_id = new_run(store)
    link = store.create_share_link(run_id, "anyone", datetime.now(UTC) - timedelta(minutes=1))
    assert store.share_link(link.token).state() == "expired"


def test_a_link_to_no_run_is_refused(store):
    with pytest.raises(StoreError):
        store.create_share_link("no-such-run-0000000", "anyone")


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("7d", timedelta(days=7)),
        ("12h", timedelta(hours=12)),
        ("30m", timedelta(minutes=30)),
        (" 2w ", timedelta(weeks=2)),
    ],
)
def test_durations(text, delta):
    assert parse_duration(text) == delta


@pytest.mark.parametrize("text", ["", "7", "0d", "-1d", "7 days", "99999d", "1y"])
def test_bad_durations_say_how_to_write_them(text):
    with pytest.raises(ValueError, match="7d"):
        parse_duration(text)
