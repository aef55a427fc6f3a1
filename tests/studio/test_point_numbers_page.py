"""The Results page numbers points as the blueprint writes them, like the raw judge answers."""

from __future__ import annotations

from tests.studio.helpers import app


def test_point_numbers_agree_with_the_raw_judge_answers(or_paths_run):
    _store, run_id = or_paths_run
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    grid = at.dataframe[1].value
    # or-paths.yml writes "Is polite" first and the `$icontains` point second
    numbers = dict(zip(grid["Point"], grid["#"], strict=True))
    assert numbers["Is polite and to the point."] == 1
    assert numbers['Function: icontains("january 1")'] == 2
    at.session_state["res_tab"] = "Why this score"
    at.run()
    assert not at.exception
    reasons, raw = at.dataframe[-2].value, at.dataframe[-1].value
    text_points = {
        n for n, p in zip(reasons["#"], reasons["Point"], strict=True) if not p.startswith("Fun")
    }
    assert set(raw["Point #"]) == text_points == {1, 3, 4, 5}
    by_number = dict(zip(reasons["#"], reasons["Point"], strict=True))
    assert by_number[1] == "Is polite and to the point."
