"""A draft belongs to its author (store contract, every backend of `BACKENDS`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.store import Store
from tests.store.test_contract import BACKENDS

TEXT = "title: Mine\n---\n- id: q\n  prompt: Hi?\n  should:\n    - Says hello.\n"


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A fresh store of each backend of the contract tests."""
    return BACKENDS[request.param](request, tmp_path)()


def test_the_author_is_the_maker_and_later_saves_do_not_change_it(store: Store):
    store.save_draft("d-ann", TEXT, "Mine", explicit=True, author="ann@example.org")
    store.save_draft("d-ann", TEXT + "# more\n", "Mine", author="bob@example.org")
    assert store.draft_author("d-ann") == (True, "ann@example.org")
    assert store.draft_author("no-such-draft") == (False, None)
    store.save_draft("d-personal", TEXT, "Mine")
    assert store.draft_author("d-personal") == (True, None)


def test_drafts_are_listed_per_author(store: Store):
    store.save_draft("d-ann", TEXT, "Ann's", author="ann@example.org")
    store.save_draft("d-bob", TEXT, "Bob's", author="bob@example.org")
    store.save_draft("d-old", TEXT, "Before logins")
    assert [d.id for d in store.list_drafts(author="ann@example.org")] == ["d-ann"]
    assert {d.id for d in store.list_drafts()} == {"d-ann", "d-bob", "d-old"}
    assert {d.author for d in store.list_drafts()} == {"ann@example.org", "bob@example.org", None}
    same = store.drafts_with_text(TEXT, author="bob@example.org")
    assert [d.id for d in same] == ["d-bob"]
    assert {d.id for d in store.drafts_with_text(TEXT)} == {"d-ann", "d-bob", "d-old"}
