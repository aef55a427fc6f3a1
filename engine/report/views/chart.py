"""The per-path chart of one answer's score as inline SVG: each path, the best one marked."""

from __future__ import annotations

import html
from dataclasses import dataclass

from engine.js.values import format_score
from engine.report.views.why import score_bars
from engine.scoring.aggregation import ScoreExplanation

__all__ = ["ChartBar", "chart_bars", "path_chart"]

_FILL = {"required": "#4393c3", "best": "#2166ac", "path": "#bababa", "final": "#d6604d"}
"""Bar colours: the heatmap's blues for what counts, grey for a path not used, red-orange for
the final score (the words beside each bar say the same, so colour is never needed)."""

_LABEL_W, _BAR_W, _ROW_H = 110, 200, 22


@dataclass(frozen=True)
class ChartBar:
    """One bar: its label, value (0-1, None when nothing scored), kind and words after it."""

    label: str
    value: float | None
    kind: str
    note: str = ""


_LABELS = {"required": "Required points", "final": "Final score"}


def chart_bars(expl: ScoreExplanation) -> list[ChartBar]:
    """The bars of a cell's per-path chart: required points, each path (best marked), final."""
    return [
        ChartBar(
            _LABELS.get(bar.kind) or bar.name + (" ★" if bar.kind == "best" else ""),
            bar.value,
            bar.kind,
            {"best": "best path, counts", "path": "not used"}.get(bar.kind, ""),
        )
        for bar in score_bars(expl, points=False)
    ]


def path_chart(expl: ScoreExplanation) -> str:
    """The chart as a small `<svg>`, hidden from screen readers: the steps beside it say the same.

    Args:
        expl: The engine's explanation of the cell's score.
    """
    bars = chart_bars(expl)
    height = _ROW_H * len(bars) + 4
    width = _LABEL_W + _BAR_W + 200
    tracks = "".join(
        f"M{_LABEL_W} {i * _ROW_H + 5}h{_BAR_W}v14h-{_BAR_W}z" for i in range(len(bars))
    )
    rows = []
    for i, b in enumerate(bars):
        y = i * _ROW_H + 2
        size = round(max(0.0, min(1.0, b.value or 0.0)) * _BAR_W)
        text = format_score(b.value, 2, "nothing scored") + (f" — {b.note}" if b.note else "")
        rows.append(
            f"<text x=0 y={y + 15}>{html.escape(b.label)}</text>"
            f'<rect x={_LABEL_W} y={y + 3} width={size} height=14 fill="{_FILL[b.kind]}"/>'
            f"<text x={_LABEL_W + _BAR_W + 6} y={y + 15}>{html.escape(text)}</text>"
        )
    return (
        f"<svg class=chart aria-hidden=true width={width} height={height} font-size=12 "
        f'fill="#1f2328"><path d="{tracks}" fill="#eee"/>' + "".join(rows) + "</svg>"
    )
