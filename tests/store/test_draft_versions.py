"""Draft versions in the store contract (every backend of `BACKENDS`), and the coalescing rule."""

from __future__ import annotations

import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.errors import ConfigError
from engine.settings import DEFAULT_VERSION_PAUSE_S, load_settings
from engine.store import MIGRATIONS, Store
from engine.store.migrations import statements
from engine.store.sqlite import SQLiteStore
from engine.store.versions import REMOVED_LIMIT, removed_chars, version_action
from tests.store.test_contract import BACKENDS

LONG = 3600.0  # an editing pause no test waits for: typing amends the latest version
POINT = "  - Names the Gregorian calendar and says why it starts on January 1.\n"
BASE = "title: New year\n---\n- id: q\n  prompt: When is new year?\n  should:\n" + POINT


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A fresh store of each backend of the contract tests."""
    return BACKENDS[request.param](request, tmp_path)()


def texts(store: Store, draft: str) -> list[str | None]:
    """The text of every version of a draft, oldest first."""
    numbers = [v.number for v in reversed(store.draft_versions(draft))]
    return [store.draft_version_text(draft, n) for n in numbers]


def test_the_migration_is_listed_and_applied(store):
    assert "006_draft_versions" in [name for name, _ in MIGRATIONS]
    assert "006_draft_versions" in store.applied_migrations()


def test_typing_without_a_pause_amends_one_version(store):
    for end in range(1, 6):  # five keystrokes
        assert store.save_draft("d", BASE + "x" * end, "New year", pause_s=LONG) == 1
    assert texts(store, "d") == [BASE + "xxxxx"]
    assert store.draft("d") == BASE + "xxxxx"
    (version,) = store.draft_versions("d")
    assert (version.number, version.kind, version.size) == (1, "edit", len(BASE) + 5)


def test_each_pause_makes_a_version_and_the_same_text_makes_none(store):
    assert store.save_draft("d", BASE, "New year", pause_s=0) == 1
    assert store.save_draft("d", BASE + "a", "New year", pause_s=0) == 2
    assert store.save_draft("d", BASE + "a", "New year", pause_s=0) == 2
    assert store.save_draft("d", BASE + "ab", "Later title", pause_s=0) == 3
    listed = store.draft_versions("d")
    assert [v.number for v in listed] == [3, 2, 1]  # newest first
    assert [v.title for v in listed] == ["Later title", "New year", "New year"]
    assert texts(store, "d") == [BASE, BASE + "a", BASE + "ab"]


def test_an_explicit_save_is_kept_and_typing_after_it_starts_a_new_version(store):
    store.save_draft("d", BASE, "t", explicit=True, note="Opened the example", pause_s=LONG)
    store.save_draft("d", BASE + "a", "t", pause_s=LONG)
    store.save_draft("d", BASE + "ab", "t", pause_s=LONG)
    assert texts(store, "d") == [BASE, BASE + "ab"]
    # saving the text the latest version holds keeps that version: no copy, a note
    assert store.save_draft("d", BASE + "ab", "t", explicit=True, note="Run started") == 2
    assert store.save_draft("d", BASE + "abc", "t", pause_s=LONG) == 3
    kinds = [(v.number, v.kind, v.note) for v in store.draft_versions("d")]
    assert kinds == [
        (3, "edit", None),
        (2, "kept", "Run started"),
        (1, "kept", "Opened the example"),
    ]


def test_pasting_over_a_draft_keeps_the_earlier_text(store):
    store.save_draft("d", BASE, "t", pause_s=LONG)
    pasted = "title: Something else\n---\n- prompt: Hi\n"
    assert store.save_draft("d", pasted, "Something else", pause_s=LONG) == 2
    assert texts(store, "d") == [BASE, pasted]


def test_restoring_a_version_is_a_new_version_and_nothing_is_lost(store):
    store.save_draft("d", BASE, "t", pause_s=0)
    store.save_draft("d", BASE + "# more\n", "t", pause_s=0)
    first = store.draft_version_text("d", 1)
    assert first == BASE
    assert store.save_draft("d", first, "t", explicit=True, note="Restored version 1") == 3
    assert texts(store, "d") == [BASE, BASE + "# more\n", BASE]
    assert store.draft("d") == BASE
    assert store.draft_versions("d")[0].note == "Restored version 1"


def test_listing_finding_and_unknown_drafts(store):
    store.save_draft("a", BASE, "New year", pause_s=0)
    store.save_draft("a", BASE + "a", "New year", pause_s=0)
    time.sleep(0.01)  # saves are stamped to the millisecond: "b" is the newer one
    store.save_draft("b", "title: Blank\n", "Blank", explicit=True, author="ana@example.org")
    listed = {d.id: (d.title, d.versions) for d in store.list_drafts()}
    assert listed == {"a": ("New year", 2), "b": ("Blank", 1)}
    assert [d.id for d in store.list_drafts()] == ["b", "a"]  # newest first
    assert [(d.id, d.versions) for d in store.drafts_with_text("title: Blank\n")] == [("b", 1)]
    assert store.drafts_with_text("title: nothing like it\n") == []
    assert store.draft_versions("b")[0].author == "ana@example.org"
    assert store.draft_versions("nope") == []
    assert store.draft_version_text("a", 9) is None
    assert store.draft_version_text("nope", 1) is None


def test_saves_racing_from_two_places_get_distinct_numbers(store):
    errors: list[BaseException] = []

    def save(who: str) -> None:
        try:
            for i in range(8):
                store.save_draft("d", f"{BASE}# {who} {i}\n", "t", pause_s=0)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(w,)) for w in ("left", "right")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    numbers = [v.number for v in store.draft_versions("d")]
    assert sorted(numbers) == list(range(1, 17))
    kept = set(texts(store, "d"))
    assert kept == {f"{BASE}# {w} {i}\n" for w in ("left", "right") for i in range(8)}


def test_drafts_saved_before_versions_existed_become_version_one(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    before = [name for name, _ in MIGRATIONS].index("006_draft_versions")
    for name, sql in MIGRATIONS[:before]:  # a store of the release before versions
        for statement in statements(sql, "sqlite"):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_migrations VALUES (?, 'then')", (name,))
    conn.execute(
        "INSERT INTO drafts VALUES ('old', 'Old one', ?, '2026-01-01T00:00:00+00:00')", (BASE,)
    )
    conn.close()
    store = SQLiteStore(path)
    (version,) = store.draft_versions("old")
    assert (version.number, version.title, version.kind) == (1, "Old one", "kept")
    assert store.draft_version_text("old", 1) == BASE
    store.save_draft("old", BASE + "a", "Old one", pause_s=LONG)  # kept: typing starts version 2
    assert texts(store, "old") == [BASE, BASE + "a"]


# --- the rule itself --------------------------------------------------------------------


def test_removed_characters_of_one_edit():
    assert removed_chars("abcdef", "abcdef") == 0
    assert removed_chars("abcdef", "abcXYZdef") == 0  # typed in the middle
    assert removed_chars("abcdef", "abef") == 2  # two deleted
    assert removed_chars("abcdef", "abXYef") == 2  # two replaced
    assert removed_chars("aaaa", "aa") == 2  # repeated letters are not counted twice
    assert removed_chars(BASE, "something else entirely") == len(BASE)


def test_version_action_follows_the_documented_rule():
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    soon, later = t0 + timedelta(seconds=5), t0 + timedelta(seconds=31)
    edit = (BASE, "edit", t0)
    kept = (BASE, "kept", t0)
    assert version_action(None, BASE, t0, explicit=False) == "new"
    assert version_action(edit, BASE, soon, explicit=False) == "none"
    assert version_action(edit, BASE, soon, explicit=True) == "seal"
    assert version_action(kept, BASE, soon, explicit=True) == "none"
    assert version_action(edit, BASE + "a", soon, explicit=False) == "amend"
    assert version_action(edit, BASE + "a", later, explicit=False) == "new"
    assert version_action(edit, BASE + "a", soon, explicit=True) == "new"
    assert version_action(kept, BASE + "a", soon, explicit=False) == "new"
    cut = BASE.replace(POINT, "")
    assert len(POINT) > REMOVED_LIMIT
    assert version_action(edit, cut, soon, explicit=False) == "new"  # a deleted point is kept
    short_cut = BASE.replace("January 1", "")
    assert version_action(edit, short_cut, soon, explicit=False) == "amend"


def test_the_pause_is_a_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings = tmp_path / "settings.toml"
    monkeypatch.delenv("BLUEPRINT_VERSION_PAUSE_S", raising=False)
    assert load_settings(settings).version_pause_s == DEFAULT_VERSION_PAUSE_S == 30
    settings.write_text("[editor]\nversion_pause_s = 12\n")
    assert load_settings(settings).version_pause_s == 12
    monkeypatch.setenv("BLUEPRINT_VERSION_PAUSE_S", "2.5")
    assert load_settings(settings).version_pause_s == 2.5
    monkeypatch.setenv("BLUEPRINT_VERSION_PAUSE_S", "soon")
    with pytest.raises(ConfigError, match="BLUEPRINT_VERSION_PAUSE_S must be a number of seconds"):
        load_settings(settings)
