"""Reports: Weval's comparison JSON (write and read back), a self-contained HTML report, CSV."""

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
