"""The per-path chart of one answer's score as inline SVG: each path, the best one marked."""

from __future__ import annotations

import html
from dataclasses import dataclass

from engine.jsvalues import format_score
from engine.report.views.why import path_names
from engine.scoring.aggregation import ScoreExplanation

__all__ = ["ChartBar", "chart_bars", "path_chart"]

_FILL = {"required": "#4393c3", "best": "#2166ac", "path": "#bababa", "final": "#d6604d"}
"""Bar colours: the heatmap's blues for what counts, grey for a path not used, red-orange for
the final score (the words beside each bar say the same, so colour is never needed)."""

_LABEL_W, _BAR_W, _ROW_H = 170, 200, 22


@dataclass(frozen=True)
class ChartBar:
    """One bar: its label, value (0-1, None when nothing scored), kind and words after it."""

    label: str
    value: float | None
    kind: str
    note: str = ""


def chart_bars(expl: ScoreExplanation) -> list[ChartBar]:
    """The bars of a cell's per-path chart: required points, each path (best marked), final."""
    bars: list[ChartBar] = []
    for group in expl.groups:
        if group.kind == "required":
            bars.append(ChartBar("Required points", group.score, "required"))
            continue
        names = path_names(p.path_id for p in group.paths)
        for path in group.paths:
            best = path.path_id == group.winner
            bars.append(
                ChartBar(
                    names[path.path_id] + (" ★" if best else ""),
                    path.score,
                    "best" if best else "path",
                    "best path, counts" if best else "not used",
                )
            )
    bars.append(ChartBar("Final score", expl.score, "final"))
    return bars


def path_chart(expl: ScoreExplanation, title: str) -> str:
    """The chart as an `<svg>` element, its words in `aria-label` and `<title>` (escaped).

    Args:
        expl: The engine's explanation of the cell's score.
        title: What the chart is of (a model's name), escaped here.
    """
    bars = chart_bars(expl)
    words = "; ".join(
        f"{b.label} {format_score(b.value, 2, 'nothing scored')}"
        + (f" ({b.note})" if b.note else "")
        for b in bars
    )
    label = html.escape(f"Per-path scores of {title}: {words}", quote=True)
    height = _ROW_H * len(bars) + 4
    width = _LABEL_W + _BAR_W + 150
    rows = []
    for i, b in enumerate(bars):
        y = i * _ROW_H + 2
        size = round(max(0.0, min(1.0, b.value or 0.0)) * _BAR_W)
        text = format_score(b.value, 2, "nothing scored") + (f" — {b.note}" if b.note else "")
        rows.append(
            f"<text x=0 y={y + 15}>{html.escape(b.label)}</text>"
            f'<rect x={_LABEL_W} y={y + 3} width={_BAR_W} height=14 fill="#f0f0f0"/>'
            f'<rect x={_LABEL_W} y={y + 3} width={size} height=14 fill="{_FILL[b.kind]}"/>'
            f"<text x={_LABEL_W + _BAR_W + 6} y={y + 15}>{html.escape(text)}</text>"
        )
    return (
        f'<svg class=chart role=img aria-label="{label}" width={width} height={height} '
        f'viewBox="0 0 {width} {height}" font-size=12 fill="#1f2328">'
        f"<title>{label}</title>" + "".join(rows) + "</svg>"
    )
