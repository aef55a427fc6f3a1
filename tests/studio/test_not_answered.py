"""A prompt a model (a chat app) did not answer reads "not answered" on Results and Compare:
no score, never "failed", and not counted against the model."""

from __future__ import annotations

from engine.compare import CellView, RunView, compare_runs
from engine.comparison import read_comparison
from engine.report import render_html
from studio.core.figures import heatmap_table
from studio.core.resultdata import NOT_ANSWERED, Results
from studio.views.compare.compare_data import delta_table, grid

APP = "app:chatgpt-web"
DATA = {
    "configId": "c",
    "configTitle": "Capitals",
    "promptIds": ["france", "spain"],
    "evaluationResults": {
        "llmCoverageScores": {
            "france": {
                APP: {
                    "keyPointsCount": 1,
                    "avgCoverageExtent": 1.0,
                    "pointAssessments": [{"keyPointText": "Paris", "coverageExtent": 1.0}],
                }
            },
        }
    },
}


def test_a_finished_run_calls_a_missing_cell_not_answered_and_does_not_count_it():
    results = Results(read_comparison(DATA))
    assert results.prompt_ids == ["france", "spain"]
    assert results.status("spain", APP) == NOT_ANSWERED
    assert results.point_value("spain", APP, 0) == NOT_ANSWERED
    [row] = results.leaderboard()
    assert (row.scored, row.failed, row.prompts) == (1, 0, 1)
    labels = heatmap_table(
        results.prompt_ids,
        [results.names[APP]],
        results.matrix(results.prompt_ids),
        results.status_matrix(results.prompt_ids),
    ).data
    assert list(labels.iloc[:, 0]) == ["1.00", "not answered"]


def test_while_a_run_goes_on_a_missing_cell_is_still_to_come():
    results = Results(read_comparison(DATA), complete=False)
    assert results.status("spain", APP) == "missing"
    assert results.point_value("spain", APP, 0) == "no result"


def test_the_html_report_says_not_answered():
    doc = render_html(read_comparison(DATA))
    assert f"{APP}: not answered" in doc
    heatmap = doc.split("<h2>Scores by prompt</h2>")[-1].split("</table>")[0]
    assert '<a href="#p-spain">not answered</a>' in heatmap
    assert ">failed<" not in heatmap


def run(run_id: str, cells: dict[tuple[str, str], CellView], prompts: list[str]) -> RunView:
    return RunView(
        id=run_id,
        label=run_id,
        timestamp="",
        models=[APP],
        prompt_ids=prompts,
        cells=cells,
    )


def test_compare_says_not_answered_for_the_run_that_left_the_prompt():
    answered = {("france", APP): CellView(1.0, False, {}), ("spain", APP): CellView(0.5, False, {})}
    left = {("france", APP): CellView(1.0, False, {})}
    prompts = ["france", "spain"]
    g = grid(compare_runs(run("a", answered, prompts), run("b", left, prompts)))
    assert delta_table(g, ["spain"]).rows == [[NOT_ANSWERED]]
    back = grid(compare_runs(run("b", left, prompts), run("a", answered, prompts)))
    assert delta_table(back, ["spain"]).rows == [["new 0.50 (not answered before)"]]
