"""Means with 95% intervals over prompts, paired differences and power (Miller, 2024).

A blueprint's prompts are a sample of the questions its author cares about, so a model's
average over them is an estimate: `mean ± t(0.975, n-1) × se`. Two models scored on the same
prompts are compared on their per-prompt differences (paired), which removes the difficulty
of each prompt that both share. No scipy: the Student-t quantile is computed here (the
regularized incomplete beta function by continued fraction, inverted by bisection).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "CONFIDENCE",
    "POWER_FACTOR",
    "Estimate",
    "estimate",
    "minimum_detectable",
    "paired",
    "prompts_needed",
    "t_cdf",
    "t_quantile",
]

CONFIDENCE = 0.95
"""Every interval is a two-sided 95% interval."""

Z_975 = 1.959963984540054
"""The 0.975 quantile of the standard normal (a 5% two-sided test)."""
Z_80 = 0.8416212335729143
"""The 0.80 quantile of the standard normal (80% power)."""
POWER_FACTOR = Z_975 + Z_80
"""≈ 2.80: the smallest difference found with 80% power at 5% is this many standard errors."""


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) for 0 ≤ x ≤ 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


@lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The `p` quantile of Student's t with `df` > 0 degrees of freedom (e.g. 0.975, 11 → 2.201).

    Raises:
        ValueError: `p` is not strictly between 0 and 1, or `df` is not positive.
    """
    if not 0.0 < p < 1.0 or not df > 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0 (got p={p}, df={df})")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean over prompts with its 95% interval (`low`/`high` None when there is none).

    Attributes:
        mean: The (prompt-weighted) mean; None without any prompt.
        n: How many prompts it is over.
        sd: The spread the standard error comes from (for weights: `se × √n`); None if n < 2.
        se: The standard error of the mean; None if n < 2.
        low: The interval's lower end (not clipped); None when there is no interval.
        high: The interval's upper end; None when there is no interval.
    """

    mean: float | None
    n: int
    sd: float | None = None
    se: float | None = None
    low: float | None = None
    high: float | None = None

    @property
    def has_interval(self) -> bool:
        """True when the prompts vary enough to give an interval (two or more, not all equal)."""
        return self.low is not None and self.high is not None

    @property
    def separable(self) -> bool:
        """For a difference: its interval excludes 0 (or every prompt differs by the same non-0)."""
        if self.mean is None or self.n < 2:
            return False
        if self.low is not None and self.high is not None:
            return self.low > 0 or self.high < 0
        return self.se == 0 and self.mean != 0


def estimate(
    values: Mapping[str, float], weights: Mapping[str, float | None] | None = None
) -> Estimate:
    """The mean of per-prompt values and its 95% t interval (prompt-weighted when weights are given).

    A prompt's weight defaults to 1 (as Weval's averages do, a weight of 0 counts as 1).
    Weighted: `m = Σ w s / Σ w`, `se² = Σ w² (s - m)² / (Σ w)² × n / (n - 1)`, which is
    `sd² / n` when all weights are equal.

    Args:
        values: Each prompt's value (a score, or a difference of two scores).
        weights: Each prompt's weight, when prompts are weighted.
    """
    n = len(values)
    if n == 0:
        return Estimate(mean=None, n=0)
    w = {p: float((weights or {}).get(p) or 1.0) for p in values}
    total = sum(w.values())
    mean = sum(w[p] * v for p, v in values.items()) / total
    if n < 2:
        return Estimate(mean=mean, n=n)
    spread = sum(w[p] ** 2 * (v - mean) ** 2 for p, v in values.items())
    se = math.sqrt(spread / total**2 * n / (n - 1))
    if se < 1e-12:  # every prompt the same: no spread to build an interval from
        return Estimate(mean=mean, n=n, sd=0.0, se=0.0)
    half = t_quantile(0.5 + CONFIDENCE / 2, n - 1) * se
    return Estimate(mean=mean, n=n, sd=se * math.sqrt(n), se=se, low=mean - half, high=mean + half)


def paired(
    a: Mapping[str, float],
    b: Mapping[str, float],
    weights: Mapping[str, float | None] | None = None,
) -> Estimate:
    """The difference `a - b` over the prompts both have, from the per-prompt differences."""
    return estimate({p: a[p] - b[p] for p in a if p in b}, weights)


def minimum_detectable(se: float | None) -> float | None:
    """The smallest difference found with 80% power at 5% two-sided: ≈ 2.80 × the paired se."""
    return None if se is None or se <= 0 else POWER_FACTOR * se


def prompts_needed(sd: float | None, difference: float) -> int | None:
    """About how many prompts tell apart `difference` with 80% power: `(2.80 × sd / δ)²`.

    None when there is no spread to plan from (fewer than two prompts, or no variation).
    """
    if sd is None or sd <= 0 or difference <= 0:
        return None
    return max(2, math.ceil((POWER_FACTOR * sd / difference) ** 2))
