"""Weval's cosine similarity (`src/lib/math.ts`) and hybrid score (`calculationUtils.ts`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["COVERAGE_WEIGHT", "SIMILARITY_WEIGHT", "cosine_similarity", "hybrid_score"]

SIMILARITY_WEIGHT = 0.0
"""Weval's weight of similarity in the hybrid score (the code's, not its docstring's 0.35)."""
COVERAGE_WEIGHT = 1.0
"""Weval's weight of coverage in the hybrid score."""


def cosine_similarity(a: Sequence[float], b: Sequence[float]) -> float:
    """Return the cosine of two vectors, clamped to [-1, 1], as Weval computes it.

    Two empty vectors give 1.0; a zero vector gives 0.

    Raises:
        ValueError: The vectors differ in length (Weval's message).
    """
    if len(a) != len(b):
        raise ValueError("Vectors must have the same length for cosine similarity.")
    if not a:
        return 1.0
    mag_a = math.sqrt(sum(x * x for x in a))
    mag_b = math.sqrt(sum(x * x for x in b))
    if mag_a == 0 or mag_b == 0:
        return 0.0
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return max(-1.0, min(1.0, dot / (mag_a * mag_b)))


def _valid(value: float | None) -> bool:
    return value is not None and not math.isnan(value)


def hybrid_score(similarity: float | None, coverage: float | None) -> float | None:
    """Weval's `calculateHybridScore`: with both, the weighted sum of their positive parts.

    With only one valid input (a number, not NaN) it is that input's positive part; with
    neither, None. Weval's weights make it equal to the coverage whenever there is one.
    """
    sim = similarity if _valid(similarity) else None
    cov = coverage if _valid(coverage) else None
    if sim is not None and cov is not None:
        return SIMILARITY_WEIGHT * max(0.0, sim) + COVERAGE_WEIGHT * max(0.0, cov)
    if sim is not None:
        return max(0.0, sim)
    if cov is not None:
        return max(0.0, cov)
    return None
