"""One numbering of points everywhere: the written order, which the judges' records use too."""

from __future__ import annotations

import csv
import io
import re

from engine.blueprint import parse_blueprint
from engine.comparison import read_comparison
from engine.report import comparison_csv, render_html
from engine.report.numbering import point_kinds, point_numbers
from engine.scoring import explain
from studio.core import figures
from studio.core.resultdata import Results

BLUEPRINT = """title: t
---
- id: p1
  prompt: hi
  should:
    - "Is kind"
    - $contains: hat
    - - "path a"
      - $contains: x
  should_not:
    - "Mentions boots"
    - $icontains: sandals
"""


def comparison():
    def point(text, score, inverted=False):
        return {
            "keyPointText": text,
            "coverageExtent": score,
            "multiplier": 1,
            "isInverted": inverted,
        }

    config = {
        "prompts": [
            {
                "id": "p1",
                "points": [{"text": "Is kind"}, {"fn": "contains", "fnArgs": "hat"}],
                "should_not": [{"text": "Mentions boots"}],
            }
        ]
    }
    # Weval's order in the cell: function points first, then the points judged in words
    cell = {
        "keyPointsCount": 3,
        "avgCoverageExtent": 0.5,
        "pointAssessments": [
            point('Function: contains("hat")', 1),
            point("Is kind", 0.25),
            point("Mentions boots", 0.75, inverted=True),
        ],
    }
    return read_comparison(
        {
            "configId": "c",
            "promptIds": ["p1"],
            "effectiveModels": ["m"],
            "config": config,
            "evaluationResults": {"llmCoverageScores": {"p1": {"m": cell}}},
        }
    )


# rows stay in the cell's (Weval's) order; their numbers are the written positions
WRITTEN = [(2, 'Function: contains("hat")'), (1, "Is kind"), (3, "Mentions boots")]


def test_kinds_follow_the_points_the_judges_number():
    bp = parse_blueprint(BLUEPRINT)
    prompt = bp.prompts[0]
    # the judges record `point_index` as the position in prompt.points
    assert point_kinds(bp.weval, "p1") == [p.fn is not None for p in prompt.points]


def test_numbers_map_weval_order_to_written_order():
    cell = comparison().cell("p1", "m")
    assert cell is not None
    kinds = point_kinds(comparison().config, "p1")
    assert point_numbers(cell.assessments, kinds) == [2, 1, 3]
    assert point_numbers(cell.assessments, None) == [1, 2, 3]  # no config: as listed
    assert point_numbers(cell.assessments, [True, False]) == [1, 2, 3]  # does not fit


def test_studio_tables_and_figure_use_the_written_numbers():
    results = Results(comparison())
    assert [(r["#"], r["Point"]) for r in results.reflections("p1", "m")] == WRITTEN
    # "Points × models" lists the points in the blueprint's order: 1, 2, 3 (issue 31)
    assert [(r["#"], r["Point"]) for r in results.point_grid("p1")] == sorted(WRITTEN)
    cell = comparison().cell("p1", "m")
    assert cell is not None
    labels = [b.label for b in figures.explanation_bars(explain(cell.assessments), [2, 1, 3])]
    assert labels[0].startswith("2. Function") and labels[1].startswith("1. Is kind")


def test_csv_and_html_report_use_the_written_numbers():
    rows = list(csv.DictReader(io.StringIO(comparison_csv(comparison()))))
    assert [(int(r["point_index"]), r["point"]) for r in rows] == WRITTEN
    doc = render_html(comparison())
    found = re.findall(
        r"<tr><td class=num>(\d+)</td><td>([^<]*)</td><td[^>]*>[^<]*</td><td class=num>", doc
    )
    # the grid lists the points by their written numbers, as the studio's grid does (issue 39)
    assert [(int(n), t.replace("&quot;", '"')) for n, t in found] == sorted(WRITTEN)
