"""Agreement between judges: Krippendorff's alpha (interval metric) per cell (spec §5.8)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from engine.assessment import PointAssessment
from engine.js.values import js_round

__all__ = ["interval_alpha", "judge_agreement", "krippendorff_alpha"]


def krippendorff_alpha(items: Sequence[Sequence[float]]) -> tuple[float, int]:
    """Return (alpha, number of within-item comparisons) with Weval's interval metric.

    `Do` is the mean squared difference over pairs within items; `De` the same over all
    pairs of the pooled scores; alpha = 1 - Do/De, or 1.0 when De is 0.
    """
    within = [(a - b) ** 2 for scores in items for a, b in combinations(scores, 2)]
    pooled = [s for scores in items for s in scores]
    everywhere = [(a - b) ** 2 for a, b in combinations(pooled, 2)]
    if not within or not everywhere:
        return 1.0, len(within)
    observed = sum(within) / len(within)
    expected = sum(everywhere) / len(everywhere)
    if expected == 0:
        return 1.0, len(within)
    return 1 - observed / expected, len(within)


def _squares(values: Sequence[float]) -> float:
    """The sum of squared deviations of `values` from their mean."""
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values)


def interval_alpha(units: Sequence[Sequence[float | None]]) -> float | None:
    """Krippendorff's alpha with the interval metric, missing values allowed (Krippendorff 2011).

    Each unit holds the values its coders gave (None: that coder gave none). Units with fewer
    than two values cannot be paired and are left out. `Do` weighs each unit's pairs by
    1/(m_u - 1); `De` pairs all `n` pairable values. Returns None when fewer than two units can
    be paired, and 1.0 when every pairable value is the same (no disagreement is possible).
    Unlike `krippendorff_alpha` (Weval's per-cell statistic), this is the published estimator:
    it is the one used to compare judges with reviewers.
    """
    paired = [[v for v in unit if v is not None] for unit in units]
    paired = [unit for unit in paired if len(unit) >= 2]
    if len(paired) < 2:
        return None
    n = sum(len(unit) for unit in paired)
    # Over the ordered pairs of m values, sum (a - b)^2 = 2 m sum (v - mean)^2: no pair loops.
    observed = sum(2 * len(unit) * _squares(unit) / (len(unit) - 1) for unit in paired) / n
    expected = 2 * n * _squares([v for unit in paired for v in unit]) / (n * (n - 1))
    if expected < 1e-12:  # every value the same (up to rounding): no disagreement is possible
        return 1.0
    return 1 - observed / expected


def _interpret(alpha: float, pooled: Sequence[float]) -> str:
    if alpha >= 0.8:
        return "reliable"
    if alpha >= 0.667:
        return "tentative"
    mean = sum(pooled) / len(pooled) if pooled else 0.0
    variance = sum((s - mean) ** 2 for s in pooled) / len(pooled) if pooled else 0.0
    if abs(alpha) < 0.1 and variance < 0.02:
        return "unstable"
    return "unreliable"


def judge_agreement(
    assessments: Sequence[PointAssessment], judges: Sequence[dict[str, str]] = ()
) -> dict[str, Any] | None:
    """Return Weval's `judgeAgreement` for one cell, or None with fewer than two judgements.

    Args:
        assessments: The cell's point assessments (only text points have judgements).
        judges: The configured judges, `{id, model, approach}`, to describe `judgesUsed`.
    """
    items: list[list[float]] = []
    counts: dict[str, int] = {}
    for a in assessments:
        judgements = a.individual_judgements or []
        if len(judgements) < 2:
            continue
        items.append([j.coverage_extent for j in judgements])
        for j in judgements:
            judge_id = j.judge_model_id.split("(", 1)[0]
            counts[judge_id] = counts.get(judge_id, 0) + 1
    if not items:
        return None
    alpha, comparisons = krippendorff_alpha(items)
    pooled = [s for scores in items for s in scores]
    used = []
    for judge_id, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        spec = next(
            (j for j in judges if j.get("id") == judge_id or judge_id in j.get("model", "")), None
        )
        used.append(
            {
                "judgeId": judge_id,
                "model": spec.get("model", "unknown") if spec else "unknown",
                "approach": spec.get("approach", "unknown") if spec else "unknown",
                "assessmentCount": count,
            }
        )
    fingerprint = hashlib.sha256(",".join(sorted(counts)).encode()).hexdigest()[:12]
    return {
        "krippendorffsAlpha": js_round(alpha, 3),
        "interpretation": _interpret(alpha, pooled),
        "numItems": len(items),
        "numJudges": len(items[0]),
        "numComparisons": comparisons,
        "judgeSetFingerprint": fingerprint,
        "judgesUsed": used,
    }
