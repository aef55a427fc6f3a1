"""A run's results as CSV: one row per prompt × model × point.

Points are listed in Weval's order but numbered as the blueprint writes them
(`engine.report.numbering`), like every page of the studio and the judges' records. A cell
with no points (its answer failed) gives one row with the error and empty point fields. Text
that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
carriage return) is prefixed with `'`, so opening the file cannot execute anything.
With reviewers' verdicts (`engine.report.reviews`), `REVIEW_COLUMNS` follow the others.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any

from engine.report.comparison import IDEAL_MODEL_ID, Comparison
from engine.report.numbering import point_kinds, point_numbers
from engine.report.output import printable
from engine.report.reviews import PointReviews, judged_points, match_reviews, review_summary
from engine.store.reviews import ReviewRow

__all__ = ["CSV_COLUMNS", "REVIEW_COLUMNS", "comparison_csv", "csv_rows"]

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

REVIEW_COLUMNS: tuple[str, ...] = (
    "review_verdict",
    "review_score",
    "review_comment",
    "review_author",
    "reviewed_at",
)
"""The columns added when verdicts are given: `agree`/`score`/`mixed`, the reviewers' mean
score, their comments (`author: comment`, joined by ` | `), who, and the latest time."""

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_rows(
    comparison: Comparison, reviews: PointReviews | None = None
) -> Iterator[dict[str, Any]]:
    """Yield one dict per prompt × model × point.

    Keys: `CSV_COLUMNS`, and `REVIEW_COLUMNS` when `reviews` is given.
    """
    columns = CSV_COLUMNS + (REVIEW_COLUMNS if reviews is not None else ())
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
                yield {**dict.fromkeys(columns), **base}
                continue
            numbers = point_numbers(cell.assessments, point_kinds(comparison.config, pid))
            for index, (number, a) in enumerate(zip(numbers, cell.assessments, strict=True)):
                extra = (
                    {
                        k: _text(v)
                        for k, v in review_summary(reviews.get((pid, model, index), [])).items()
                    }
                    if reviews is not None
                    else {}
                )
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
                    **extra,
                }


def comparison_csv(comparison: Comparison, reviews: Iterable[ReviewRow] | None = None) -> str:
    """Return the CSV text: a header row first, CRLF line ends as spreadsheets expect.

    Args:
        comparison: The scored run.
        reviews: Reviewers' verdicts (any; those on this comparison's answers are matched),
            or None for no review columns.
    """
    matched = None if reviews is None else match_reviews(judged_points(comparison), reviews)
    out = io.StringIO()
    columns = CSV_COLUMNS + (REVIEW_COLUMNS if matched is not None else ())
    writer = csv.DictWriter(out, fieldnames=list(columns))
    writer.writeheader()
    for row in csv_rows(comparison, matched):
        writer.writerow(row)
    return printable(out.getvalue())
