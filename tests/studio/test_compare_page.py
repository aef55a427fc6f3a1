"""The Compare page through AppTest, and its pure parts (delta grid, filters, answer diff)."""

from __future__ import annotations

import re

import pytest

from engine.compare import CellView, RunView, compare_runs, word_diff
from engine.store import open_store
from studio.views.compare.compare_data import (
    delta_colour,
    delta_label,
    delta_table,
    diff_markdown,
    grid,
    trend_frame,
)
from tests.compare.test_compare_cli import BLUEPRINT
from tests.studio.helpers import app, make_run, plain, static_tables, texts

V1 = BLUEPRINT
# One point of `france` edited and its ideal answer too (same score); one point added to
# `spain` that the ideal answer fails.
V2 = (
    BLUEPRINT.replace("$icontains: paris", "$icontains: france")
    .replace("France is Paris.", "France is Paris, not Lyon.")
    .replace("    - $icontains: spain\n", "    - $icontains: spain\n    - $icontains: toledo\n")
)
MODEL = "ideal"
"""The name shown for `ideal[temp:0]` (no temperature set): the same on every page (issue 31)."""


@pytest.fixture
def two_runs() -> tuple[str, str]:
    store = open_store()
    return make_run(store, V1, ["ideal"]), make_run(store, V2, ["ideal"])


def compare_page(base: str, cand: str):
    at = app()
    at.switch_page("views/compare/compare.py")
    at.query_params["base"] = base
    at.query_params["cand"] = cand
    return at.run()


def test_the_page_shows_model_deltas_the_grid_and_the_changed_points(two_runs):
    base, cand = two_runs
    at = compare_page(base, cand)
    assert not at.exception
    tables = static_tables(at)
    models = tables["cmp-models"]
    assert list(models["Model"]) == [MODEL]
    # scores with 2 decimals, as on every page
    assert list(models["Baseline"]) == ["1.00"] and list(models["Candidate"]) == ["0.83"]
    assert list(models["Change"]) in (["−0.16"], ["−0.17"]) and list(models["Verdict"]) == ["worse"]
    # two prompts paired: one unchanged, one 0.33 worse, so the change is within chance
    interval = list(models["95% interval of the change (paired over prompts)"])
    assert len(interval) == 1 and interval[0].endswith("within chance (2 prompts)")
    grid_frame = tables["cmp-grid"]
    assert list(grid_frame.index) == ["france", "spain"]
    assert list(grid_frame[MODEL]) == ["no change", "−0.33"]
    points = tables["cmp-points"]
    rows = sorted(zip(points["Change"], points["Prompt"], points["Point"], strict=True))
    assert rows == [
        ("added", "france", 'Function: icontains("france")'),
        ("added", "spain", 'Function: icontains("toledo")'),
        ("removed", "france", 'Function: icontains("paris")'),
    ]
    assert any("4 same, 0 changed, 2 added, 1 removed" in c for c in texts(at, "caption"))


def test_the_filters_keep_the_prompts_that_got_worse_or_changed(two_runs):
    at = compare_page(*two_runs)
    at.segmented_control[0].set_value("worse").run()
    assert not at.exception
    assert list(static_tables(at)["cmp-grid"].index) == ["spain"]
    at.segmented_control[0].set_value("failed").run()
    assert "No prompt matches this filter." in texts(at, "info")
    at.segmented_control[0].set_value("changed").run()
    assert list(static_tables(at)["cmp-grid"].index) == ["spain"]


def test_the_answers_are_side_by_side_with_changed_words_marked(two_runs):
    at = compare_page(*two_runs)
    at.selectbox(key="cmp_prompt").set_value("france").run()
    assert not at.exception
    shown = [str(m.value) for m in at.markdown]
    assert "**Baseline**" in shown and "**Candidate**" in shown
    assert "The capital of France is **Paris,** **not** **Lyon.**" in [plain(m) for m in shown]
    assert "The capital of France is ~~Paris.~~" in [plain(m) for m in shown]
    at.selectbox(key="cmp_prompt").set_value("spain").run()
    same = "Madrid is the capital of Spain."
    assert [plain(str(m.value)) for m in at.markdown].count(same) == 2  # nothing marked


def test_the_trend_follows_each_model_across_the_runs_of_the_blueprint(two_runs):
    at = compare_page(*two_runs)
    assert not at.exception
    assert any("2 scored run(s) of Capitals" in plain(c) for c in texts(at, "caption")), texts(
        at, "caption"
    )
    runs = open_store().list_runs()
    frame = trend_frame(runs, "Capitals")
    assert list(frame.columns) == [MODEL]
    assert list(frame[MODEL]) == pytest.approx([1.0, 0.835])


def test_without_two_runs_the_page_says_what_to_do():
    at = app()
    at.switch_page("views/compare/compare.py").run()
    assert not at.exception
    assert "Comparing needs two runs" in " ".join(texts(at, "info"))


def test_a_link_to_an_unknown_run_says_so(two_runs):
    at = compare_page(two_runs[0], "A" * 22)
    assert not at.exception
    assert any("not in this studio" in e for e in texts(at, "error"))


