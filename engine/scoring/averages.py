"""The prompt-weighted average of each model (spec §6.5), on bare records: no model classes.

`engine.scoring.summary` builds its per-model statistics on this, and `blueprint compare` uses
it alone, so comparing two runs does not load the scoring records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

__all__ = ["CellOutcome", "by_model", "weighted_average"]


class CellOutcome(NamedTuple):
    """What a summary needs of one cell."""

    model_id: str
    prompt_id: str
    score: float | None
    failed: bool


def by_model(cells: Iterable[CellOutcome]) -> dict[str, list[CellOutcome]]:
    """The cells of each model, models in sorted order, cells in the order given."""
    groups: dict[str, list[CellOutcome]] = {}
    for cell in cells:
        groups.setdefault(cell.model_id, []).append(cell)
    return {model: groups[model] for model in sorted(groups)}


def weighted_average(
    group: Iterable[CellOutcome], prompt_weights: Mapping[str, float | None]
) -> float | None:
    """`Σ(score × w) / Σ w` over the cells with a score (w defaults to 1); None without any."""
    total = 0.0
    weighted = 0.0
    for cell in group:
        if cell.score is not None:
            w = prompt_weights.get(cell.prompt_id) or 1.0
            total += w
            weighted += cell.score * w
    return weighted / total if total else None
