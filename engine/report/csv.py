"""A run's results as CSV: one row per prompt × model × point.

Points are listed in Weval's order but numbered as the blueprint writes them
(`engine.report.numbering`), like every page of the studio and the judges' records. A cell
with no points (its answer failed) gives one row with the error and empty point fields. Text
that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
carriage return) is prefixed with `'`, so opening the file cannot execute anything.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from engine.report.comparison import IDEAL_MODEL_ID, Comparison
from engine.report.numbering import point_kinds, point_numbers
from engine.report.output import printable

__all__ = ["CSV_COLUMNS", "comparison_csv", "csv_rows"]

CSV_COLUMNS: tuple[str, ...] = (
    "prompt_id",
    "model",
    "cell_score",
    "cell_error",
    "point_index",
    "point",
    "kind",
    "path",
    "weight",
    "inverted",
    "status",
    "point_score",
    "reflection",
    "point_error",
)
"""The columns, in order."""

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_rows(comparison: Comparison) -> Iterator[dict[str, Any]]:
    """Yield one dict per prompt × model × point (keys: `CSV_COLUMNS`)."""
    for pid in comparison.prompt_ids:
        row = comparison.cells.get(pid, {})
        for model in sorted(row):
            if model == IDEAL_MODEL_ID:
                continue
            cell = row[model]
            base = {
                "prompt_id": _text(pid),
                "model": _text(model),
                "cell_score": cell.score,
                "cell_error": _text(cell.error),
            }
            if not cell.assessments:
                yield {**dict.fromkeys(CSV_COLUMNS), **base}
                continue
            numbers = point_numbers(cell.assessments, point_kinds(comparison.config, pid))
            for number, a in zip(numbers, cell.assessments, strict=True):
                yield {
                    **base,
                    "point_index": number,
                    "point": _text(a.key_point_text),
                    "kind": a.kind,
                    "path": a.path_id,
                    "weight": a.multiplier,
                    "inverted": a.is_inverted,
                    "status": a.status,
                    "point_score": a.coverage_extent if a.counts else None,
                    "reflection": _text(a.reflection),
                    "point_error": _text(a.error),
                }


def comparison_csv(comparison: Comparison) -> str:
    """Return the CSV text: a header row first, CRLF line ends as spreadsheets expect."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(CSV_COLUMNS))
    writer.writeheader()
    for row in csv_rows(comparison):
        writer.writerow(row)
    return printable(out.getvalue())
