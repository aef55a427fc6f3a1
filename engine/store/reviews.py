"""Reviewers' verdicts on judged points: the typed row, its key, and the queries (both backends).

A verdict is about one answer and one criterion, not one run: it is keyed by the prompt, the
effective model, a hash of the answer text, a hash of the criterion text and its author. A new
run or a re-score that produces the same answer to the same point finds the same verdicts.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from dataclasses import astuple, dataclass
from typing import Any, Literal

from engine.store.writer import upsert

__all__ = [
    "MAX_COMMENT_CHARS",
    "ReviewQueries",
    "ReviewRow",
    "Verdict",
    "answer_hash",
    "criterion_hash",
]

Verdict = Literal["agree", "score"]
"""`agree`: the reviewer agrees with the judge's score; `score`: the reviewer gives their own."""

_COLUMNS = (
    "prompt_id, model_id, answer_hash, criterion_hash, author, criterion, verdict, score, "
    "judge_score, comment, run_id, point_index, created_at"
)
_SAVE = upsert("reviews", _COLUMNS, "prompt_id, model_id, answer_hash, criterion_hash, author")
_CHUNK = 500
MAX_COMMENT_CHARS = 2000
"""The longest review comment the store keeps (the studio's form allows as many)."""


def answer_hash(text: str | None) -> str:
    """The key of an answer's text (SHA-256 of its UTF-8; a missing answer hashes as empty)."""
    return hashlib.sha256((text or "").encode("utf-8", "surrogatepass")).hexdigest()


def criterion_hash(text: str) -> str:
    """The key of a criterion's text (SHA-256 of its UTF-8)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ReviewRow:
    """One reviewer's verdict on one judged point of one answer.

    Attributes:
        prompt_id: The prompt.
        model_id: The effective model id that gave the answer.
        answer_hash: `answer_hash` of the answer's text.
        criterion_hash: `criterion_hash` of the point's text.
        author: Who gave it (the member's e-mail in team mode, `me` in personal mode).
        criterion: The point's text (`keyPointText`).
        verdict: `agree` (with the judge) or `score` (the reviewer's own score).
        score: The reviewer's score on the judge's scale (for `agree`: the judge's score).
        judge_score: The judge's score when the verdict was given (None when unknown).
        comment: The reviewer's comment, if any.
        run_id: The run on whose page the verdict was given.
        point_index: The point's index in the cell's assessments in that run (0-based).
        created_at: When it was given (ISO-8601, UTC); a new verdict replaces the old one.
    """

    prompt_id: str
    model_id: str
    answer_hash: str
    criterion_hash: str
    author: str
    criterion: str
    verdict: Verdict
    score: float
    judge_score: float | None
    comment: str | None
    run_id: str | None
    point_index: int
    created_at: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What the verdict is about: (prompt id, model id, answer hash, criterion hash)."""
        return (self.prompt_id, self.model_id, self.answer_hash, self.criterion_hash)


def _row(values: Sequence[Any]) -> ReviewRow:
    v = list(values)
    return ReviewRow(
        str(v[0]),
        str(v[1]),
        str(v[2]),
        str(v[3]),
        str(v[4]),
        str(v[5]),
        "agree" if v[6] == "agree" else "score",
        float(v[7]),
        None if v[8] is None else float(v[8]),
        None if v[9] is None else str(v[9]),
        None if v[10] is None else str(v[10]),
        int(v[11]),
        str(v[12]),
    )


class ReviewQueries(ABC):
    """Review verdicts, over a backend's `_query` (see `engine.store.base.Store`)."""

    @abstractmethod
    def _query(
        self, sql: str, params: tuple[Any, ...] = (), *, writing: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one statement in its own transaction; return the column names and the rows."""

    def save_reviews(self, reviews: Sequence[ReviewRow]) -> None:
        """Record verdicts; each replaces its author's earlier verdict on the same point.

        Raises:
            ValueError: A comment is longer than `MAX_COMMENT_CHARS` (nothing is saved).
        """
        for review in reviews:
            if review.comment is not None and len(review.comment) > MAX_COMMENT_CHARS:
                raise ValueError(
                    f"A review comment may have at most {MAX_COMMENT_CHARS:,} characters; this "
                    f"one has {len(review.comment):,}. Shorten it."
                )
        for review in reviews:
            self._query(_SAVE, astuple(review), writing=True)

    def delete_reviews(self, keys: Collection[tuple[str, str, str, str]], author: str) -> int:
        """Withdraw an author's verdicts on the points `keys` (see `ReviewRow.key`); count them."""
        done = 0
        for prompt_id, model_id, answer, criterion in keys:
            rows = self._query(
                "DELETE FROM reviews WHERE prompt_id=? AND model_id=? AND answer_hash=? "
                "AND criterion_hash=? AND author=? RETURNING author",
                (prompt_id, model_id, answer, criterion, author),
                writing=True,
            )[1]
            done += len(rows)
        return done

    def reviews(self, prompt_ids: Collection[str]) -> list[ReviewRow]:
        """Return every verdict on answers to these prompts, oldest first."""
        ids = sorted(set(prompt_ids))
        found: list[ReviewRow] = []
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = self._query(
                f"SELECT {_COLUMNS} FROM reviews WHERE prompt_id IN ({marks}) "
                "ORDER BY created_at, author",
                tuple(chunk),
            )[1]
            found.extend(_row(r) for r in rows)
        found.sort(key=lambda r: (r.created_at, r.author))
        return found
