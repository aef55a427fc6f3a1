"""Scoring: Weval's aggregation, explain-my-score, and per-model summaries."""

from engine.scoring.aggregate import (
    GroupExplanation,
    PathExplanation,
    PointLine,
    ScoreExplanation,
    aggregate,
    explain,
    weighted_mean,
)
from engine.scoring.cells import CellScore, failed_cell, finish_cell, ordered_points, unjudged
from engine.scoring.summary import ModelSummary, sample_stddev, summarize_models

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
