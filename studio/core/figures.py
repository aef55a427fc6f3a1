"""Figures of results: the prompt × model heatmap table and explain-my-score (Plotly).

Every label that may come from a blueprint or a model is HTML-escaped (Plotly reads a few
HTML tags, such as links, in text) and shortened. The explanation figure and
`explanation_steps` show the engine's own arithmetic (`engine.scoring.explain`), so the
number on screen is reproduced from the groups, paths and points shown. Pure: no Streamlit.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go
from pandas.io.formats.style import Styler

from engine.js.values import format_score
from engine.report.views.palette import score_colour
from engine.report.views.why import (
    explanation_steps,
    mean_text,
    score_bars,
    weight_text,
)
from engine.scoring import PointLine, ScoreExplanation
from studio.core.textsafe import one_line

__all__ = [
    "COLORS",
    "ExplanationBar",
    "coloured_table",
    "explanation_bars",
    "explanation_figure",
    "explanation_steps",
    "heatmap_table",
    "leaderboard_figure",
    "plot_text",
    "score_colour",
]

COLORS = {
    "point": "#9ecae1",
    "left_out": "#e0e0e0",
    "required": "#3182bd",
    "winner": "#31a354",
    "path": "#a1a1a1",
    "final": "#e6550d",
}
"""Bar colors of the explanation figure, by kind of bar."""


def plot_text(text: str | None, limit: int = 60) -> str:
    """Text safe for a Plotly label: first line, shortened, `&`, `<` and `>` escaped.

    Plotly reads a few HTML tags in text (links, line breaks, styles); escaped, they show
    as written. Quotes need no escaping there.
    """
    return html.escape(one_line(text or "", limit), quote=False)


def _num(value: float | None, digits: int = 2) -> str:
    return format_score(value, digits, "–")


# --- leaderboard and heatmap ------------------------------------------------------------


def leaderboard_figure(
    names: Sequence[str],
    means: Sequence[float | None],
    lows: Sequence[float | None],
    highs: Sequence[float | None],
) -> go.Figure:
    """Each model's average as a dot with its 95% interval as an error bar, best at the top.

    A model without an interval (one prompt, or the same score on every prompt) has a dot only.
    """
    minus = [
        m - lo if m is not None and lo is not None else 0 for m, lo in zip(means, lows, strict=True)
    ]
    plus = [
        hi - m if m is not None and hi is not None else 0
        for m, hi in zip(means, highs, strict=True)
    ]
    labels = _unique([plot_text(n, 40) for n in names])
    hover = [
        f"{label}: {_num(m)}"
        + (
            f" (95% interval {_num(lo)} to {_num(hi)})"
            if lo is not None and hi is not None
            else " (no interval)"
        )
        for label, m, lo, hi in zip(labels, means, lows, highs, strict=True)
    ]
    fig = go.Figure(
        go.Scatter(
            x=list(means),
            y=labels,
            mode="markers",
            marker={"size": 10, "color": COLORS["required"]},
            error_x={"type": "data", "array": plus, "arrayminus": minus, "visible": True},
            customdata=hover,
            hovertemplate="%{customdata}<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis={"range": [0, 1.02], "title": "average score (95% interval)"},
        yaxis={"autorange": "reversed", "type": "category"},
        height=80 + 32 * len(labels),
        margin={"l": 10, "r": 20, "t": 10, "b": 40},
        showlegend=False,
    )
    return fig


def heatmap_table(
    prompts: Sequence[str],
    models: Sequence[str],
    scores: Sequence[Sequence[float | None]],
    statuses: Sequence[Sequence[str]] | None = None,
) -> Styler:
    """A prompt (rows) × model (columns) heatmap as a colour-coded table.

    A table, not a chart, so the results page draws without loading Plotly (about 1.2 s of
    parsing per page on a 2-core machine); the values are the labels shown in each cell.

    Args:
        prompts: Row labels (prompt ids), top to bottom.
        models: Column labels (model names).
        scores: One row of scores per prompt; None where there is no score.
        statuses: The status of each cell (`failed`, `unscored`, `missing`, `not answered`)
            to label gaps.
    """
    words = {"failed": "failed", "unscored": "n/a", "missing": "…", "not answered": "not answered"}
    labels = []
    for i, row in enumerate(scores):
        out = []
        for j, value in enumerate(row):
            if value is not None:
                out.append(format_score(value))
            else:
                status = statuses[i][j] if statuses is not None else "missing"
                out.append(words.get(status, "–"))
        labels.append(out)
    return coloured_table(labels, scores, list(prompts), _unique(models))


def coloured_table(
    labels: Sequence[Sequence[str]],
    values: Sequence[Sequence[float | None]],
    rows: Sequence[str],
    columns: Sequence[str],
) -> Styler:
    """A table of `labels` on the `score_colour` of each value (dark text, grey if None)."""
    frame = pd.DataFrame(labels, index=list(rows), columns=list(columns))
    colours = pd.DataFrame(
        [[f"background-color: {score_colour(v)}; color: #111111" for v in row] for row in values],
        index=frame.index,
        columns=frame.columns,
    )
    return frame.style.apply(lambda _: colours, axis=None)


def _unique(names: Sequence[str]) -> list[str]:
    """Column names made unique (two models may share a display name)."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


