"""Reviewers' verdicts matched to a comparison's judged points, and their form in our exports.

A verdict (`engine.store.ReviewRow`) is keyed by its answer's text and its criterion's text,
so it is matched to a comparison by hashing each cell's answer and each point's text: a run
and a re-score of the same answers show the same verdicts. In the comparison JSON they live
in our own `blueprintStudio.reviews` block, which Weval's readers ignore.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.comparison.weval import IDEAL_MODEL_ID, Comparison
from engine.output import json_text
from engine.report.numbering import point_kinds, point_numbers
from engine.store.reviews import ReviewRow, answer_hash, criterion_hash

__all__ = [
    "JudgedPoint",
    "PointReviews",
    "comparison_json_with_reviews",
    "judged_points",
    "match_reviews",
    "review_summary",
    "reviews_block",
]


@dataclass(frozen=True)
class JudgedPoint:
    """A text point of one answer that the judges scored.

    Attributes:
        prompt_id: The prompt.
        model: The effective model id.
        index: The point's index in the cell's assessments (0-based, Weval's order).
        number: The point's number as the blueprint writes it (the results grid's `#`).
        criterion: The point's text.
        judge_score: The judges' (consensus) score.
        judges: Each judge's own score, `(judge id, score)`, when several judged it.
        answer_hash: `answer_hash` of the answer.
        criterion_hash: `criterion_hash` of the point's text.
    """

    prompt_id: str
    model: str
    index: int
    number: int
    criterion: str
    judge_score: float
    judges: tuple[tuple[str, float], ...]
    answer_hash: str
    criterion_hash: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What a verdict on it is keyed by (see `ReviewRow.key`)."""
        return (self.prompt_id, self.model, self.answer_hash, self.criterion_hash)


PointReviews = dict[tuple[str, str, int], list[ReviewRow]]
"""Verdicts by judged point: `(prompt id, model, point index)` -> verdicts, oldest first."""


def judged_points(
    comparison: Comparison, prompt_ids: Iterable[str] | None = None
) -> list[JudgedPoint]:
    """Every judged text point of a comparison (or of some prompts), prompt by prompt."""
    out: list[JudgedPoint] = []
    for pid in comparison.prompt_ids if prompt_ids is None else prompt_ids:
        row = comparison.cells.get(pid, {})
        kinds = point_kinds(comparison.config, pid)
        for model in sorted(row):
            cell = row[model]
            if model == IDEAL_MODEL_ID or cell.failed or not cell.assessments:
                continue
            answer = answer_hash(comparison.responses.get(pid, {}).get(model))
            numbers = point_numbers(cell.assessments, kinds)
            for index, a in enumerate(cell.assessments):
                if a.kind != "text" or not a.counts or a.coverage_extent is None:
                    continue
                judges = tuple(
                    (j.judge_model_id, j.coverage_extent) for j in a.individual_judgements or []
                )
                out.append(
                    JudgedPoint(
                        pid,
                        model,
                        index,
                        numbers[index],
                        a.key_point_text,
                        a.coverage_extent,
                        judges,
                        answer,
                        criterion_hash(a.key_point_text),
                    )
                )
    return out


def match_reviews(points: Sequence[JudgedPoint], reviews: Iterable[ReviewRow]) -> PointReviews:
    """The verdicts on each judged point (points without a verdict are left out)."""
    by_key: dict[tuple[str, str, str, str], list[ReviewRow]] = {}
    for review in reviews:
        by_key.setdefault(review.key, []).append(review)
    out: PointReviews = {}
    for point in points:
        found = by_key.get(point.key)
        if found:
            out[(point.prompt_id, point.model, point.index)] = sorted(
                found, key=lambda r: (r.created_at, r.author)
            )
    return out


def review_summary(reviews: Sequence[ReviewRow]) -> dict[str, Any]:
    """The CSV's review columns for one point's verdicts (all empty when there is none)."""
    if not reviews:
        return {
            "review_verdict": None,
            "review_score": None,
            "review_comment": None,
            "review_author": None,
            "reviewed_at": None,
        }
    verdicts = {r.verdict for r in reviews}
    comments = [f"{r.author}: {r.comment}" for r in reviews if r.comment]
    return {
        "review_verdict": verdicts.pop() if len(verdicts) == 1 else "mixed",
        "review_score": sum(r.score for r in reviews) / len(reviews),
        "review_comment": " | ".join(comments) or None,
        "review_author": ", ".join(r.author for r in reviews),
        "reviewed_at": max(r.created_at for r in reviews),
    }


def reviews_block(points: Sequence[JudgedPoint], matched: PointReviews) -> list[dict[str, Any]]:
    """The verdicts as the comparison JSON's `blueprintStudio.reviews` list."""
    out: list[dict[str, Any]] = []
    for point in points:
        for r in matched.get((point.prompt_id, point.model, point.index), []):
            out.append(
                {
                    "promptId": point.prompt_id,
                    "model": point.model,
                    "point": point.number,
                    "pointIndex": point.index,
                    "keyPointText": point.criterion,
                    "judgeScore": point.judge_score,
                    "verdict": r.verdict,
                    "score": r.score,
                    "comment": r.comment,
                    "author": r.author,
                    "createdAt": r.created_at,
                    "reviewedInRun": r.run_id,
                }
            )
    return out


def comparison_json_with_reviews(comparison: Comparison, reviews: Iterable[ReviewRow]) -> str:
    """The comparison JSON text with the verdicts in `blueprintStudio.reviews`."""
    data = comparison.to_weval()
    points = judged_points(comparison)
    block = data.setdefault("blueprintStudio", {})
    block["reviews"] = reviews_block(points, match_reviews(points, reviews))
    return json_text(data)
