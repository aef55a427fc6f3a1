"""Weval's aggregation of point scores into one score per prompt and model (spec §4.1).

`final = mean([wavg(required) if any] + [max over paths of wavg(path) if any])`, where
`wavg` is the multiplier-weighted mean. Errored and unverified points are left out of both
numerator and denominator; a group with no scored point is left out of the mean; a prompt
with nothing scored has no score (None), never 0. The published number is rounded like
JavaScript's `toFixed(2)`. `explain()` returns the same arithmetic as data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.assessment import PointAssessment
from engine.js.values import js_round, js_to_fixed
from engine.records import Record, coerce_floats

__all__ = [
    "GroupExplanation",
    "PathExplanation",
    "PointLine",
    "ScoreExplanation",
    "aggregate",
    "combine",
    "explain",
    "weighted_mean",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class PointLine(Record):
    """One point's part in the arithmetic."""

    index: int
    """Position in the cell's point assessments."""
    text: str
    """The criterion text (`Function: ...` for functions)."""
    score: float | None
    """The point's score after inversion, if scored."""
    weight: float
    """The point's multiplier."""
    inverted: bool = False
    """A `should_not` point (score = 1 - s)."""
    status: str
    """scored, errored or unverified."""
    reason: str | None = None
    """Why it was left out, if it was."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("score", "weight"))


@dataclass(frozen=True, kw_only=True, slots=True)
class PathExplanation(Record):
    """One alternative path: the weighted mean of its scored points."""

    path_id: str
    score: float | None
    """None when none of its points was scored."""
    weight_total: float
    points: list[PointLine]
    merged_should_not: bool = False
    """True when `should_not` points share this path id (Weval merges them)."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("score", "weight_total"))


@dataclass(frozen=True, kw_only=True, slots=True)
class GroupExplanation(Record):
    """A unit of the final mean: the required points, or the best of the alternative paths."""

    kind: str
    """`required` or `paths`."""
    score: float
    weight_total: float = 0.0
    points: list[PointLine] = field(default_factory=list)
    """For `required`."""
    paths: list[PathExplanation] = field(default_factory=list)
    """For `paths`."""
    winner: str | None = None
    """The path id that won the max."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("score", "weight_total"))


@dataclass(frozen=True, kw_only=True, slots=True)
class ScoreExplanation(Record):
    """The whole arithmetic behind a score, reproducing it exactly."""

    score: float | None
    """The published score (toFixed(2)), or None."""
    raw: float | None
    """The unrounded mean of the groups."""
    groups: list[GroupExplanation]
    left_out: list[PointLine]
    """Points not counted, with the reason."""
    formula: str
    """The arithmetic in one line, e.g. `(0.750 + 0.100) / 2`."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("score", "raw"))


def weighted_mean(pairs: Sequence[tuple[float, float]]) -> float | None:
    """Return Σ(score × weight) / Σ weight over (score, weight) pairs; None if there are none."""
    total = sum(w for _, w in pairs)
    if not pairs or total == 0:
        return None
    return sum(s * w for s, w in pairs) / total


def _line(index: int, a: PointAssessment) -> PointLine:
    reason: str | None = None
    if not a.counts:
        reason = a.status if a.status != "scored" else "not a number"
        if a.error:
            reason = f"{reason}: {a.error}"
    return PointLine(
        index=index,
        text=a.key_point_text,
        score=a.coverage_extent if a.counts else None,
        weight=a.multiplier,
        inverted=a.is_inverted,
        status=a.status,
        reason=reason,
    )


def explain(assessments: Sequence[PointAssessment]) -> ScoreExplanation:
    """Return the aggregation arithmetic for one prompt × model, as data."""
    required: list[PointLine] = []
    paths: dict[str, list[PointLine]] = {}
    inverted_in_path: set[str] = set()
    plain_in_path: set[str] = set()
    left_out: list[PointLine] = []
    for index, a in enumerate(assessments):
        line = _line(index, a)
        if line.reason is not None:
            left_out.append(line)
        path_id = (a.path_id or "").strip()
        if path_id:
            paths.setdefault(path_id, []).append(line)
            (inverted_in_path if a.is_inverted else plain_in_path).add(path_id)
        else:
            required.append(line)

    groups: list[GroupExplanation] = []
    req_pairs = [(p.score, p.weight) for p in required if p.score is not None]
    req_score = weighted_mean(req_pairs)
    if req_score is not None:
        groups.append(
            GroupExplanation(
                kind="required",
                score=req_score,
                weight_total=sum(w for _, w in req_pairs),
                points=required,
            )
        )
    path_lines: list[PathExplanation] = []
    for path_id, lines in paths.items():
        pairs = [(p.score, p.weight) for p in lines if p.score is not None]
        path_lines.append(
            PathExplanation(
                path_id=path_id,
                score=weighted_mean(pairs),
                weight_total=sum(w for _, w in pairs),
                points=lines,
                merged_should_not=path_id in inverted_in_path and path_id in plain_in_path,
            )
        )
    scored_paths = [p for p in path_lines if p.score is not None]
    if scored_paths:
        best = max(scored_paths, key=lambda p: p.score if p.score is not None else -1.0)
        groups.append(
            GroupExplanation(
                kind="paths", score=best.score or 0.0, paths=path_lines, winner=best.path_id
            )
        )
    if not groups:
        return ScoreExplanation(
            score=None, raw=None, groups=[], left_out=left_out, formula="nothing was scored"
        )
    raw = sum(g.score for g in groups) / len(groups)
    # scores read with 2 decimals everywhere (`engine.js.values.format_score`), here too
    parts = " + ".join(js_to_fixed(g.score, 2) for g in groups)
    formula = f"({parts}) / {len(groups)} = {js_to_fixed(raw, 2)}"
    return ScoreExplanation(
        score=js_round(raw, 2), raw=raw, groups=groups, left_out=left_out, formula=formula
    )


def aggregate(assessments: Sequence[PointAssessment]) -> float | None:
    """Return the unrounded score of one prompt × model, or None when nothing was scored.

    This is the hot path of scoring; `explain()` gives the same number with its arithmetic.
    """
    return combine(
        [
            (a.path_id.strip() if a.path_id else "", a.coverage_extent, a.multiplier)
            for a in assessments
            if a.counts
        ]
    )


def combine(parts: Sequence[tuple[str, float | None, float]]) -> float | None:
    """Weval's score from the counted points as (path id or "", score, weight).

    The required points' weighted mean and the best path's weighted mean, averaged (either
    alone when the other has no point); None when there is no point.
    """
    req_num = req_den = 0.0
    path_num: dict[str, float] = {}
    path_den: dict[str, float] = {}
    for path_id, score, multiplier in parts:
        assert score is not None
        if path_id:
            path_num[path_id] = path_num.get(path_id, 0.0) + score * multiplier
            path_den[path_id] = path_den.get(path_id, 0.0) + multiplier
        else:
            req_num += score * multiplier
            req_den += multiplier
    groups: list[float] = []
    if req_den > 0:
        groups.append(req_num / req_den)
    best = [path_num[p] / d for p, d in path_den.items() if d > 0]
    if best:
        groups.append(max(best))
    if not groups:
        return None
    return sum(groups) / len(groups)
