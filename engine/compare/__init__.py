"""Run against run: what changed between two runs of a blueprint, per model, prompt and point.

May import: `engine.run`, `engine.comparison` and everything below them; never `engine.report` or
the command line.
"""

from engine.compare.diff import Change, ModelPair, RunDiff, compare_runs, pair_models
from engine.compare.load import load_run_view
from engine.compare.text import interval_text, render_text
from engine.compare.view import (
    CellView,
    RunView,
    base_model_id,
    view_from_comparison,
    view_from_json,
)
from engine.compare.words import WordDiff, word_diff

__all__ = [
    "CellView",
    "Change",
    "ModelPair",
    "RunDiff",
    "RunView",
    "WordDiff",
    "base_model_id",
    "compare_runs",
    "interval_text",
    "load_run_view",
    "pair_models",
    "render_text",
    "view_from_comparison",
    "view_from_json",
    "word_diff",
]
