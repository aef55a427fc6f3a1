"""How the leaderboards (studio and HTML report) rank models and mark partial results.

A model that failed some prompts has an average over fewer prompts than the others: it is not
comparable, so it is marked ("scored on 2 of 3 prompts") and ranked after every model scored on
as many prompts as the best-covered one, then by average. Ranking it by its average alone put a
model that answered one prompt well above models that answered all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from engine.stats import Uncertainty

__all__ = ["coverage_note", "ranked", "shared_ranks"]

T = TypeVar("T")


def coverage_note(scored: int, prompts: int) -> str | None:
    """The mark "scored on 2 of 3 prompts" of a model with a score on some prompts only.

    None when every prompt is scored, or none is (such a model has no average to mislead).
    """
    if scored >= prompts or scored == 0:
        return None
    return f"scored on {scored} of {prompts} prompt{'' if prompts == 1 else 's'}"


def ranked(
    items: Sequence[T],
    average: Callable[[T], float | None],
    scored: Callable[[T], int],
    name: Callable[[T], str],
) -> list[T]:
    """`items` best first: most prompts scored first, then the highest average, then by name.

    Args:
        items: The models (rows or ids).
        average: A model's average score (None when it has none: ranked last).
        scored: How many prompts have a score for the model.
        name: The name shown (the tie-break).
    """
    most = max((scored(i) for i in items), default=0)

    def key(item: T) -> tuple[bool, bool, float, str]:
        value = average(item)
        return (value is None, scored(item) < most, -(value or 0.0), name(item))

    return sorted(items, key=key)


def shared_ranks(
    order: Sequence[str],
    uncertainty: Uncertainty,
    average: Callable[[str], float | None],
    scored: Callable[[str], int],
) -> list[str]:
    """The ranks of models listed best first (`ranked`), shared where too close to call.

    A model shares the rank of the one above ("2=") when both have an average over as many
    prompts and the interval of their paired difference includes 0 (`engine.stats`).

    Args:
        order: Model ids, best first.
        uncertainty: The run's intervals and pairs.
        average: A model's average score (None when it has none).
        scored: How many prompts have a score for the model.
    """
    from engine.stats import tied_ranks

    def apart(upper: str, lower: str) -> bool:
        if average(upper) is None or average(lower) is None or scored(upper) != scored(lower):
            return True
        pair = uncertainty.pair(upper, lower)
        return pair is None or pair.separable

    return tied_ranks(order, apart)
