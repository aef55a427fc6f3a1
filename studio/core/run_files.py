"""The files a run's results download as: the HTML report, the comparison JSON and a CSV.

Used by the results pages' download buttons and by the plain share page (`studio.share_pages`),
so both offer the same files under the same names. No Streamlit import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.report import comparison_csv, render_html
from engine.report.costs import unpriced
from engine.report.html import CSP
from engine.report.reviews import comparison_json_with_reviews
from engine.store import ReviewRow
from studio.core.resultdata import Results

__all__ = ["FILES", "FileKind", "RunFile", "file_name", "run_file", "slug", "usage_dict"]

FileKind = Literal["html", "json", "csv"]
"""Which of a run's files: the report, the comparison JSON or the CSV of points."""


@dataclass(frozen=True)
class RunFile:
    """How one kind of file is offered: its button label, name ending and media type."""

    label: str
    suffix: str
    mime: str


FILES: dict[FileKind, RunFile] = {
    "html": RunFile("Download report (HTML)", "_report.html", "text/html"),
    "json": RunFile("Comparison JSON", "_comparison.json", "application/json"),
    "csv": RunFile("CSV (one row per point)", "_points.csv", "text/csv"),
}


def slug(text: str, default: str = "blueprint") -> str:
    """A file-name friendly version of a title."""
    out = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return out[:60] or default


def file_name(name: str, kind: FileKind) -> str:
    """The download name of a file of this kind for results named `name` (a slug)."""
    return f"{name}{FILES[kind].suffix}"


def usage_dict(results: Results) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (prompt, model): the latency, tokens and cost the report shows."""
    return {
        key: {
            "latency_ms": u.latency_ms,
            "input_tokens": u.input_tokens,
            "output_tokens": u.output_tokens,
            "cost_usd": u.cost_usd,
        }
        for key, u in results.usage.items()
    }


def run_file(
    results: Results,
    kind: FileKind,
    reviews: Sequence[ReviewRow],
    *,
    link: str | None = None,
    banner: str = "",
    csp: str = CSP,
    visitor: bool = False,
    view: Mapping[str, Any] | None = None,
) -> str:
    """The text of one file of these results.

    Args:
        results: The results to write.
        kind: Which file.
        reviews: The reviewers' verdicts on these results' prompts.
        link: The link of the run, shown (as text) in the HTML report.
        banner: Markup put first in the report's body (see `engine.report.render_html`).
        csp: The report's Content-Security-Policy.
        visitor: For someone who did not run it (a share link): no hints for the operator.
        view: More of `engine.report.render_html`'s options (the share page's pages).
    """
    if kind == "json":
        return comparison_json_with_reviews(results.comparison, reviews)
    if kind == "csv":
        return comparison_csv(results.comparison, reviews)
    return render_html(
        results.comparison,
        usage=usage_dict(results),
        link=link,
        unpriced=unpriced(results.models) if results.usage else (),
        reviews=reviews,
        banner=banner,
        csp=csp,
        visitor=visitor,
        **(view or {}),
    )
