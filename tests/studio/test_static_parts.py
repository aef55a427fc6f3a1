"""Static tables and the SVG line chart: escaped labels, colours from code only, one line each."""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime

import pytest

from studio.views.compare.linechart import PALETTE, line_chart_svg, svg_image
from studio.views.compare.statictable import Table

HOSTILE = "<img src=x onerror=alert(1)>\"' & </td></table><script>x()</script>"


def test_every_label_of_a_table_is_escaped():
    table = Table(
        columns=[HOSTILE],
        rows=[[HOSTILE]],
        label=HOSTILE,
        row_labels=[HOSTILE],
        corner=HOSTILE,
        test_id=HOSTILE,
    )
    out = table.html()
    # the only tags are the table's own; no quote of the label closes an attribute
    assert set(re.findall(r"</?([a-z]+)", out)) == {
        "div",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
    }
    assert "<img" not in out and "<script" not in out and 'onerror=alert(1)>"' not in out
    assert out.count("&lt;img src=x onerror=alert(1)&gt;&quot;&#x27; &amp;") == 6


def test_cell_colours_must_be_colours():
    ok = Table(["a"], [["1"]], "t", colours=[["#4393c3"]]).html()
    assert 'style="background-color: #4393c3; color: #111111"' in ok
    with pytest.raises(ValueError, match="not a #rrggbb colour"):
        Table(["a"], [["1"]], "t", colours=[["red; background: url(x)"]]).html()


def test_records_read_the_table_row_by_row():
    table = Table(["m1", "m2"], [["+0.25", "−0.50"]], "t", row_labels=["p1"], corner="Prompt")
    assert table.records() == [{"Prompt": "p1", "m1": "+0.25", "m2": "−0.50"}]


def _series() -> dict[str, list[tuple[datetime, float]]]:
    t1, t2, t3 = (
        datetime(2026, 12, 1, 9, tzinfo=UTC),
        datetime(2026, 12, 1, 12, tzinfo=UTC),
        datetime(2026, 12, 1, 15, tzinfo=UTC),
    )
    return {"model a": [(t2, 0.5), (t1, 1.0), (t3, 0.0)], HOSTILE: [(t1, 0.25)]}


def test_the_chart_draws_one_line_per_series_through_its_points_in_time_order():
    svg = line_chart_svg(_series(), label="Trend")
    lines = re.findall(r'<polyline points="([^"]+)" fill="none" stroke="(#[0-9a-f]{6})"', svg)
    assert [colour for _, colour in lines] == list(PALETTE[:2])
    coords = [tuple(float(v) for v in xy.split(",")) for xy in lines[0][0].split()]
    xs = [x for x, _ in coords]
    ys = [y for _, y in coords]
    assert xs == sorted(xs) and xs[0] < xs[1] < xs[2]  # left to right in time
    # 1.0 at the top, 0.0 at the bottom, 0.5 half way (SVG's y grows downwards)
    assert ys[0] < ys[1] < ys[2] and ys[1] == pytest.approx((ys[0] + ys[2]) / 2)
    assert "09:00" in svg and "15:00" in svg  # the time axis, one day: hours


def test_the_chart_escapes_series_names_and_has_an_accessible_name():
    svg = line_chart_svg(_series(), label=HOSTILE)
    assert "<img" not in svg and "<script" not in svg
    assert svg.startswith('<svg class="bp-chart" role="img" aria-label="&lt;img')
    assert "&lt;img src=x onerror=alert(1)&gt;" in svg  # the legend, escaped


def test_the_chart_as_an_image_carries_the_svg_and_its_text_alternative():
    svg = line_chart_svg(_series(), label="Trend")
    img = svg_image(svg, HOSTILE)
    data = re.search(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', img)
    assert data and base64.b64decode(data.group(1)).decode() == svg
    assert 'alt="&lt;img src=x onerror=alert(1)&gt;&quot;' in img


def test_an_empty_chart_is_an_empty_svg():
    assert line_chart_svg({}, label="none").endswith("</svg>")
