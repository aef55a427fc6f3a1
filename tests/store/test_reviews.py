"""Review verdicts in the store contract (every backend of `BACKENDS`)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engine.store import (
    MAX_COMMENT_CHARS,
    MIGRATIONS,
    ReviewRow,
    Store,
    answer_hash,
    criterion_hash,
    open_store,
)
from tests.store.test_contract import BACKENDS

POINT = "Names the Gregorian calendar."


@pytest.fixture(params=sorted(BACKENDS))
def opener(request: pytest.FixtureRequest, tmp_path: Path):
    """Opens a fresh store of each backend; a second call reopens the same one."""
    return BACKENDS[request.param](request, tmp_path)


def verdict(author: str = "me", **changes: object) -> ReviewRow:
    base = ReviewRow(
        prompt_id="q1",
        model_id="openai:gpt-4.1-mini",
        answer_hash=answer_hash("January 1, by the Gregorian calendar."),
        criterion_hash=criterion_hash(POINT),
        author=author,
        criterion=POINT,
        verdict="score",
        score=0.25,
        judge_score=0.875,
        comment="It never names the calendar.",
        run_id="run-a",
        point_index=0,
        created_at="2026-12-01T06:00:00.000+00:00",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_the_migration_is_applied(opener):
    store: Store = opener()
    assert "008_reviews" in [name for name, _ in MIGRATIONS]
    assert "008_reviews" in store.applied_migrations()


def test_verdicts_are_kept_and_read_back_after_reopening(opener):
    first: Store = opener()
    given = [
        verdict(),
        verdict("ana@example.org", verdict="agree", score=0.875, comment=None),
    ]
    first.save_reviews(given)
    again: Store = opener()  # a new process opens the same store
    found = again.reviews(["q1"])
    assert {(r.author, r.verdict, r.score, r.comment) for r in found} == {
        ("me", "score", 0.25, "It never names the calendar."),
        ("ana@example.org", "agree", 0.875, None),
    }
    assert found[0] == next(r for r in given if r.author == found[0].author)


def test_a_new_verdict_replaces_the_authors_earlier_one(opener):
    store: Store = opener()
    store.save_reviews([verdict()])
    store.save_reviews(
        [verdict(verdict="agree", score=0.875, comment="fine", run_id="run-b", point_index=2)]
    )
    (row,) = store.reviews(["q1"])
    assert (row.verdict, row.score, row.comment, row.run_id, row.point_index) == (
        "agree",
        0.875,
        "fine",
        "run-b",
        2,
    )


def test_verdicts_are_found_by_prompt_only(opener):
    store: Store = opener()
    store.save_reviews([verdict(), verdict(prompt_id="q2")])
    assert [r.prompt_id for r in store.reviews(["q2"])] == ["q2"]
    assert store.reviews(["q3"]) == []
    assert len(store.reviews([f"p{i}" for i in range(1200)] + ["q1"])) == 1  # chunked


def test_an_author_withdraws_only_their_own_verdict(opener):
    store: Store = opener()
    mine, theirs = verdict(), verdict("ana@example.org")
    store.save_reviews([mine, theirs])
    assert store.delete_reviews([mine.key], "me") == 1
    assert [r.author for r in store.reviews(["q1"])] == ["ana@example.org"]
    assert store.delete_reviews([mine.key], "me") == 0


def test_unicode_and_long_texts_survive(opener):
    store: Store = opener()
    long_point = "Cites ‘Regulation (EU) 2016/679’ — " + "x" * 5000
    row = verdict(criterion=long_point, criterion_hash=criterion_hash(long_point), comment="ü ✓")
    store.save_reviews([row])
    assert store.reviews(["q1"]) == [row]


def test_a_comment_over_the_cap_is_refused_by_the_store_and_nothing_is_saved(opener):
    store: Store = opener()
    at_cap = verdict(comment="c" * MAX_COMMENT_CHARS)
    over = verdict("ana@example.org", comment="c" * (MAX_COMMENT_CHARS + 1))
    with pytest.raises(ValueError, match="at most 2,000 characters"):
        store.save_reviews([at_cap, over])
    assert store.reviews(["q1"]) == []
    store.save_reviews([at_cap])
    assert store.reviews(["q1"]) == [at_cap]


def test_verdicts_written_by_one_process_are_read_by_another(tmp_path):
    path = tmp_path / "studio.db"
    code = (
        "import sys; from engine.store import open_store; from tests.store.test_reviews import "
        "verdict; open_store(sys.argv[1]).save_reviews([verdict()])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert open_store(path).reviews(["q1"]) == [verdict()]
