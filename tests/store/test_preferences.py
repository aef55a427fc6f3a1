"""People's picks between two answers in the store contract (SQLite and PostgreSQL)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store import MIGRATIONS, PreferenceRow, Store
from tests.store.test_contract import BACKENDS, new_run


@pytest.fixture(params=sorted(BACKENDS))
def opener(request: pytest.FixtureRequest, tmp_path: Path):
    """Opens a fresh store of each backend; a second call reopens the same one."""
    return BACKENDS[request.param](request, tmp_path)


def preference(run_id: str, reviewer: str = "me", **changes: object) -> PreferenceRow:
    base = PreferenceRow(
        run_id=run_id,
        prompt_id="q1",
        model_a="openai:fake-a[temp:0]",
        model_b="openai:fake-b[temp:0]",
        reviewer=reviewer,
        choice="b",
        created_at="2026-12-01T06:00:00.000+00:00",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_the_migration_is_the_last_and_applied(opener):
    store: Store = opener()
    assert "012_preferences" in dict(MIGRATIONS)
    assert "012_preferences" in store.applied_migrations()


def test_picks_are_kept_and_read_back_after_reopening(opener):
    first: Store = opener()
    run = new_run(first)
    given = [
        preference(run),
        preference(
            run, "ana@example.org", choice="same", created_at="2026-12-01T06:01:00.000+00:00"
        ),
        preference(run, prompt_id="q2", choice="a", created_at="2026-12-01T06:02:00.000+00:00"),
    ]
    for row in given:
        first.save_preference(row)
    again: Store = opener()  # a new process opens the same store
    assert again.preferences(run) == given  # oldest first, every field as written
    assert again.preferences("another-run") == []


def test_a_new_pick_replaces_the_reviewers_earlier_pick_on_the_pair(opener):
    store: Store = opener()
    run = new_run(store)
    store.save_preference(preference(run))
    store.save_preference(preference(run, "ana@example.org"))
    store.save_preference(
        preference(run, choice="same", created_at="2026-12-01T07:00:00.000+00:00")
    )
    found = {(p.reviewer, p.choice) for p in store.preferences(run)}
    assert found == {("me", "same"), ("ana@example.org", "b")}


def test_picks_of_other_runs_are_kept_apart_and_go_with_their_run(opener):
    store: Store = opener()
    one, two = new_run(store), new_run(store)
    store.save_preference(preference(one))
    store.save_preference(preference(two, choice="a"))
    assert [p.choice for p in store.preferences(one)] == ["b"]
    assert [p.choice for p in store.preferences(two)] == ["a"]


def test_a_pick_on_a_run_that_does_not_exist_is_refused(opener):
    store: Store = opener()
    with pytest.raises(StoreError):
        store.save_preference(preference("no-such-run"))
