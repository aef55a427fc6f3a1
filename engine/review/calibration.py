"""Judge calibration per criterion and per run: judges against each other and against reviewers.

For each criterion (a text point of a prompt) over the answers of a run:

- the judges' agreement with each other: Krippendorff's alpha (interval) over the answers, each
  judge a coder, and the spread (highest minus lowest judge score) on its worst answer;
- the judges' agreement with the reviewers: alpha over the reviewed answers, the judges'
  consensus as one coder and each reviewer as another, and the counts of answers the judges
  scored at least `GAP` higher than the reviewers (judge high, human low) and the reverse.

A criterion whose judges spread by `SPREAD_LIMIT` or more on one answer, or whose judges and
reviewers differ by `DISAGREE_LIMIT` or more on one, is one of "the points to rewrite first".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.judge.agreement import interval_alpha
from engine.report.reviews import JudgedPoint, PointReviews

__all__ = [
    "DISAGREE_LIMIT",
    "GAP",
    "SPREAD_LIMIT",
    "CriterionCalibration",
    "RunCalibration",
    "calibrate",
]

GAP = 0.25
"""A judge-reviewer difference of this much or more counts as judge-high/human-low (or the reverse)."""

SPREAD_LIMIT = 0.375
"""Judges this far apart on one answer (3 steps of the 9-point scale) mark the criterion."""

DISAGREE_LIMIT = 0.375
"""Judges and a reviewer this far apart on one answer mark the criterion."""


@dataclass(frozen=True)
class CriterionCalibration:
    """How far the judges of one criterion can be trusted, over one run's answers.

    Attributes:
        prompt_id: The prompt.
        number: The point's number as the blueprint writes it.
        index: The point's index in its prompt's assessments (0-based).
        criterion: The point's text.
        answers: How many answers the judges scored on it.
        judge_alpha: Alpha between the judges (None: fewer than two answers with two judges).
        spread: The largest judge spread on one answer (0 with a single judge).
        spread_low: The lowest judge score on that answer (None with no spread).
        spread_high: The highest judge score on that answer.
        spread_model: The model whose answer it was.
        reviewed: How many answers have a reviewer's verdict on it.
        human_alpha: Alpha between the judges' consensus and the reviewers (None: too few).
        judge_high: Answers where the judges scored `GAP` or more above a reviewer.
        judge_low: Answers where the judges scored `GAP` or more below a reviewer.
        largest_gap: The largest judge-reviewer difference on one answer (0 without review).
    """

    prompt_id: str
    number: int
    index: int
    criterion: str
    answers: int
    judge_alpha: float | None
    spread: float
    spread_low: float | None
    spread_high: float | None
    spread_model: str | None
    reviewed: int
    human_alpha: float | None
    judge_high: int
    judge_low: int
    largest_gap: float

    @property
    def judges_split(self) -> bool:
        """The judges disagree with each other on some answer."""
        return self.spread >= SPREAD_LIMIT

    @property
    def reviewers_differ(self) -> bool:
        """The judges and a reviewer disagree on some answer."""
        return self.largest_gap >= DISAGREE_LIMIT

    @property
    def to_rewrite(self) -> bool:
        """One of the points to rewrite first."""
        return self.judges_split or self.reviewers_differ

    @property
    def severity(self) -> float:
        """How far apart the worst answer is (spread or gap), for ordering."""
        return max(self.spread, self.largest_gap)


@dataclass(frozen=True)
class RunCalibration:
    """Judge calibration of one run: per criterion, and over all of them.

    Attributes:
        criteria: One entry per criterion, in prompt and point order.
        judge_alpha: Alpha between the judges over every answer of every criterion.
        human_alpha: Alpha between judges and reviewers over every reviewed answer.
        reviewed: Reviewed answers (of points) in all.
        judge_high: Judge-high/human-low answers in all.
        judge_low: Judge-low/human-high answers in all.
    """

    criteria: list[CriterionCalibration]
    judge_alpha: float | None
    human_alpha: float | None
    reviewed: int
    judge_high: int
    judge_low: int

    def to_rewrite(self) -> list[CriterionCalibration]:
        """The points to rewrite first: marked criteria, the widest disagreement first."""
        marked = [c for c in self.criteria if c.to_rewrite]
        return sorted(marked, key=lambda c: (-c.severity, c.prompt_id, c.index))


def _units(points: Sequence[JudgedPoint]) -> list[list[float | None]]:
    """One unit per answer, one coder per judge (a judge that gave none: None)."""
    per = [dict(p.judges) for p in points]
    judges = sorted({j for unit in per for j in unit})
    return [[unit.get(j) for j in judges] for unit in per]


def _criterion(points: Sequence[JudgedPoint], matched: PointReviews) -> CriterionCalibration:
    first = points[0]
    spread, low, high, model = 0.0, None, None, None
    for p in points:
        scores = [s for _, s in p.judges]
        if len(scores) >= 2 and max(scores) - min(scores) > spread:
            spread, low, high, model = max(scores) - min(scores), min(scores), max(scores), p.model
    human_units: list[list[float | None]] = []
    high_n = low_n = 0
    gap = 0.0
    for p in points:
        reviews = matched.get((p.prompt_id, p.model, p.index), [])
        if not reviews:
            continue
        human_units.append([p.judge_score, *(r.score for r in reviews)])
        diffs = [p.judge_score - r.score for r in reviews]
        high_n += any(d >= GAP for d in diffs)
        low_n += any(-d >= GAP for d in diffs)
        gap = max(gap, *(abs(d) for d in diffs))
    return CriterionCalibration(
        prompt_id=first.prompt_id,
        number=first.number,
        index=first.index,
        criterion=first.criterion,
        answers=len(points),
        judge_alpha=interval_alpha(_units(points)),
        spread=spread,
        spread_low=low,
        spread_high=high,
        spread_model=model,
        reviewed=len(human_units),
        human_alpha=interval_alpha(human_units),
        judge_high=high_n,
        judge_low=low_n,
        largest_gap=gap,
    )


def calibrate(points: Sequence[JudgedPoint], matched: PointReviews) -> RunCalibration:
    """Calibrate a run's judges from its judged points and the verdicts matched to them.

    Args:
        points: `engine.report.reviews.judged_points` of the run.
        matched: `engine.report.reviews.match_reviews` of those points.
    """
    groups: dict[tuple[str, int, str], list[JudgedPoint]] = {}
    for p in points:
        groups.setdefault((p.prompt_id, p.index, p.criterion), []).append(p)
    criteria = [_criterion(group, matched) for group in groups.values()]
    human_units = [
        [p.judge_score, *(r.score for r in reviews)]
        for p in points
        if (reviews := matched.get((p.prompt_id, p.model, p.index)))
    ]
    return RunCalibration(
        criteria=criteria,
        judge_alpha=interval_alpha(_units(points)),
        human_alpha=interval_alpha(human_units),
        reviewed=sum(c.reviewed for c in criteria),
        judge_high=sum(c.judge_high for c in criteria),
        judge_low=sum(c.judge_low for c in criteria),
    )
