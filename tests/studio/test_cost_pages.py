"""The studio's pages show a run's cost as its comparison JSON records it (issue 31)."""

from __future__ import annotations

import os
import re

from engine.comparison.build import run_cost
from engine.comparison.cost import money_text
from engine.report.views.overview import date_words
from engine.store import open_store
from tests.studio.conftest import run_or_paths
from tests.studio.helpers import app, texts


def test_results_header_leaderboard_and_history_show_the_runs_one_cost(llm_env):
    home = os.environ["BLUEPRINT_HOME"]  # a fresh folder per test (tests/conftest.py)
    with open(os.path.join(home, "settings.toml"), "w") as f:
        f.write("[prices]\n")
        for model in ("openai:fake-a", "openai:fake-b", "openai:fake-judge"):
            f.write(f'"{model}" = {{ input = 3.0, output = 9.0 }}\n')
    store = open_store()
    run_id = run_or_paths(store, llm_env)
    cost = run_cost(store, run_id, ["openai:fake-a[temp:0]", "openai:fake-b[temp:0]"])
    assert cost.total and cost.judging  # priced, and the judging cost something
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    header = next(c for c in texts(at, "caption") if c.startswith("Run of "))
    shown = f"cost {money_text(cost.total)} (judging {money_text(cost.judging)})"
    assert shown in header  # as read (`texts` takes the Markdown escapes off)
    run = store.get_run(run_id)
    assert run is not None
    assert header.startswith(f"Run of {date_words(run.created_at)} · ")  # as the share page
    assert re.match(r"Run of \d{1,2} [A-Z][a-z]+ 20\d\d, \d\d:\d\d UTC · ", header)
    board = next(m for m in texts(at, "markdown") if m.startswith("| # | Model | Average"))
    for model in ("openai:fake-a", "openai:fake-b"):
        line = next(r for r in board.splitlines() if f"| {model} |" in r)
        assert f"| {money_text(cost.per_model[f'{model}[temp:0]'])} |" in line  # with judging
    at.switch_page("views/history/history.py").run()
    assert not at.exception
    assert list(at.dataframe[0].value["Cost"]) == [money_text(cost.total)]
