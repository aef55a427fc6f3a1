"""`blueprint members`: list, set (also before a first login), remove, disable and enable."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from engine.cli import cli
from engine.store import open_store


@pytest.fixture(params=["sqlite", "postgres"])
def team_store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The studio's store of the CLI: $BLUEPRINT_HOME/studio.db, or a PostgreSQL database."""
    if request.param == "postgres":
        url = request.getfixturevalue("pg_url")
        monkeypatch.setenv("BLUEPRINT_DATABASE_URL", url)
        return url
    monkeypatch.delenv("BLUEPRINT_DATABASE_URL", raising=False)
    return "sqlite"


def members(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["members", *args])
    return result.exit_code, result.stdout, result.stderr


def test_members_are_set_listed_disabled_and_removed(team_store: str):
    code, out, err = members("list")
    assert code == 0 and "No members yet" in out
    assert "the team has no admin" in err and "blueprint members set EMAIL admin" in err

    code, out, err = members("set", "Alice@Example.org", "admin")
    assert code == 0 and "alice@example.org is recorded as admin" in out and err == ""
    assert open_store().record_login("alice@example.org", "Alice", "viewer").role == "admin"
    code, out, _ = members("set", "bob@example.org", "editor")
    assert code == 0
    code, out, err = members("list")
    lines = out.splitlines()
    assert lines[0].split() == ["e-mail", "role", "status", "last", "login"]
    assert lines[1].split()[:3] == ["alice@example.org", "admin", "active"]
    assert lines[2].split() == ["bob@example.org", "editor", "active", "never"]
    assert err == ""

    store = open_store()
    store.start_session("s-bob", "bob@example.org")
    assert members("disable", "bob@example.org")[0] == 0
    assert not store.user("bob@example.org").active
    assert store.session("s-bob").ended_reason == "disabled"
    assert "disabled" in members("list")[1].splitlines()[2]
    assert members("enable", "bob@example.org")[0] == 0 and store.user("bob@example.org").active

    code, out, err = members("remove", "alice@example.org")
    assert code == 0 and "removed" in out and "the team has no admin" in err
    assert store.user("alice@example.org") is None


def test_unusable_arguments_exit_2_with_a_plain_message(team_store: str):
    code, _, err = members("remove", "nobody@example.org")
    assert code == 2 and "No member has the e-mail nobody@example.org" in err
    code, _, err = members("disable", "nobody@example.org")
    assert code == 2 and "No member" in err
    code, _, err = members("set", "not-an-email", "admin")
    assert code == 2 and "is not an e-mail address" in err
    code, _, err = members("set", "ann@example.org", "owner")
    assert code == 2 and "owner" in err
    assert open_store().users() == []
