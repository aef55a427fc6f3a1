"""Reports: Weval's comparison JSON (write and read back), a self-contained HTML report, CSV.

The names load on first use (PEP 562): `engine.report.output` (atomic writes, used by every
command) must not pull the HTML report, the providers and httpx into `blueprint lint`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.report.comparison import (
        IDEAL_MODEL_ID,
        Comparison,
        cell_from_weval,
        config_content_hash,
        read_comparison,
        safe_timestamp,
    )
    from engine.report.csv import CSV_COLUMNS, comparison_csv, csv_rows
    from engine.report.html import render_html

_HOMES = {
    "IDEAL_MODEL_ID": "comparison",
    "Comparison": "comparison",
    "cell_from_weval": "comparison",
    "config_content_hash": "comparison",
    "read_comparison": "comparison",
    "safe_timestamp": "comparison",
    "CSV_COLUMNS": "csv",
    "comparison_csv": "csv",
    "csv_rows": "csv",
    "render_html": "html",
}

__all__ = [
    "CSV_COLUMNS",
    "IDEAL_MODEL_ID",
    "Comparison",
    "cell_from_weval",
    "comparison_csv",
    "config_content_hash",
    "csv_rows",
    "read_comparison",
    "render_html",
    "safe_timestamp",
]


__getattr__ = lazy_names(__name__, _HOMES)
