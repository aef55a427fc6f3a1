"""Team mode: a draft is its author's alone (listing, opening, reuse, a run's version)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.settings import load_settings
from engine.store import open_store
from engine.store.users import allowed_domains, email_allowed, first_admins
from studio.core import drafts
from studio.core.drafts import Owner
from tests.studio.helpers import example, make_run

ANN = Owner(team=True, email="ann@example.org")
BOB = Owner(team=True, email="bob@example.org")
ADMIN = Owner(team=True, email="root@example.org", admin=True)


def test_members_see_and_open_their_own_drafts_only(tmp_path: Path):
    store = open_store(tmp_path / "studio.db")
    text = example("or-paths.yml")
    mine = drafts.open_as_draft(store, text, "T", new_id="d-ann", note="Opened", owner=ANN)
    store.save_draft("d-before", text, "T")  # made in personal mode, copied in
    assert [d.id for d in drafts.visible_drafts(store, ANN)] == [mine]
    assert drafts.visible_drafts(store, BOB) == []
    assert {d.id for d in drafts.visible_drafts(store, ADMIN)} == {"d-before"}
    assert drafts.may_open(store, mine, ANN)
    assert not drafts.may_open(store, mine, BOB)
    assert not drafts.may_open(store, mine, ADMIN)
    assert not drafts.may_open(store, "no-such-draft", ANN)
    # personal mode: one user, every draft
    assert {d.id for d in drafts.visible_drafts(store)} == {"d-ann", "d-before"}
    assert drafts.may_open(store, mine)


def test_the_same_example_opened_by_two_members_makes_two_drafts(tmp_path: Path):
    store = open_store(tmp_path / "studio.db")
    text = example("or-paths.yml")
    first = drafts.open_as_draft(store, text, "T", new_id="d-1", note="Opened", owner=ANN)
    again = drafts.open_as_draft(store, text, "T", new_id="d-2", note="Opened", owner=ANN)
    other = drafts.open_as_draft(store, text, "T", new_id="d-3", note="Opened", owner=BOB)
    assert first == again == "d-1"
    assert other == "d-3" and store.draft_author("d-3") == (True, BOB.email)


def test_a_teammates_run_opens_as_a_draft_of_ones_own(tmp_path: Path):
    store = open_store(tmp_path / "studio.db")
    text = example("functions.yml")
    drafts.open_as_draft(store, text, "T", new_id="d-ann", note="Opened", owner=ANN)
    run_id = make_run(store, text, ["ideal"])
    run = store.get_run(run_id)
    assert run is not None
    run.options["draft"] = ["d-ann", 1]
    draft, number = drafts.draft_for_run(store, run, text + "# v2\n", new_id="d-bob", owner=BOB)
    assert (draft, number) == ("d-bob", 1)
    assert store.draft("d-ann") == text  # Ann's draft got no version from Bob
    mine, n = drafts.draft_for_run(store, run, text + "# v2\n", new_id="d-x", owner=ANN)
    assert mine == "d-ann" and n == 2


def test_allowed_domains_and_admins_come_from_settings_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("BLUEPRINT_HOME", str(tmp_path))
    monkeypatch.delenv("BLUEPRINT_ALLOWED_DOMAINS", raising=False)
    monkeypatch.delenv("BLUEPRINT_ADMINS", raising=False)
    (tmp_path / "settings.toml").write_text(
        '[team]\nallowed_domains = ["@Example.org"]\nadmins = ["Root@Other.net"]\n'
    )
    settings = load_settings()
    domains = allowed_domains({}, settings.team_domains)
    admins = first_admins({}, settings.team_admins)
    assert domains == {"example.org"} and admins == {"root@other.net"}
    assert email_allowed("ann@example.org", domains, admins)
    assert email_allowed("root@other.net", domains, admins)
    assert not email_allowed("eve@elsewhere.com", domains, admins)
    env = {"BLUEPRINT_ALLOWED_DOMAINS": "corp.example"}
    assert allowed_domains(env, settings.team_domains) == {"example.org", "corp.example"}


def test_a_team_list_that_is_not_a_list_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from engine.errors import ConfigError

    monkeypatch.setenv("BLUEPRINT_HOME", str(tmp_path))
    (tmp_path / "settings.toml").write_text('[team]\nallowed_domains = "example.org"\n')
    with pytest.raises(ConfigError, match=r"\[team\] allowed_domains must be a list"):
        load_settings()
