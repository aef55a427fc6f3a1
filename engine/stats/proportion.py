"""A proportion with its 95% Wilson score interval (win rates, agreement rates)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.stats.intervals import Z_975

__all__ = ["Proportion", "wilson"]


@dataclass(frozen=True, slots=True)
class Proportion:
    """A share of `n` trials with its 95% Wilson interval.

    Attributes:
        successes: The successes counted (may be fractional: a tie counts as half).
        n: The trials.
        rate: `successes / n` (None when there is no trial).
        low: The interval's lower end (None without a trial).
        high: The interval's upper end (None without a trial).
    """

    successes: float
    n: int
    rate: float | None
    low: float | None
    high: float | None


def wilson(successes: float, n: int, z: float = Z_975) -> Proportion:
    """The rate `successes / n` and its Wilson score interval (95% by default).

    `center = (p + z²/2n) / (1 + z²/n)`, `half = z / (1 + z²/n) × √(p(1-p)/n + z²/4n²)`.
    Unlike `p ± z√(p(1-p)/n)` it stays within [0, 1] and is not empty at 0 or 1.

    Raises:
        ValueError: `successes` is negative or more than `n`.
    """
    if n <= 0:
        return Proportion(successes=0.0, n=0, rate=None, low=None, high=None)
    if not 0 <= successes <= n:
        raise ValueError(f"wilson needs 0 <= successes <= n (got {successes} of {n})")
    p = successes / n
    z2 = z * z
    scale = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Proportion(
        successes=float(successes),
        n=n,
        rate=p,
        low=max(0.0, center - half),
        high=min(1.0, center + half),
    )
