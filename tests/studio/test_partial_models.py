"""A model that failed some prompts is marked and not silently ranked first (issue 14)."""

from __future__ import annotations

import json

from engine.comparison import read_comparison
from engine.report import render_html
from engine.report.ranking import coverage_note
from studio import services, state
from studio.core.resultdata import Results
from tests.studio.helpers import app, texts


def scored(score):
    return {
        "keyPointsCount": 1,
        "avgCoverageExtent": score,
        "pointAssessments": [{"keyPointText": "Is kind", "coverageExtent": score}],
    }


FAILED = {"error": "Generation failed: timeout"}
# "lucky" answered one prompt perfectly and failed two; "steady" answered all three at 0.5.
DATA = {
    "configId": "w",
    "configTitle": "Partial",
    "promptIds": ["p1", "p2", "p3"],
    "evaluationResults": {
        "llmCoverageScores": {
            "p1": {"lucky": scored(1.0), "steady": scored(0.5)},
            "p2": {"lucky": FAILED, "steady": scored(0.5)},
            "p3": {"lucky": FAILED, "steady": scored(0.5)},
        }
    },
}


def test_coverage_note():
    assert coverage_note(2, 3) == "scored on 2 of 3 prompts"
    assert coverage_note(3, 3) is None and coverage_note(0, 3) is None


def test_fewer_prompts_scored_ranks_after_and_is_marked():
    results = Results(read_comparison(DATA))
    board = results.leaderboard()
    assert [(r.name, r.scored, r.failed) for r in board] == [("steady", 3, 0), ("lucky", 1, 2)]


def test_results_page_leaderboard_marks_the_partial_model():
    results = services.read_uploaded(json.dumps(DATA).encode(), "partial.json")
    at = app()
    at.session_state[state.UPLOADED] = ("partial.json", results)
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    board = next(m for m in texts(at, "markdown") if m.startswith("| # | Model | Average"))
    lines = board.splitlines()
    assert lines[2].startswith("| 1 | steady | **0.50** |")
    assert lines[3].startswith("| 2 | lucky ⚠ *scored on 1 of 3 prompts* | **1.00** |")


def test_html_report_ranks_and_marks_the_same_way():
    doc = render_html(read_comparison(DATA))
    board = doc[doc.index("<h2>Leaderboard</h2>") : doc.index("<h2>Scores by prompt</h2>")]
    assert board.index(">steady<") < board.index(">lucky ")
    assert "lucky <span class=err>(scored on 1 of 3 prompts)</span>" in board
