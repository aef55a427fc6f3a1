"""The studio never shows "$0" for a model whose price is unknown (issue 14).

The fake models of these runs (`openai:fake-a`, `openai:fake-judge`) have no price.
"""

from __future__ import annotations

from studio import state
from tests.studio.helpers import app, example, texts


def test_results_header_leaderboard_and_cost_tab_say_cost_unknown(or_paths_run):
    _store, run_id = or_paths_run
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    header = next(c for c in texts(at, "caption") if c.startswith("Run of "))
    assert header.endswith("answers scored · cost unknown") and "$0" not in header
    board = next(m for m in texts(at, "markdown") if m.startswith("| # | Model | Average"))
    assert board.count("| cost unknown |") == 2 and "0.0000" not in board
    assert any("settings.toml" in c for c in texts(at, "caption"))
    at.session_state["res_tab"] = "Time & cost"
    at.run()
    costs = at.dataframe[-1].value
    assert list(costs["Answer cost"]) == ["cost unknown", "cost unknown"]


def test_history_cost_column_says_cost_unknown(or_paths_run):
    at = app()
    at.switch_page("views/history/history.py").run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["Cost"]) == ["cost unknown"]


def test_run_page_plan_says_cost_unknown_and_how_to_set_a_price(llm_env, monkeypatch):
    for key, value in llm_env.items():
        monkeypatch.setenv(key, value)
    at = app()
    at.session_state[state.TEXT] = example("functions.yml")
    at.session_state[state.SOURCE] = "functions.yml"
    at.switch_page("views/run/run.py").run()
    at.multiselect[0].set_value(["openai:fake-a"]).run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Cost estimate"] == "cost unknown"
    note = next(c for c in texts(at, "caption") if c.startswith("No price is known"))
    assert "settings.toml" in note
