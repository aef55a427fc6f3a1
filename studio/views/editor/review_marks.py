"""The editor's marks from the latest run of the open draft: points whose judges disagreed.

The latest completed run of the same draft (runs record `draft: [id, number]` in their
options), else of a blueprint with the same title, is calibrated (`engine.review`) with the
reviewers' verdicts; the points to rewrite first that the text still has are marked at their
line with an info diagnostic naming the run.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.blueprint import Blueprint
from engine.errors import StoreError
from engine.lint import Diagnostic
from engine.review.marks import rewrite_marks
from engine.store import RunRecord
from studio import services
from studio.widgets.review_panel import run_calibration, run_points

__all__ = ["editor_marks", "latest_run_of"]

_SCANNED = 200


def latest_run_of(
    runs: Sequence[RunRecord], draft_id: str | None, title: str | None
) -> RunRecord | None:
    """The newest completed run of the draft, else of the same title (runs newest first)."""
    done = [r for r in runs if r.live_status == "completed"]
    if draft_id is not None:
        for run in done:
            draft = run.options.get("draft")
            if isinstance(draft, list) and draft and draft[0] == draft_id:
                return run
    if title:
        return next((r for r in done if r.title == title), None)
    return None


def run_name(run: RunRecord) -> str:
    """How a mark names a run: its time and the start of its id."""
    return f"the run of {run.created_at[:16].replace('T', ' ')} UTC ({run.id[:8]}…)"


def editor_marks(text: str, source: str | None, draft_id: str | None) -> list[Diagnostic]:
    """Info diagnostics for the open text from its latest run (none when there is no run)."""
    parsed = services.parse(text, source)
    if not isinstance(parsed, Blueprint):
        return []
    try:
        run = latest_run_of(services.store().list_runs(limit=_SCANNED), draft_id, parsed.title)
        if run is None:
            return []
        loaded = services.run_view(run.id)
        if loaded is None or loaded.results is None:
            return []
        points = run_points(loaded.results)
        if not points:
            return []
        reviews = services.store().reviews(loaded.results.prompt_ids)
    except StoreError:
        return []  # the editor works without its marks; the results page says what is wrong
    return rewrite_marks(parsed, run_calibration(loaded.results, reviews), run_name(run))
