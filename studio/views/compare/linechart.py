"""A line chart as inline SVG (score over time, a line per series), escaped, with no script.

The Compare page's trend used a Vega-Lite chart, whose library the browser of each new tab
must load and compile before anything is drawn; this SVG is a few kilobytes of markup. Series
differ by colour (Okabe–Ito, safe for colour-blind readers), by dash pattern and by marker
shape, so no reader depends on colour alone. Streamlit's `st.html` keeps no SVG element (its
sanitizer allows HTML only), so pages show the chart as an image (`svg_image`), described by its
text alternative; the figures themselves are in a table next to it.
Pure: no Streamlit import.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from datetime import datetime

__all__ = ["PALETTE", "line_chart_svg", "svg_image"]

PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
"""Okabe–Ito's colours without its yellow (too light on white), in the order series get them."""
_DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 4", "1 2")
_WIDTH, _PLOT_H = 880, 260
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 20, 12, 36
_LEGEND_ROW = 20
_LEGEND_COL = 230


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _marker(shape: int, x: float, y: float, colour: str, tip: str) -> str:
    tip_el = f"<title>{_e(tip)}</title>"
    style = f'fill="{colour}" stroke="#ffffff" stroke-width="1"'
    if shape == 0:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" {style}>{tip_el}</circle>'
    if shape == 1:
        corner = f'x="{x - 3.5:.1f}" y="{y - 3.5:.1f}"'
        return f'<rect {corner} width="7" height="7" {style}>{tip_el}</rect>'
    if shape == 2:
        pts = f"{x:.1f},{y - 4.5:.1f} {x + 4.5:.1f},{y + 3.5:.1f} {x - 4.5:.1f},{y + 3.5:.1f}"
    else:
        pts = f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y:.1f} {x:.1f},{y + 5:.1f} {x - 5:.1f},{y:.1f}"
    return f'<polygon points="{pts}" {style}>{tip_el}</polygon>'


def _time_ticks(start: datetime, end: datetime, count: int = 4) -> list[datetime]:
    if start == end:
        return [start]
    step = (end - start) / count
    return [start + step * k for k in range(count + 1)]


def _tick_label(when: datetime, start: datetime, end: datetime) -> str:
    if start.date() == end.date():
        return when.strftime("%H:%M")
    return when.strftime("%Y-%m-%d" if (end - start).days > 3 else "%m-%d %H:%M")


def line_chart_svg(
    series: Mapping[str, Sequence[tuple[datetime, float]]],
    *,
    label: str,
    value_name: str = "Average score",
    digits: int = 3,
) -> str:
    """An SVG line chart of values in [0, 1] over time, one line (and legend entry) per series.

    Args:
        series: Series name → its points (time, value), in any order; names are escaped.
        label: What the chart shows, in words (its accessible name, read by screen readers).
        value_name: The y axis's name, also used in each marker's `<title>` (its tooltip
            where the SVG is inline, not when it is shown as an image).
        digits: Decimals of the values in the markers' titles.

    Returns:
        An `<svg>` element with `role="img"`, its size given by a viewBox (it scales to the
        width of its container).
    """
    names = list(series)
    times = sorted({t for points in series.values() for t, _ in points})
    legend_cols = max(1, (_WIDTH - _LEFT) // _LEGEND_COL)
    legend_rows = (len(names) + legend_cols - 1) // legend_cols
    height = _TOP + _PLOT_H + _BOTTOM + legend_rows * _LEGEND_ROW + 8
    plot_w = _WIDTH - _LEFT - _RIGHT
    out = [
        f'<svg class="bp-chart" role="img" aria-label="{_e(label)}" viewBox="0 0 {_WIDTH} {height}" '
        f'width="100%" xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="12">'
    ]
    if not times:
        return out[0] + "</svg>"
    start, end = times[0], times[-1]
    span = (end - start).total_seconds()

    def x_of(t: datetime) -> float:
        if span == 0:
            return _LEFT + plot_w / 2
        return _LEFT + plot_w * (t - start).total_seconds() / span

    def y_of(v: float) -> float:
        return _TOP + _PLOT_H * (1 - max(0.0, min(1.0, v)))

    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y_of(level)
        out.append(
            f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_WIDTH - _RIGHT}" y2="{y:.1f}" '
            f'stroke="{"#55595f" if level == 0 else "#d8dbe0"}" stroke-width="1"/>'
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#1f2328">'
            f"{level:.2f}</text>"
        )
    base_y = _TOP + _PLOT_H
    for tick in _time_ticks(start, end):
        x = x_of(tick)
        out.append(
            f'<line x1="{x:.1f}" y1="{base_y}" x2="{x:.1f}" y2="{base_y + 4}" stroke="#55595f"/>'
            f'<text x="{x:.1f}" y="{base_y + 18}" text-anchor="middle" fill="#1f2328">'
            f"{_e(_tick_label(tick, start, end))}</text>"
        )
    out.append(
        f'<text x="12" y="{_TOP + _PLOT_H / 2:.1f}" text-anchor="middle" fill="#1f2328" '
        f'transform="rotate(-90 12 {_TOP + _PLOT_H / 2:.1f})">{_e(value_name)}</text>'
    )
    for k, name in enumerate(names):
        colour, dash, shape = PALETTE[k % len(PALETTE)], _DASHES[k % len(_DASHES)], k % 4
        points = sorted(series[name])
        coords = " ".join(f"{x_of(t):.1f},{y_of(v):.1f}" for t, v in points)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<g class="bp-series"><polyline points="{coords}" fill="none" stroke="{colour}" '
            f'stroke-width="2"{dashed}/>'
        )
        for t, v in points:
            tip = f"{name} · {t.strftime('%Y-%m-%d %H:%M')} · {value_name} {v:.{digits}f}"
            out.append(_marker(shape, x_of(t), y_of(v), colour, tip))
        out.append("</g>")
        lx = _LEFT + (k % legend_cols) * _LEGEND_COL
        ly = base_y + _BOTTOM + (k // legend_cols) * _LEGEND_ROW + 6
        shown = name if len(name) <= 30 else name[:29] + "…"
        out.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" stroke="{colour}" '
            f'stroke-width="2"{dashed}/>'
            + _marker(shape, lx + 12, ly, colour, name)
            + f'<text x="{lx + 30}" y="{ly + 4}" fill="#1f2328">{_e(shown)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def svg_image(svg: str, alt: str) -> str:
    """An `<img>` that shows `svg` (as a data URL), with `alt` as its text alternative."""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return f'<img class="bp-chart" src="data:image/svg+xml;base64,{data}" alt="{_e(alt)}" width="100%">'
