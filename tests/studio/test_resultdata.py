"""Results arranged for the page, from a run stored by the engine (pure)."""

from __future__ import annotations

import pytest

from engine.blueprint import parse_blueprint
from engine.comparison import IDEAL_MODEL_ID, read_comparison
from studio.core.resultdata import (
    PAGE_SIZE,
    Results,
    display_names,
    group_label,
    page_count,
    path_names,
)
from tests.studio.helpers import example


def results_of(store, run_id) -> Results:
    run = store.get_run(run_id)
    bp = parse_blueprint(store.blueprint_text(run.blueprint_hash), source="or-paths.yml")
    return Results.from_run_rows(bp, store.cells(run_id), run_id)


def test_leaderboard_comes_from_the_engine(or_paths_run):
    store, run_id = or_paths_run
    results = results_of(store, run_id)
    board = results.leaderboard()
    assert [r.name for r in board] == ["openai:fake-a", "openai:fake-b"]
    summaries = results.comparison.summaries()
    for row in board:
        assert row.average == summaries[row.model].average
        assert row.scored == 1 and row.failed == 0
        assert row.input_tokens > 0 and row.mean_latency_ms is not None
    # fake-a follows path 1 fully, fake-b path 2: both meet everything they attempt.
    a = results.cell("new-year", "openai:fake-a[temp:0]")
    assert a is not None and a.score == 1.0


def test_point_grid_and_reflections(or_paths_run):
    store, run_id = or_paths_run
    results = results_of(store, run_id)
    grid = results.point_grid("new-year")
    # in the blueprint's order (issue 31): "Is polite" is written first, the function second
    assert [row["#"] for row in grid] == [1, 2, 3, 4, 5]
    assert [row["Group"] for row in grid] == ["Required", "Path 1", "Path 1", "Path 2", "Path 2"]
    assert grid[1]["Point"] == 'Function: icontains("january 1")'
    assert grid[1]["openai:fake-a"] == "1.00" and grid[1]["openai:fake-b"] == "0.00"
    reasons = results.reflections("new-year", "openai:fake-b[temp:0]")
    assert len(reasons) == 5
    # one readable name per judge, not Weval's `standard(openai:fake-judge)`
    assert reasons[1]["Judges"].startswith("fake-judge (")
    assert "(openai:" not in reasons[1]["Judges"] + reasons[1]["Why"]
    assert reasons[1]["Why"].startswith("fake-judge (")


def test_matrix_and_statuses(or_paths_run):
    store, run_id = or_paths_run
    results = results_of(store, run_id)
    assert results.matrix(["new-year"]) == [[1.0, 1.0]]
    assert results.status_matrix(["new-year"]) == [["scored", "scored"]]
    assert results.status("new-year", "nope") == "not answered"  # the run is over
    assert results.ideal("new-year") and IDEAL_MODEL_ID not in results.models


def test_explanation_reproduces_the_cell_score(or_paths_run):
    store, run_id = or_paths_run
    results = results_of(store, run_id)
    for model in results.models:
        expl = results.explanation("new-year", model)
        cell = results.cell("new-year", model)
        assert expl is not None and cell is not None
        assert expl.score == cell.score


def test_unjudged_text_points_say_they_need_a_judge(fake_llm):
    from engine.store import open_store
    from tests.studio.helpers import make_run

    store = open_store()
    run_id = make_run(store, example("or-paths.yml"), ["ideal"], judge=False)
    results = results_of(store, run_id)
    grid = results.point_grid("new-year")
    assert grid[0]["ideal"] == "needs a judge"
    assert grid[1]["ideal"] == "1.00"


def test_comparison_file_without_usage():
    data = {
        "configId": "x",
        "configTitle": "From Weval",
        "evaluationResults": {
            "llmCoverageScores": {
                "p1": {
                    "m1": {
                        "keyPointsCount": 1,
                        "avgCoverageExtent": 0.5,
                        "pointAssessments": [{"keyPointText": "Is kind", "coverageExtent": 0.5}],
                    },
                    "m2": {"error": "boom"},
                }
            }
        },
    }
    results = Results(read_comparison(data))
    assert results.models == ["m1", "m2"]
    assert results.status("p1", "m2") == "failed"
    assert results.point_value("p1", "m2", 0) == "failed"
    assert results.leaderboard()[0].name == "m1"
    assert results.cell_usage("p1", "m1") is None


def test_helpers():
    assert page_count(0) == 1 and page_count(PAGE_SIZE) == 1 and page_count(PAGE_SIZE + 1) == 2
    assert display_names(["a[temp:0]", "b[temp:0]"]) == {"a[temp:0]": "a", "b[temp:0]": "b"}
    both = ["a[temp:0]", "a[temp:1]"]
    assert display_names(both) == {m: m for m in both}
    assert path_names(["path_2", None, "path_1", "path_2"]) == {
        "path_1": "Path 1",
        "path_2": "Path 2",
    }
    assert group_label(None) == "Required"
    assert group_label("path_3", True, {"path_3": "Path 2"}) == "Path 2 (should not)"


@pytest.mark.parametrize("page", [1, 2, 3])
def test_pages_of_prompts(page):
    lines = ["title: many", "models: [ideal]", "---"]
    for i in range(45):
        lines += [
            f"- id: p{i:02d}",
            f"  prompt: question {i}",
            "  ideal: yes",
            "  should:",
            "    - $contains: yes",
        ]
    from engine.comparison.build import build_comparison

    bp = parse_blueprint("\n".join(lines) + "\n")
    results = Results(build_comparison(bp, [], responses={}))
    ids = results.page(page)
    assert ids == [f"p{i:02d}" for i in range((page - 1) * 20, min(page * 20, 45))]
