"""Reports: a comparison rendered as a self-contained HTML report, CSV or text; costs worded.

Only renders: the comparison itself (built, read, written) is `engine.comparison`'s.
May import everything below it (`engine.comparison`, `engine.run`, `engine.compare` and what
they import); never `engine.cli` or `studio`.

The names load on first use (PEP 562): `blueprint lint` must not pull the HTML report, the
providers and httpx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.report.csv import CSV_COLUMNS, comparison_csv, csv_rows
    from engine.report.html import render_html

_HOMES = {
    "CSV_COLUMNS": "csv",
    "comparison_csv": "csv",
    "csv_rows": "csv",
    "render_html": "html",
}

__all__ = ["CSV_COLUMNS", "comparison_csv", "csv_rows", "render_html"]


__getattr__ = lazy_names(__name__, _HOMES)
