"""A score is rounded the same way (JavaScript's toFixed) on every page and in the report."""

from __future__ import annotations

from engine.assessment import PointAssessment
from engine.comparison import read_comparison
from engine.js.values import format_score
from engine.report import render_html
from engine.scoring import explain
from studio.core import figures
from studio.core.resultdata import Results, shown

# 0.125 is exact in binary: Python's f"{0.125:.2f}" gives "0.12", JavaScript's toFixed "0.13".
HALF = 0.125


def comparison():
    point = {"keyPointText": "Is kind", "coverageExtent": HALF, "multiplier": 1}
    return read_comparison(
        {
            "configId": "c",
            "configTitle": "C",
            "promptIds": ["p1"],
            "effectiveModels": ["m"],
            "evaluationResults": {
                "llmCoverageScores": {
                    "p1": {
                        "m": {
                            "keyPointsCount": 1,
                            "avgCoverageExtent": HALF,
                            "pointAssessments": [point],
                        }
                    }
                }
            },
        }
    )


def test_one_formatting_function_with_javascript_rounding():
    assert format_score(HALF) == "0.13" and format_score(None) == "—"
    assert format_score(0.0005, 3) == "0.001" and format_score(None, missing="–") == "–"


def test_studio_tables_and_figures_round_like_javascript():
    assert shown(HALF) == "0.13"
    table = figures.heatmap_table(["p1"], ["m"], [[HALF]])
    assert table.data.iloc[0, 0] == "0.13"  # type: ignore[attr-defined]
    point = PointAssessment(key_point_text="Is kind", coverage_extent=HALF, kind="text")
    bars = figures.explanation_bars(explain([point]))
    assert bars[0].text.startswith("0.13 ×")
    results = Results(comparison())
    assert results.point_grid("p1")[0]["m"] == "0.13"
    assert results.reflections("p1", "m")[0]["Score"] == "0.13"


def test_html_report_rounds_like_the_studio():
    doc = render_html(comparison())
    assert "0.13" in doc and ">0.12<" not in doc and "0.12×" not in doc