def test_history_links_two_selected_runs_to_their_comparison(two_runs):
    base, cand = two_runs
    at = app()
    at.switch_page("views/history/history.py").run()
    # the table is newest first: the candidate, then the baseline
    at.session_state["history_table"] = {"selection": {"rows": [0, 1], "columns": []}}
    at.run()
    assert not at.exception
    links = [
        link for link in at.get("page_link") if "Compare these two runs" in str(link.proto.label)
    ]
    assert len(links) == 1
    assert links[0].proto.query_string == f"base={base}&cand={cand}"


# --- the pure parts -------------------------------------------------------------------------


def view(run_id: str, cells: dict[tuple[str, str], CellView]) -> RunView:
    return RunView(
        id=run_id,
        label=run_id,
        timestamp="",
        models=sorted({m for _, m in cells}),
        prompt_ids=list(dict.fromkeys(p for p, _ in cells)),
        cells=cells,
    )


def test_a_failed_cell_passes_the_failed_filter_only():
    base = view("a", {("p1", "m"): CellView(1.0, False, {}), ("p2", "m"): CellView(0.5, False, {})})
    cand = view("b", {("p1", "m"): CellView(None, True, {}), ("p2", "m"): CellView(0.5, False, {})})
    g = grid(compare_runs(base, cand))
    assert g.keep("failed") == ["p1"]
    assert g.keep("changed") == ["p1"]
    assert g.keep("worse") == []  # no score, so no delta
    table = delta_table(g, ["p1"])
    assert table.rows == [["no score failed"]] and table.row_labels == ["p1"]


def test_cells_read_without_colour_and_colours_go_blue_up_red_down():
    assert delta_label(0.5, 0.75) == "+0.25"
    assert delta_label(0.75, 0.5) == "−0.25"
    assert delta_label(0.5, 0.5) == "no change"
    assert delta_label(None, 0.5) == "new 0.50"
    assert delta_colour(1.0) == "#4393c3" and delta_colour(-1.0) == "#d6604d"
    assert delta_colour(0.0) == "#f7f7f7" and delta_colour(None) == "#eeeeee"


def test_model_output_in_the_answer_diff_stays_text():
    hostile = "<img src=x onerror=alert(1)> [click](http://evil.example) :red[x] $x$"
    words = word_diff("Hello", hostile)
    shown = diff_markdown(words, "candidate")
    # every character Markdown could read is escaped: no tag, link or directive starts here
    assert not re.search(r"(?<!\\)[<\[\]:$]", shown.replace("**", ""))
    assert plain(shown).replace("**", "") == hostile


def _many_points(marker: str) -> str:
    lines = ["title: Many points", "---"]
    for i in range(30):
        lines += [f"- id: q{i}", f"  prompt: Question {i}?", f"  ideal: Answer {i}.", "  should:"]
        lines += [f"    - $icontains: {marker}{k}" for k in range(4)]
    return "\n".join(lines) + "\n"


def test_many_point_changes_are_shown_a_page_at_a_time():
    # every point edited: 120 removed + 120 added rows, more than one page of them
    store = open_store()
    base = make_run(store, _many_points("old"), ["ideal"])
    cand = make_run(store, _many_points("new"), ["ideal"])
    at = compare_page(base, cand)
    assert not at.exception
    assert any("0 same, 0 changed, 120 added, 120 removed" in c for c in texts(at, "caption"))
    assert len(static_tables(at)["cmp-points"]) == 100
    assert any("Points 1–100 of 240." in c for c in texts(at, "caption"))
    pager = next(n for n in at.number_input if n.label == "Page of points")
    assert pager.max == 3
    pager.set_value(3).run()
    assert not at.exception
    last = static_tables(at)["cmp-points"]
    assert len(last) == 40 and "Points 201–240 of 240." in texts(at, "caption")
    # the pages hold every row once
    seen = set()
    for page in (1, 2, 3):
        next(n for n in at.number_input if n.label == "Page of points").set_value(page).run()
        frame = static_tables(at)["cmp-points"]
        seen |= set(zip(frame["Change"], frame["Prompt"], frame["Point"], strict=True))
    assert len(seen) == 240


def test_the_trend_chart_is_an_image_described_in_words_and_its_table(two_runs):
    at = compare_page(*two_runs)
    bodies = [str(e.proto.body) for e in at.get("html")]
    charts = [b for b in bodies if 'class="bp-chart"' in b]
    assert len(charts) == 1
    assert f'alt="Average score of {MODEL} across 2 runs of Capitals."' in charts[0]
    trend = static_tables(at)["cmp-trend"]
    assert list(trend[MODEL]) == ["1.00", "0.83"]


def test_the_run_pickers_are_built_only_while_their_expander_is_open(two_runs):
    at = compare_page(*two_runs)  # both runs given: the pickers start closed
    assert not [s for s in at.selectbox if s.label in ("Baseline run", "Candidate run")]
    at = app()
    at.switch_page("views/compare/compare.py").run()  # no runs picked: open, with both pickers
    assert [s.label for s in at.selectbox][:2] == ["Baseline run", "Candidate run"]
