"""Progress, the per-model table and the results agree on what failed (issue 14)."""

from __future__ import annotations

from engine.store import open_store
from tests.studio.helpers import app, make_run, texts

BLUEPRINT = """title: Two prompts
---
- id: fine
  prompt: say hi
  should: [$contains: x]
- id: boom
  prompt: boom
  should: [$contains: x]
"""


def test_failed_answers_are_counted_alike_on_the_run_and_results_pages(llm_env, scripted_llm):
    # fake-b cannot answer the "boom" prompt (401 is not retried): one failed answer
    scripted_llm.fail_when(lambda r: r.model == "fake-b" and r.last_user == "boom", "401")
    store = open_store()
    run_id = make_run(store, BLUEPRINT, ["openai:fake-a", "openai:fake-b"], environ=llm_env)
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/run/run.py").run()
    assert not at.exception
    caption = next(c for c in texts(at, "caption") if "calls made" in c)
    assert caption.startswith("1 answer failed · ")
    table = at.dataframe[0].value
    assert dict(zip(table["Model"], table["Answers failed"], strict=True)) == {
        "openai:fake-a": 0,
        "openai:fake-b": 1,
    }
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    board = next(m for m in texts(at, "markdown") if m.startswith("| # | Model | Average"))
    row_b = next(line for line in board.splitlines() if "openai:fake-b" in line)
    cells = [c.strip() for c in row_b.split("|")]
    failed_column = board.splitlines()[0].split("|").index(" Failed ")
    assert cells[failed_column] == "1"
    assert "scored on 1 of 2 prompts" in row_b
