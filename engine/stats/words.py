"""Intervals, pairs and power said in plain words, and leaderboard ranks with ties (1, 2=, 2=, 4)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from engine.modelids import display_names
from engine.stats.intervals import Estimate
from engine.stats.uncertainty import PairUncertainty, Uncertainty

__all__ = [
    "interval_words",
    "neighbour_pairs",
    "pair_words",
    "power_line",
    "power_words",
    "summary_lines",
    "tied_ranks",
]


def _f(value: float) -> str:
    """A figure with two decimals, never "-0.00"."""
    return f"{round(value, 2) + 0.0:.2f}"


def _prompts(n: int) -> str:
    return f"{n} prompt{'' if n == 1 else 's'}"


def interval_words(e: Estimate) -> str:
    """The mean as a range ("0.71, likely between 0.62 and 0.80"), or why there is none."""
    if e.mean is None:
        return "no score"
    if e.n < 2:
        return f"{_f(e.mean)} (one prompt: no interval; it needs two or more prompts)"
    if not e.has_interval:
        return f"{_f(e.mean)} (every prompt has the same score: no spread to give an interval)"
    assert e.low is not None
    assert e.high is not None
    low, high = max(e.low, 0.0), min(e.high, 1.0)
    return f"{_f(e.mean)}, likely between {_f(low)} and {_f(high)}"


def pair_words(a: str, b: str, e: Estimate) -> str:
    """Whether `a` (the higher) is really ahead of `b`, in words a rubric author follows."""
    if e.mean is None:
        return f"{a} and {b} have no prompt scored by both."
    if e.n < 2:
        return f"{a} and {b}: too close to call with only one prompt scored by both."
    if e.separable:
        gap = (
            f"({_f(e.mean)}, from {_f(e.low)} to {_f(e.high)})"
            if e.low is not None and e.high is not None
            else f"({_f(e.mean)} on every one of the {_prompts(e.n)})"
        )
        return f"{a} scores higher than {b}, and the gap {gap} is larger than chance."
    if e.low is None or e.high is None:
        return f"{a} and {b} score the same on every one of the {_prompts(e.n)}."
    return (
        f"{a} and {b} are too close to call with these {_prompts(e.n)} "
        f"(gap {_f(e.mean)}, from {_f(e.low)} to {_f(e.high)})."
    )


def power_words(detect: float, needed: int | None, have: int) -> str:
    """How many prompts a difference needs ("to tell apart differences of 0.05 ...")."""
    if needed is None:
        return (
            f"With {_prompts(have)} and no spread between them there is nothing to plan from; "
            "add prompts that vary."
        )
    enough = " (enough)" if have >= needed else ""
    return (
        f"To tell apart differences of {_f(detect)} you would need about {needed} prompts; "
        f"you have {have}{enough}."
    )


def tied_ranks(order: Sequence[str], apart: Callable[[str, str], bool]) -> list[str]:
    """Ranks of models listed best first; one not `apart` from the one above shares its rank.

    `apart(upper, lower)` says whether two neighbours are separable. Tied ranks carry "=":
    `["1", "2=", "2=", "4"]`.
    """
    ranks: list[int] = []
    for i, model in enumerate(order):
        tied = i > 0 and not apart(order[i - 1], model)
        ranks.append(ranks[-1] if tied else i + 1)
    return [f"{r}=" if ranks.count(r) > 1 else str(r) for r in ranks]


def neighbour_pairs(u: Uncertainty, order: Sequence[str]) -> list[PairUncertainty]:
    """The pairs of neighbours in a leaderboard's order (best first), where they have one."""
    found = (u.pair(x, y) for x, y in itertools.pairwise(order))
    return [p for p in found if p is not None]


def summary_lines(u: Uncertainty, order: Sequence[str] | None = None) -> list[str]:
    """How sure the ranking is, for the end of `blueprint run`: intervals, neighbours, power.

    Args:
        u: The run's uncertainty.
        order: Model ids best first (default: by mean, effective ids only).
    """
    plain = [m for m, mu in u.models.items() if mu.answers == (m,)]
    if order is None:
        order = sorted(plain, key=lambda m: -(u.models[m].estimate.mean or 0.0))
    names = display_names([*u.models, *order])  # the names every page shows
    lines = ["how sure (95% intervals over prompts; see docs/uncertainty.md):"]
    for m in order:
        if m in u.models:
            lines.append(f"  {names[m]}: {interval_words(u.models[m].estimate)}")
    pairs = neighbour_pairs(u, order)
    lines += [f"  {pair_words(names[p.a], names[p.b], p.estimate)}" for p in pairs]
    power = power_line(u, order)
    if power:
        lines.append(f"  {power}")
    return lines


def power_line(u: Uncertainty, order: Sequence[str], detect: float | None = None) -> str | None:
    """How many prompts tell `detect` apart for the hardest neighbours (None: no pair).

    The hardest pair is the one of neighbours on the leaderboard that needs the most prompts.
    """
    detect = u.detect if detect is None else detect
    pairs = neighbour_pairs(u, order)
    if not pairs:
        return None
    hardest = max(pairs, key=lambda p: p.prompts_needed(detect) or 0)
    return power_words(detect, hardest.prompts_needed(detect), hardest.estimate.n)
