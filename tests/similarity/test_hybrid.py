"""Per-model hybrid scores as Weval's `calculatePerModelHybridScoresForRun` computes them."""

from __future__ import annotations

import pytest

from engine.comparison.weval import IDEAL_MODEL_ID
from engine.scoring.cells import CellScore
from engine.similarity.hybrid import per_model_hybrid
from engine.similarity.tables import SimilarityTables

IDEAL = IDEAL_MODEL_ID


def cell(pid: str, model: str, score: float | None, error: str | None = None) -> CellScore:
    return CellScore(prompt_id=pid, model_id=model, score=score, error=error)


TABLES = SimilarityTables(
    per_prompt={
        "p1": {"m": {IDEAL: 0.9}, IDEAL: {"m": 0.9}},
        "p2": {"m": {IDEAL: None}, IDEAL: {"m": 0.4}},  # only the reverse entry: it is used
        "p3": {"m": {IDEAL: 0.7}},
    }
)


def test_coverage_wins_and_similarity_fills_in_where_there_is_none():
    cells = {
        "p1": {"m": cell("p1", "m", 0.5)},  # both: coverage (weights 0 / 1)
        "p2": {"m": cell("p2", "m", None)},  # no coverage: the similarity 0.4
        "p3": {"m": cell("p3", "m", 0.2, error="no answer")},  # errored: its coverage is ignored
    }
    out = per_model_hybrid(["m", IDEAL], ["p1", "p2", "p3"], cells, TABLES, {}, IDEAL)
    assert list(out) == ["m"]  # the ideal is no model
    assert out["m"]["average"] == pytest.approx((0.5 + 0.4 + 0.7) / 3)
    assert out["m"]["stddev"] == pytest.approx(0.15275, abs=1e-5)


def test_prompt_weights_weigh_the_average_but_not_the_stddev():
    cells = {"p1": {"m": cell("p1", "m", 1.0)}, "p3": {"m": cell("p3", "m", 0.0)}}
    out = per_model_hybrid(["m"], ["p1", "p3"], cells, TABLES, {"p1": 3.0, "p3": None}, IDEAL)
    assert out["m"]["average"] == pytest.approx(0.75)  # (3 x 1 + 1 x 0) / 4
    assert out["m"]["stddev"] == pytest.approx(0.70711, abs=1e-5)


def test_a_model_without_any_score_has_nulls():
    out = per_model_hybrid(["x"], ["p1"], {}, TABLES, {}, IDEAL)
    assert out == {"x": {"average": None, "stddev": None}}
