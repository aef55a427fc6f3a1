"""Figures of results: leaderboard, heatmap and explain-my-score (pure)."""

from __future__ import annotations

from engine.assessment import PointAssessment
from engine.scoring import explain
from studio.core import figures


def pa(score, weight=1.0, path=None, text="point", status="scored", inverted=False):
    return PointAssessment(
        key_point_text=text,
        coverage_extent=score,
        multiplier=weight,
        path_id=path,
        status=status,
        is_inverted=inverted,
        kind="text",
    )


def worked_example():
    # required 1.0, 0.75 (w2) ; path_1 (0.2, 0.0) ; path_2 (1.0) ; one unverified point
    return [
        pa(1.0, text="Is kind"),
        pa(0.75, 2.0, text="Is short"),
        pa(0.2, path="path_1", text="Gives the date"),
        pa(0.0, path="path_1", text="Names the calendar"),
        pa(1.0, path="path_2", text="Asks which calendar"),
        pa(None, status="unverified", text="Needs a judge"),
    ]


def test_explanation_bars_show_points_groups_paths_and_the_final_score():
    expl = explain(worked_example())
    bars = figures.explanation_bars(expl)
    labels = [b.label for b in bars]
    assert labels == [
        "1. Is kind",
        "2. Is short",
        "6. Needs a judge",
        "= Required points",
        "3. Gives the date",
        "4. Names the calendar",
        "= Path 1",
        "5. Asks which calendar",
        "= Path 2 ★ best path",
        "= Final score",
    ]
    kinds = {b.label: b.kind for b in bars}
    assert kinds["= Path 2 ★ best path"] == "winner" and kinds["= Path 1"] == "path"
    assert kinds["6. Needs a judge"] == "left_out"
    by_label = {b.label: b for b in bars}
    required = (1.0 * 1 + 0.75 * 2) / 3
    assert by_label["= Required points"].value == required
    assert by_label["= Final score"].value == expl.score
    # the figure reproduces the number: (required + best path) / 2
    assert round((required + 1.0) / 2, 2) == expl.score


def test_explanation_steps_spell_out_the_arithmetic():
    steps = figures.explanation_steps(explain(worked_example()))
    assert steps[0] == "Required points: (1.00×1 + 0.75×2) ÷ 3 = 0.83"
    assert steps[1] == "Alternative paths (only the best one counts, as one item):"
    assert steps[2] == "  Path 1: (0.20×1 + 0.00×1) ÷ 2 = 0.10"
    assert steps[3] == "  Path 2: (1.00×1) ÷ 1 = 1.00 ← best path: this one counts"
    assert steps[4].startswith("Left out of the mean: “Needs a judge” (unverified")
    assert steps[-1] == "Final score: (0.83 + 1.00) / 2 = 0.92"


def test_explanation_figure_data():
    fig = figures.explanation_figure(explain(worked_example()))
    (bar,) = fig.data
    assert bar.orientation == "h"
    assert len(bar.y) == 10
    assert bar.marker.color[-1] == figures.COLORS["final"]


def test_nothing_scored_explains_itself():
    steps = figures.explanation_steps(explain([pa(None, status="unverified", text="x")]))
    assert steps[-1] == "Final score: none, because nothing could be scored."
    bars = figures.explanation_bars(explain([pa(None, status="unverified", text="x")]))
    assert [b.kind for b in bars] == ["left_out", "final"]


def test_heatmap_labels_scores_and_gaps():
    table = figures.heatmap_table(
        ["p1", "p2"],
        ["model-a", "model-b"],
        [[0.5, None], [1.0, None]],
        [["scored", "failed"], ["scored", "missing"]],
    )
    frame = table.data
    assert list(frame.columns) == ["model-a", "model-b"]
    assert frame.values.tolist() == [["0.50", "failed"], ["1.00", "…"]]
    html_text = table.to_html()
    assert figures.score_colour(1.0) in html_text and figures.score_colour(0.5) in html_text
    assert figures.score_colour(None) in html_text


def contrast(a: str, b: str) -> float:
    def lum(h: str) -> float:
        rgb = [int(h[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_heatmap_colours_run_from_red_through_white_to_blue_colour_blind_safe():
    assert figures.score_colour(0.0) == "#d6604d"
    assert figures.score_colour(0.5) == "#f7f7f7"
    assert figures.score_colour(1.0) == "#4393c3"
    assert figures.score_colour(None) == "#eeeeee"
    assert figures.score_colour(7) == figures.score_colour(1.0)  # clamped
    # no green: red-green is the pair colour-blind readers confuse
    for v in (0.0, 0.25, 0.5, 0.75, 1.0):
        colour = figures.score_colour(v)
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        assert not (g > r and g > b + 30)
        assert contrast(colour, "#111111") >= 4.5  # the number in the cell stays readable


def test_duplicate_model_names_stay_separate_columns():
    table = figures.heatmap_table(["p"], ["m", "m"], [[1.0, 0.0]])
    assert list(table.data.columns) == ["m", "m (2)"]


def test_labels_from_users_are_escaped_for_plotly():
    assert (
        figures.plot_text('<a href="javascript:x">hi</a>')
        == '&lt;a href="javascript:x"&gt;hi&lt;/a&gt;'
    )
    # The heatmap table goes to st.dataframe, whose grid draws text on a canvas: labels are
    # kept literally (shown as typed), never interpreted as HTML.
    table = figures.heatmap_table(["<b>p</b>"], ["<img src=x>"], [[1.0]])
    assert table.data.index.tolist() == ["<b>p</b>"]
    assert table.data.columns.tolist() == ["<img src=x>"]
