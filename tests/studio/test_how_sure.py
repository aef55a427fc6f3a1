"""How sure a ranking is, on the results page and in the HTML report (ties, intervals, words)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.comparison import read_comparison
from engine.report import render_html
from studio import services, state
from studio.core.resultdata import Results
from tests.studio.helpers import app, texts

# Twelve prompts. "best" is 0.3 above "close-1" on every prompt but one; "close-1" and
# "close-2" differ by ±0.05 in turn (a gap of 0, too close to call); "worst" is 0.3 below.
BASE = [0.2, 0.4, 0.5, 0.3, 0.6, 0.4, 0.5, 0.3, 0.45, 0.35, 0.5, 0.4]
SCORES = {
    "best": [min(1.0, s + 0.3 + (0.02 if i == 0 else 0)) for i, s in enumerate(BASE)],
    "close-1": [s + (0.05 if i % 2 else -0.05) for i, s in enumerate(BASE)],
    "close-2": [s + (-0.05 if i % 2 else 0.05) for i, s in enumerate(BASE)],
    "worst": [max(0.0, s - 0.3 + (0.01 if i == 1 else 0)) for i, s in enumerate(BASE)],
}


def comparison_data() -> dict:  # type: ignore[type-arg]
    prompts = [f"p{i:02d}" for i in range(len(BASE))]
    cells = {
        pid: {
            model: {
                "keyPointsCount": 1,
                "avgCoverageExtent": round(scores[i], 2),
                "pointAssessments": [
                    {"keyPointText": "Is right", "coverageExtent": round(scores[i], 2)}
                ],
            }
            for model, scores in SCORES.items()
        }
        for i, pid in enumerate(prompts)
    }
    data = {
        "configId": "how-sure",
        "configTitle": "How sure",
        "promptIds": prompts,
        "effectiveModels": list(SCORES),
        "evaluationResults": {"llmCoverageScores": cells},
    }
    return data


def comparison_file(path: Path) -> Path:
    path.write_text(json.dumps(comparison_data()), encoding="utf-8")
    return path


def test_the_leaderboard_ranks_tie_where_the_paired_gap_is_chance():
    results = Results(read_comparison(comparison_data()))
    board = results.leaderboard()
    assert [(r.name, r.rank) for r in board] == [
        ("best", "1"),
        ("close-1", "2="),
        ("close-2", "2="),
        ("worst", "4"),
    ]
    assert all(r.low is not None and r.low < (r.average or 0) < (r.high or 0) for r in board)
    close = next(p for p in results.pair_rows() if {p.a, p.b} == {"close-1", "close-2"})
    assert close.neighbours and not close.separable
    assert close.difference == pytest.approx(0, abs=1e-9)
    assert "too close to call with these 12 prompts" in close.words
    assert (results.power_sentence() or "").endswith("; you have 12.")


def test_the_results_page_says_it_in_words():
    results = services.read_uploaded(json.dumps(comparison_data()).encode(), "how-sure.json")
    at = app()
    at.session_state[state.UPLOADED] = ("how-sure.json", results)
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    board = next(m for m in texts(at, "markdown") if m.startswith("| # | Model | Average"))
    assert [line.split("|")[1].strip() for line in board.splitlines()[2:]] == [
        "1",
        "2=",
        "2=",
        "4",
    ]
    words = texts(at, "text")
    assert any(
        w.startswith("best scores higher than close-1, and the gap (0.30, from") for w in words
    )
    assert any("too close to call with these 12 prompts" in w for w in words)
    assert len(at.get("plotly_chart")) == 0  # the error-bar chart only when asked
    at.toggle(key="res_errorbars").set_value(True).run()
    assert len(at.get("plotly_chart")) == 1
    at.number_input(key="res_detect").set_value(0.10).run()
    assert any("| Prompts needed for 0.10 |" in m for m in texts(at, "markdown"))


def test_the_html_report_shows_ties_whiskers_and_words_escaped():
    data = comparison_data()
    hostile = "<b>x</b>"
    for row in data["evaluationResults"]["llmCoverageScores"].values():
        row[hostile] = row.pop("worst")
    data["effectiveModels"] = [hostile if m == "worst" else m for m in data["effectiveModels"]]
    doc = render_html(read_comparison(data))
    board = doc[doc.index("<h2>Leaderboard</h2>") : doc.index("<h2>Scores by prompt</h2>")]
    ranks = [cell.split("<")[0] for cell in board.split("<tr><td class=num>")[1:]]
    assert ranks == ["1", "2=", "2=", "4"]
    assert board.count('<i style="left:') == 4
    assert "How sure is this ranking?" in board
    assert "close-1 and close-2 are too close to call with these 12 prompts" in board
    assert "close-2 scores higher than &lt;b&gt;x&lt;/b&gt;" in board
    assert "<b>x</b>" not in board


def test_a_model_answering_each_prompt_twice_gets_an_interval_over_prompts():
    data = comparison_data()
    for row in data["evaluationResults"]["llmCoverageScores"].values():
        row["best[temp:0.7]"] = row.pop("close-1")
        row["best[temp:0]"] = row.pop("best")
    results = Results(read_comparison(data))
    (line,) = results.clustered_lines()
    assert line.startswith("best, 2 answers per prompt averaged: ")
    assert "likely between" in line and "answers to one prompt differ by" in line