# --- explain-my-score -------------------------------------------------------------------


@dataclass(frozen=True)
class ExplanationBar:
    """One bar of the explanation figure."""

    label: str
    value: float
    text: str
    kind: str
    hover: str


def _point_bar(p: PointLine, numbers: Sequence[int] | None = None) -> ExplanationBar:
    number = numbers[p.index] if numbers and p.index < len(numbers) else p.index + 1
    inverted = " (should not)" if p.inverted else ""
    if p.score is None:
        return ExplanationBar(
            label=f"{number}. {plot_text(p.text, 50)}",
            value=0.0,
            text=f"left out: {plot_text(p.reason or p.status, 40)}",
            kind="left_out",
            hover=plot_text(p.text, 300) + inverted,
        )
    return ExplanationBar(
        label=f"{number}. {plot_text(p.text, 50)}",
        value=p.score,
        text=f"{format_score(p.score)} × weight {weight_text(p.weight)}{inverted}",
        kind="point",
        hover=plot_text(p.text, 300) + inverted,
    )


def explanation_bars(
    expl: ScoreExplanation, numbers: Sequence[int] | None = None
) -> list[ExplanationBar]:
    """The bars of the explanation: each point, each group's mean, each path, the final score.

    The steps are the engine's (`engine.report.views.why.score_bars`). Points are numbered by
    `numbers` (each assessment's written position, from `engine.report.numbering`; else as in
    the cell's point list), and paths are named "Path 1", "Path 2"… in the order they are written.
    """
    bars: list[ExplanationBar] = []
    for bar in score_bars(expl):
        if bar.point is not None:
            bars.append(_point_bar(bar.point, numbers))
        elif bar.kind == "required":
            bars.append(
                ExplanationBar(
                    label="= Required points",
                    value=bar.value or 0.0,
                    text=f"{format_score(bar.value)} (weighted mean)",
                    kind="required",
                    hover=mean_text(bar.points, bar.value),
                )
            )
        elif bar.kind == "final":
            bars.append(
                ExplanationBar(
                    label="= Final score",
                    value=bar.value or 0.0,
                    text=_num(bar.value),
                    kind="final",
                    hover=html.escape(expl.formula),
                )
            )
        else:
            won = bar.kind == "best"
            bars.append(
                ExplanationBar(
                    label=f"= {bar.name}" + (" ★ best path" if won else ""),
                    value=bar.value or 0.0,
                    text=(_num(bar.value) if bar.value is not None else "nothing scored")
                    + (" — counts" if won else " — not used"),
                    kind="winner" if won else "path",
                    hover=mean_text(bar.points, bar.value),
                )
            )
    return bars


def explanation_figure(expl: ScoreExplanation, numbers: Sequence[int] | None = None) -> go.Figure:
    """Horizontal bars: every point, each group's weighted mean, each path (best marked), final."""
    bars = explanation_bars(expl, numbers)
    fig = go.Figure(
        go.Bar(
            x=[b.value for b in bars],
            y=[b.label for b in bars],
            orientation="h",
            marker_color=[COLORS[b.kind] for b in bars],
            text=[b.text for b in bars],
            textposition="outside",
            cliponaxis=False,
            customdata=[b.hover for b in bars],
            hovertemplate="%{customdata}<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis={"range": [0, 1.6], "title": "score", "tickvals": [0, 0.25, 0.5, 0.75, 1]},
        yaxis={"autorange": "reversed", "type": "category"},
        height=70 + 30 * len(bars),
        margin={"l": 10, "r": 20, "t": 10, "b": 40},
        showlegend=False,
    )
    return fig
