"""How sure a run's leaderboard is: the comparison JSON's `blueprintStudio.uncertainty`.

Each model (an effective id, as in `perModelHybridScores`) gets its mean over prompts with a
95% interval; each pair of models the paired difference over the prompts both scored, whether
it is separable, the smallest difference the run can detect and the prompts needed to detect
`DETECT` (0.05). Where one base model answered each prompt several times (temperatures, system
prompts, `--repeat`), the base model also gets an entry whose prompt scores are the mean of its
answers (clustered by prompt), with the spread within a prompt. Where several judges scored a
point, the share of the interval that comes from their disagreement is given.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Protocol

from engine.stats.intervals import (
    CONFIDENCE,
    Estimate,
    estimate,
    minimum_detectable,
    paired,
    prompts_needed,
)

if TYPE_CHECKING:
    from engine.assessment import PointAssessment

__all__ = [
    "DETECT",
    "ModelUncertainty",
    "PairUncertainty",
    "ScoredCell",
    "Uncertainty",
    "cluster_id",
    "uncertainty_of",
]

DETECT = 0.05
"""The difference the power advice plans for unless the user picks another."""


class ScoredCell(Protocol):
    """What the intervals need of one prompt × model: a `CellScore`, a stored `CellRow`..."""

    @property
    def prompt_id(self) -> str: ...  # noqa: D102

    @property
    def model_id(self) -> str: ...  # noqa: D102

    @property
    def score(self) -> float | None: ...  # noqa: D102


_VARIANT = re.compile(r"\[(?:temp|sp_idx|sys|rep):[^\]]*\]")


def cluster_id(model_id: str) -> str:
    """The base model whose answers to one prompt are clustered (variant suffixes removed)."""
    return _VARIANT.sub("", model_id).strip()


def _clip(value: float | None, low: float, high: float) -> float | None:
    return None if value is None else min(max(value, low), high)


def _num(value: float | None, digits: int = 6) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits)


@dataclass(frozen=True, slots=True)
class ModelUncertainty:
    """One model's mean over prompts with its interval.

    Attributes:
        model: The model id (an effective id, or a base id clustering its `answers`).
        estimate: The mean and its interval over prompts.
        answers: The effective ids clustered into this entry (itself for a plain model).
        within_prompt_sd: Spread between a prompt's answers (None with one answer per prompt).
        judge_share: Part of `se²` that comes from judges' disagreement (None: one judge).
    """

    model: str
    estimate: Estimate
    answers: tuple[str, ...]
    within_prompt_sd: float | None = None
    judge_share: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The `models[id]` entry (interval clipped to [0, 1]; null when there is none)."""
        e = self.estimate
        out: dict[str, Any] = {
            "mean": _num(e.mean),
            "low": _num(_clip(e.low, 0.0, 1.0)),
            "high": _num(_clip(e.high, 0.0, 1.0)),
            "prompts": e.n,
            "standardError": _num(e.se),
            "withinPromptSd": _num(self.within_prompt_sd),
            "judgeShare": _num(self.judge_share, 4),
        }
        if self.answers != (self.model,):
            out["answers"] = list(self.answers)
        return out


@dataclass(frozen=True, slots=True)
class PairUncertainty:
    """Model `a` (the higher mean) against `b`, paired over the prompts both scored."""

    a: str
    b: str
    estimate: Estimate

    @property
    def separable(self) -> bool:
        """The interval of the difference excludes 0: the gap is larger than chance."""
        return self.estimate.separable

    @property
    def minimum_detectable(self) -> float | None:
        """The smallest difference this run detects with 80% power (≈ 2.80 × paired se)."""
        return minimum_detectable(self.estimate.se)

    def prompts_needed(self, difference: float = DETECT) -> int | None:
        """About how many prompts would tell apart `difference` for this pair."""
        return prompts_needed(self.estimate.sd, difference)

    def to_json(self, detect: float = DETECT) -> dict[str, Any]:
        """One `pairs[]` entry."""
        e = self.estimate
        return {
            "a": self.a,
            "b": self.b,
            "difference": _num(e.mean),
            "low": _num(_clip(e.low, -1.0, 1.0)),
            "high": _num(_clip(e.high, -1.0, 1.0)),
            "separable": self.separable,
            "prompts": e.n,
            "standardError": _num(e.se),
            "minimumDetectable": _num(self.minimum_detectable),
            "promptsNeeded": self.prompts_needed(detect),
        }


@dataclass(frozen=True, slots=True)
class Uncertainty:
    """Every model's interval and every pair's paired difference of one run."""

    models: dict[str, ModelUncertainty]
    pairs: list[PairUncertainty]
    weighted: bool
    detect: float = DETECT

    def pair(self, a: str, b: str) -> PairUncertainty | None:
        """The pair of two models (either order), if both have scores on common prompts."""
        for p in self.pairs:
            if {p.a, p.b} == {a, b}:
                return p
        return None

    def to_json(self) -> dict[str, Any]:
        """`blueprintStudio.uncertainty` (no NaN: a missing figure is null)."""
        return {
            "confidence": CONFIDENCE,
            "method": "t interval over prompts; pairs paired over the prompts both scored; "
            "each interval at 95% on its own (no correction for many pairs)",
            "weighted": self.weighted,
            "power": 0.8,
            "detect": self.detect,
            "models": {m: u.to_json() for m, u in self.models.items()},
            "pairs": [p.to_json(self.detect) for p in self.pairs],
        }


