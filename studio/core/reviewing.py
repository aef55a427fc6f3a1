"""What the review panel and the calibration view show, from the engine's judged points (pure).

A reviewer picks judged points of one prompt (a point × model cell of the grid), agrees with
the judge or gives a score on the judge's scale, and may add a comment; the verdicts become
`ReviewRow`s keyed by the answer and the criterion. No Streamlit here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from engine.js.values import format_score
from engine.judge.scales import NINE_POINT, Scale, scale_for
from engine.report.reviews import JudgedPoint, PointReviews
from engine.review import RunCalibration
from engine.store import MAX_COMMENT_CHARS, ReviewRow, Verdict
from studio.core.resultdata import Results
from studio.core.textsafe import one_line

__all__ = [
    "AGREE",
    "LOCAL_AUTHOR",
    "alpha_text",
    "anonymous",
    "calibration_rows",
    "choice_label",
    "grid_with_marks",
    "make_reviews",
    "mark",
    "mark_legend",
    "results_scale",
    "starting_score",
]

AGREE = "Agree with the judge"
"""The verdict that keeps the judge's score."""

LOCAL_AUTHOR = "me"
"""The author of verdicts given in personal mode (no login)."""


def results_scale(results: Results) -> Scale:
    """The judges' scale of these results (the blueprint's, Weval's 9-point by default)."""
    config = results.comparison.config
    evaluation = config.get("evaluationConfig") if isinstance(config, dict) else None
    return scale_for(evaluation) if isinstance(evaluation, dict) else NINE_POINT


def choice_label(point: JudgedPoint, names: dict[str, str]) -> str:
    """How a judged point is listed for picking: number, model, the judges' score, its text."""
    name = names.get(point.model, point.model)
    return (
        f"#{point.number} · {name} · judges {format_score(point.judge_score)} — "
        f"{one_line(point.criterion, 60)}"
    )


def starting_score(points: Sequence[JudgedPoint], scale: Scale) -> float:
    """Where the reviewer's score starts: the judges' score of the picked points.

    Their mean, on the nearest class of the judges' scale; the scale's middle when nothing
    is picked yet.
    """
    if not points:
        return scale.classes[len(scale.classes) // 2].score
    return scale.nearest(sum(p.judge_score for p in points) / len(points)).score


def _marked(judges: str, agreed: bool, mean: float | None) -> str:
    """A reviewed cell as the grid shows it: the judges' score, then the reviewers' mark."""
    return f"{judges} ✓ reviewed" if agreed else f"{judges} → {format_score(mean)} reviewed"


def mark(point_reviews: Sequence[ReviewRow]) -> str:
    """A grid cell's review mark: ✓ when every reviewer agrees, else → their (mean) score."""
    if not point_reviews:
        return ""
    if all(r.verdict == "agree" for r in point_reviews):
        return _marked("", True, None)
    mean = sum(r.score for r in point_reviews) / len(point_reviews)
    return _marked("", False, mean)


def mark_legend() -> str:
    """The grid's legend of review marks, written with the very marks the cells carry."""
    agreed, changed = _marked("0.50", True, None), _marked("0.50", False, 0.25)
    return (
        f"“{agreed}”: the judges gave 0.50 and every reviewer agrees; “{changed}”: the "
        "judges gave 0.50, the reviewers (their mean) 0.25 instead."
    )


def grid_with_marks(
    results: Results, prompt_id: str, points: Sequence[JudgedPoint], matched: PointReviews
) -> list[dict[str, Any]]:
    """The point × model grid of one prompt, each reviewed cell marked (see `mark`)."""
    grid = results.point_grid(prompt_id)
    # the grid is in the blueprint's order; a point's index is its place in the cell's order
    by_number = {row["#"]: row for row in grid}
    numbers = results.point_numbers(prompt_id)
    for p in points:
        found = matched.get((p.prompt_id, p.model, p.index))
        row = by_number.get(numbers[p.index]) if p.index < len(numbers) else None
        if found and row is not None:
            column = results.names[p.model]
            row[column] = f"{row[column]}{mark(found)}"
    return grid


def make_reviews(
    points: Sequence[JudgedPoint],
    *,
    verdict: Verdict,
    score: float | None,
    comment: str | None,
    author: str,
    run_id: str | None,
    at: datetime | None = None,
) -> list[ReviewRow]:
    """The verdicts one submit gives the picked points (`agree` keeps each judge's score).

    Raises:
        ValueError: A score verdict without a score.
    """
    if verdict == "score" and score is None:
        raise ValueError("Pick a score on the judge's scale, or agree with the judge.")
    stamp = (at or datetime.now(UTC)).isoformat(timespec="milliseconds")
    note = (comment or "").strip()[:MAX_COMMENT_CHARS] or None
    return [
        ReviewRow(
            prompt_id=p.prompt_id,
            model_id=p.model,
            answer_hash=p.answer_hash,
            criterion_hash=p.criterion_hash,
            author=author,
            criterion=p.criterion,
            verdict=verdict,
            score=p.judge_score if verdict == "agree" or score is None else score,
            judge_score=p.judge_score,
            comment=note,
            run_id=run_id,
            point_index=p.index,
            created_at=stamp,
        )
        for p in points
    ]


def alpha_text(value: float | None) -> str:
    """An alpha with two decimals, or "—" when there is too little to compute it."""
    return "—" if value is None else f"{value:.2f}"


def anonymous(reviews: Sequence[ReviewRow]) -> list[ReviewRow]:
    """The verdicts with their authors hidden (for visitors who are not team members)."""
    return [replace(r, author="a reviewer") for r in reviews]


def calibration_rows(calibration: RunCalibration, *, only_rewrite: bool) -> list[dict[str, Any]]:
    """Per criterion: judges' spread and alpha, reviewers' alpha and the judge-high/low counts."""
    items = calibration.to_rewrite() if only_rewrite else calibration.criteria
    rows: list[dict[str, Any]] = []
    for c in items:
        spread = (
            f"{format_score(c.spread_low)}–{format_score(c.spread_high)}"
            if c.spread_low is not None
            else "—"
        )
        why = []
        if c.judges_split:
            why.append("judges disagree")
        if c.reviewers_differ:
            why.append("reviewers disagree")
        rows.append(
            {
                "Prompt": c.prompt_id,
                "#": c.number,
                "Point": c.criterion,
                "Why rewrite": ", ".join(why),
                "Answers": c.answers,
                "Judges' widest spread": spread,
                "α judges": alpha_text(c.judge_alpha),
                "Reviewed": c.reviewed,
                "α judges vs reviewers": alpha_text(c.human_alpha),
                "Judge high, human low": c.judge_high,
                "Judge low, human high": c.judge_low,
            }
        )
    return rows
