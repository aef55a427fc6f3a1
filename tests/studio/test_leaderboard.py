"""The leaderboard table (Markdown drawn at once): numbers, bars, escaped names."""

from __future__ import annotations

import re

from studio.core.resultdata import LeaderRow
from studio.views.results.results_view import NBSP, leaderboard_markdown


def row(name: str, average: float | None, **kw) -> LeaderRow:
    base = {
        "model": name,
        "name": name,
        "average": average,
        "stddev": None,
        "minimum": average,
        "maximum": average,
        "scored": 1 if average is not None else 0,
        "failed": 0 if average is not None else 1,
        "unscored": 0,
        "prompts": 1,
        "input_tokens": 1200,
        "output_tokens": 30,
        "cost_usd": 0.0012,
        "mean_latency_ms": 1500.0,
    }
    base.update(kw)
    return LeaderRow(**base)


def test_rows_numbers_and_bars():
    table = leaderboard_markdown([row("a", 0.75, stddev=0.1), row("b", None)]).splitlines()
    assert table[0].startswith("| # | Model | Average |")
    assert table[2] == (
        f"| 1 | a | **0.75** | :primary-background[{NBSP * 12}] | — | 0.10 | 1 | 0 | 0 "
        "| 1,200 / 30 | \\$0\\.0012 | 1.50 |"
    )
    assert table[3].startswith("| 2 | b | **—** |  | — | — | 0 | 1 |")


def test_unknown_usage_is_a_dash():
    line = leaderboard_markdown([row("a", 0.5)], usage_known=False).splitlines()[2]
    assert line.endswith("| 1 | 0 | 0 | — | — | — |")


def test_model_names_cannot_inject_markdown_html_or_cells():
    hostile = '<img src=x onerror="alert(1)"> | [x](javascript:1) ![i](http://e/x.png)'
    line = leaderboard_markdown([row(hostile, 0.5)]).splitlines()[2]
    assert not re.search(r"(?<!\\)[<>\[\]()!]", line.split("**")[0])  # all escaped
    assert len(re.findall(r"(?<!\\)\|", line)) == 13  # the name's `|` adds no cell


def test_tied_ranks_and_intervals_are_shown():
    rows = [
        row("a", 0.8, rank="1", low=0.7, high=0.9),
        row("b", 0.6, rank="2=", low=0.45, high=0.75),
        row("c", 0.58, rank="2="),
    ]
    table = leaderboard_markdown(rows).splitlines()
    assert "| 95% interval |" in table[0]
    cells = [[c.strip() for c in line.split("|")] for line in table[2:]]
    assert [(c[1], c[2], c[5]) for c in cells] == [
        ("1", "a", "0.70 – 0.90"),
        ("2=", "b", "0.45 – 0.75"),
        ("2=", "c", "—"),
    ]
