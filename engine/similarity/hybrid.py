"""Weval's per-model hybrid scores (`calculatePerModelHybridScoresForRun`), with similarity."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.scoring.cells import CellScore
from engine.scoring.summary import sample_stddev
from engine.similarity.math import hybrid_score
from engine.similarity.tables import SimilarityTables

__all__ = ["WEVAL_SCORE_NOTE", "per_model_hybrid", "weval_scores_that_differ"]

WEVAL_SCORE_NOTE = (
    "Weval's score is the average of its hybrid score: the coverage of the points where a "
    "prompt has one, else the answer's similarity to the ideal answer. It differs from the "
    "average when a prompt has no coverage score (its key points could not be extracted): "
    "Weval counts that prompt by similarity, the average leaves it out."
)
"""Why a model's Weval score differs from its average (shown beside the figure)."""


def per_model_hybrid(
    models: Sequence[str],
    prompt_ids: Sequence[str],
    cells: Mapping[str, Mapping[str, CellScore]],
    tables: SimilarityTables,
    weights: Mapping[str, float | None],
    ideal_id: str,
) -> dict[str, dict[str, float | None]]:
    """Return `{model: {"average", "stddev"}}` over the prompts, as Weval's web API adds them.

    Each prompt's hybrid score is `hybrid_score(similarity to the ideal, avgCoverageExtent)`
    (coverage of an errored cell does not count); the average is weighted by the prompts'
    `weight` (1 when unset), the standard deviation is the unweighted sample one.
    """
    out: dict[str, dict[str, float | None]] = {}
    for model in models:
        if model == ideal_id:
            continue
        scores: list[float] = []
        used: list[float] = []
        for pid in prompt_ids:
            sim = tables.to_ideal(pid, model, ideal_id)
            cell = cells.get(pid, {}).get(model)
            cov = cell.score if cell is not None and cell.error is None else None
            value = hybrid_score(sim, cov)
            if value is not None:
                scores.append(value)
                weight = weights.get(pid)
                used.append(weight if weight is not None and not math.isnan(weight) else 1.0)
        if not scores:
            out[model] = {"average": None, "stddev": None}
            continue
        total = sum(used)
        average = (
            sum(s * w for s, w in zip(scores, used, strict=True)) / total
            if total > 0
            else sum(scores) / len(scores)
        )
        out[model] = {"average": average, "stddev": sample_stddev(scores)}
    return out


def weval_scores_that_differ(
    hybrid: Mapping[str, Mapping[str, float | None]] | None,
    averages: Mapping[str, float | None],
) -> dict[str, float | None]:
    """Each model whose Weval score (hybrid `average`) is not its coverage average, with it.

    Empty without similarity (`hybrid` None): Weval's score is then the coverage average.
    """
    out: dict[str, float | None] = {}
    for model, row in (hybrid or {}).items():
        weval, ours = row.get("average"), averages.get(model)
        same = (weval is None and ours is None) or (
            weval is not None and ours is not None and math.isclose(weval, ours, abs_tol=1e-9)
        )
        if not same:
            out[model] = weval
    return out
