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

from engine.comparison.weval import IDEAL_MODEL_ID, Comparison
from engine.modelids import display_names
from engine.output import printable
from engine.report.numbering import point_kinds, point_numbers
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
    "model_id",
    "model_cost_usd",
)
"""The columns, in order. `model` is the name every page shows (`ideal`); `model_id` is
Weval's effective id (`ideal[temp:0]`), as the comparison JSON keeps it. `model_cost_usd` is
the model's cost in the run (its answers plus their judging, `blueprintStudio.cost`):
"unknown" when a price is missing, empty when the run recorded no cost."""

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
    seen = {m for row in comparison.cells.values() for m in row} - {IDEAL_MODEL_ID}
    names = display_names([m for m in comparison.models if m in seen] + sorted(seen))
    cost = comparison.cost
    for pid in comparison.prompt_ids:
        row = comparison.cells.get(pid, {})
        for model in sorted(row):
            if model == IDEAL_MODEL_ID:
                continue
            cell = row[model]
            spent = cost.per_model.get(model, None) if cost is not None else None
            base = {
                "prompt_id": _text(pid),
                "model": _text(names[model]),
                "cell_score": cell.score,
                "cell_error": _text(cell.error),
                "model_id": _text(model),
                "model_cost_usd": ""
                if cost is None or model not in cost.per_model
                else "unknown"
                if spent is None
                else spent,
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
