"""Per-model statistics across prompts (spec §6.5): prompt-weighted averages and spreads."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.records import Record, coerce_floats
from engine.scoring.averages import CellOutcome, by_model, weighted_average

if TYPE_CHECKING:
    from engine.scoring.cells import CellScore

__all__ = ["CellOutcome", "ModelSummary", "sample_stddev", "summarize_models", "summarize_outcomes"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ModelSummary(Record):
    """One model's results over the prompts of a run."""

    model_id: str
    average: float | None
    """Prompt-weighted mean of the prompt scores."""
    stddev: float | None
    """Sample standard deviation (n-1); None if n < 2."""
    scored_prompts: int
    """Prompts with a score."""
    failed_prompts: int
    """Prompts whose response failed to generate."""
    unscored_prompts: int
    """Prompts with a response but nothing scored."""
    minimum: float | None = None
    maximum: float | None = None

    def __post_init__(self) -> None:
        coerce_floats(self, ("average", "stddev", "minimum", "maximum"))


def sample_stddev(values: list[float]) -> float | None:
    """Return the sample standard deviation (n - 1), or None for fewer than two values."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def summarize_models(
    cells: Iterable[CellScore], prompt_weights: Mapping[str, float | None]
) -> dict[str, ModelSummary]:
    """Summarize each model: `Σ(score × w) / Σ w` over prompts with a score (w defaults to 1)."""
    return summarize_outcomes(
        (CellOutcome(c.model_id, c.prompt_id, c.score, c.failed) for c in cells),
        prompt_weights,
    )


def summarize_outcomes(
    cells: Iterable[CellOutcome], prompt_weights: Mapping[str, float | None]
) -> dict[str, ModelSummary]:
    """`summarize_models` over bare (model, prompt, score, failed) records, e.g. stored rows."""
    out: dict[str, ModelSummary] = {}
    for model_id, group in by_model(cells).items():
        values = [c.score for c in group if c.score is not None]
        out[model_id] = ModelSummary(
            model_id=model_id,
            average=weighted_average(group, prompt_weights),
            stddev=sample_stddev(values),
            scored_prompts=len(values),
            failed_prompts=sum(1 for c in group if c.failed),
            unscored_prompts=sum(1 for c in group if c.score is None and not c.failed),
            minimum=min(values) if values else None,
            maximum=max(values) if values else None,
        )
    return out
