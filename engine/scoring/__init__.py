"""Scoring: Weval's aggregation, explain-my-score, and per-model summaries.

May import: the leaf modules (`engine.errors`, `engine.records`, `engine.settings`, ...),
`engine.blueprint`, `engine.store`, `engine.conversation`, `engine.responses` and `engine.checks`;
never the comparison, runs, reports or above.

The names load on first use (PEP 562), so a reader that needs only the summaries
(`engine.scoring.summary`, used by `blueprint compare`) does not import the aggregation and the
blueprint model behind it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.scoring.aggregation import (
        GroupExplanation,
        PathExplanation,
        PointLine,
        ScoreExplanation,
        aggregate,
        explain,
        weighted_mean,
    )
    from engine.scoring.cells import (
        CellScore,
        failed_cell,
        finish_cell,
        ordered_points,
        unjudged,
    )
    from engine.scoring.summary import ModelSummary, sample_stddev, summarize_models

_HOMES = {
    "GroupExplanation": "aggregation",
    "PathExplanation": "aggregation",
    "PointLine": "aggregation",
    "ScoreExplanation": "aggregation",
    "aggregate": "aggregation",
    "explain": "aggregation",
    "weighted_mean": "aggregation",
    "CellScore": "cells",
    "failed_cell": "cells",
    "finish_cell": "cells",
    "ordered_points": "cells",
    "unjudged": "cells",
    "ModelSummary": "summary",
    "sample_stddev": "summary",
    "summarize_models": "summary",
}

__all__ = [
    "CellScore",
    "GroupExplanation",
    "ModelSummary",
    "PathExplanation",
    "PointLine",
    "ScoreExplanation",
    "aggregate",
    "explain",
    "failed_cell",
    "finish_cell",
    "ordered_points",
    "sample_stddev",
    "summarize_models",
    "unjudged",
    "weighted_mean",
]


__getattr__ = lazy_names(__name__, _HOMES)