def _judge_scores(scored: ScoredCell) -> list[float]:
    """The cell's score recomputed with each judge alone (empty with fewer than two judges).

    A point the judge did not score keeps its consensus; a `should_not` point is inverted.
    """
    assessments: list[PointAssessment] = getattr(scored, "assessments", None) or []
    judges = sorted({j.judge_model_id for a in assessments for j in a.individual_judgements or ()})
    if len(judges) < 2:
        return []
    from engine.scoring.aggregation import combine

    counted = [a for a in assessments if a.counts]
    out: list[float] = []
    for judge in judges:
        parts: list[tuple[str, float | None, float]] = []
        for a in counted:
            extent = a.coverage_extent
            for j in a.individual_judgements or ():
                if j.judge_model_id == judge:
                    extent = 1 - j.coverage_extent if a.is_inverted else j.coverage_extent
                    break
            parts.append((a.path_id.strip() if a.path_id else "", extent, a.multiplier))
        score = combine(parts)
        if score is not None:
            out.append(score)
    return out


def _judge_variance(cells: Sequence[ScoredCell]) -> float | None:
    """Per prompt, the variance of the judges' consensus (sample variance / judges), averaged.

    None when no prompt had two or more judges.
    """
    variances: list[float] = []
    judged = False
    for cell in cells:
        scores = _judge_scores(cell)
        if len(scores) >= 2:
            judged = True
            m = sum(scores) / len(scores)
            variances.append(sum((s - m) ** 2 for s in scores) / (len(scores) - 1) / len(scores))
        elif cell.score is not None:
            variances.append(0.0)
    return sum(variances) / len(variances) if judged and variances else None


def _model(
    model: str,
    cells: Sequence[ScoredCell],
    answers: tuple[str, ...],
    weights: Mapping[str, float | None],
) -> tuple[ModelUncertainty, dict[str, float]]:
    by_prompt: dict[str, list[float]] = {}
    for c in cells:
        if c.score is not None:
            by_prompt.setdefault(c.prompt_id, []).append(c.score)
    scores = {p: sum(v) / len(v) for p, v in by_prompt.items()}
    est = estimate(scores, weights)
    spreads = [
        sum((x - scores[p]) ** 2 for x in v) / (len(v) - 1)
        for p, v in by_prompt.items()
        if len(v) >= 2
    ]
    within = math.sqrt(sum(spreads) / len(spreads)) if spreads else None
    judge_var = _judge_variance(cells)
    share = None
    if judge_var is not None and est.se:
        share = min(1.0, judge_var / max(est.n, 1) / est.se**2)
    return ModelUncertainty(model, est, answers, within, share), scores


def _pairs(
    scores: Mapping[str, dict[str, float]],
    means: Mapping[str, float | None],
    weights: Mapping[str, float | None],
) -> list[PairUncertainty]:
    out: list[PairUncertainty] = []
    for x, y in combinations(scores, 2):
        a, b = (x, y) if (means[x] or 0.0) >= (means[y] or 0.0) else (y, x)
        est = paired(scores[a], scores[b], weights)
        if est.n:
            out.append(PairUncertainty(a, b, est))
    return out


def uncertainty_of(
    cells: Iterable[ScoredCell],
    weights: Mapping[str, float | None] | None = None,
    *,
    exclude: Iterable[str] = (),
    detect: float = DETECT,
) -> Uncertainty:
    """Intervals and paired differences of a run's cells (failed or unscored cells left out).

    Args:
        cells: Every prompt × model cell of the run (`CellScore`s also give the judges' part).
        weights: Each prompt's weight (Weval's prompt `weight`; None or absent counts as 1).
        exclude: Model ids that are not models (the ideal answers' column).
        detect: The difference the prompts-needed advice plans for.
    """
    weights = weights or {}
    skip = set(exclude)
    by_model: dict[str, list[ScoredCell]] = {}
    for c in cells:
        if c.model_id not in skip:
            by_model.setdefault(c.model_id, []).append(c)
    models: dict[str, ModelUncertainty] = {}
    scores: dict[str, dict[str, float]] = {}
    for model in sorted(by_model):
        models[model], scores[model] = _model(model, by_model[model], (model,), weights)
    pairs = _pairs(scores, {m: u.estimate.mean for m, u in models.items()}, weights)
    clusters: dict[str, list[str]] = {}
    for model in sorted(by_model):
        clusters.setdefault(cluster_id(model), []).append(model)
    grouped = {b: ids for b, ids in clusters.items() if len(ids) > 1 and b not in by_model}
    group_scores: dict[str, dict[str, float]] = {}
    for base, ids in grouped.items():
        members = [c for m in ids for c in by_model[m]]
        models[base], group_scores[base] = _model(base, members, tuple(ids), weights)
    if len(group_scores) > 1:
        means = {m: models[m].estimate.mean for m in group_scores}
        pairs += _pairs(group_scores, means, weights)
    weighted = any(w is not None and w != 1 for w in weights.values())
    return Uncertainty(models=models, pairs=pairs, weighted=weighted, detect=detect)
