"""A draft's conversation in the store contract (SQLite and PostgreSQL): kept and numbered per
draft; proposals marked accepted or discarded."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store import MIGRATIONS, Store
from tests.store.test_contract import BACKENDS


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A fresh store of each backend of the contract tests."""
    return BACKENDS[request.param](request, tmp_path)()


def test_the_migration_is_listed_and_applied(store):
    assert "013_draft_messages" in dict(MIGRATIONS)
    assert "013_draft_messages" in store.applied_migrations()


def test_messages_are_kept_in_order_with_their_proposals(store):
    store.save_draft("d", "title: T\n", "T")
    store.save_draft("other", "title: O\n", "O")
    assert store.add_draft_message("d", "user", "Test kind refusals.", author="a@x.org") == 1
    proposal = "title: Kind\n---\n- id: a\n  prompt: Hi\n"
    assert store.add_draft_message("d", "assistant", "Here is a first try.", proposal=proposal) == 2
    assert store.add_draft_message("other", "user", "Something else.") == 1
    first, second = store.draft_messages("d")
    assert (first.role, first.content, first.proposal, first.status, first.author) == (
        "user",
        "Test kind refusals.",
        None,
        None,
        "a@x.org",
    )
    assert (second.number, second.role, second.proposal, second.status) == (
        2,
        "assistant",
        proposal,
        "proposed",
    )
    assert [m.content for m in store.draft_messages("other")] == ["Something else."]
    assert store.draft_messages("nobody") == []


def test_a_proposal_is_accepted_or_discarded_and_a_plain_message_is_not_one(store):
    store.save_draft("d", "title: T\n", "T")
    store.add_draft_message("d", "user", "Hi")
    store.add_draft_message("d", "assistant", "Try this.", proposal="title: New\n")
    assert store.set_proposal_status("d", 2, "accepted")
    assert not store.set_proposal_status("d", 1, "accepted")
    assert not store.set_proposal_status("d", 9, "discarded")
    assert [m.status for m in store.draft_messages("d")] == [None, "accepted"]


def test_a_message_needs_its_draft(store):
    with pytest.raises(StoreError, match="not in the store"):
        store.add_draft_message("missing", "user", "Hi")
