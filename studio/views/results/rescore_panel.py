"""A run's re-scores on its results page: where it was re-scored from, and re-scoring it again."""

from __future__ import annotations

import streamlit as st

from engine.errors import EngineError
from engine.report.costs import cost_range_text
from engine.store import RunRecord
from studio import services, state
from studio.core import runs
from studio.core.textsafe import safe_markdown

__all__ = ["rescore_panel", "rescored_from_note"]

SHOW_KEY = "res_rescore_show"
STARTED_KEY = "res_rescore_started"


def rescored_from_note(run: RunRecord) -> None:
    """For a re-score, say (and link) which run's answers it scored."""
    found = runs.rescored_from(services.store(), run)
    if found is None:
        return
    source, label = found
    st.caption(
        "A re-score: the answers of another run, scored again with this blueprint "
        "(nothing was generated)."
    )
    st.page_link(
        "views/results/results.py",
        label=safe_markdown(f"Re-scored from the run {label}"),
        icon=":material/history:",
        query_params={"run": source},
    )


def _start(run_id: str, text: str, source: str | None) -> None:
    try:
        prepared = runs.rescore(services.store(), run_id, text, source, start=True)
    except EngineError as exc:
        state.set_notice("error", str(exc))
        return
    if prepared.run_id is None:
        state.set_notice("error", "The re-score could not start: " + " ".join(prepared.problems))
        return
    st.session_state[STARTED_KEY] = (run_id, prepared.run_id)
    st.session_state[SHOW_KEY] = False
    state.set_notice(
        "success", "The re-score has started: it scores this run's answers again, as a new run."
    )


def _plan(run: RunRecord, text: str, source: str | None) -> None:
    try:
        prepared = runs.rescore(services.store(), run.id, text, source, start=False)
    except EngineError as exc:
        st.error(safe_markdown(str(exc)))
        return
    plan, est = prepared.plan, prepared.estimate
    answers = sum(1 for c in plan.cells if c.recorded is not None and c.recorded.answered)
    to_make = est.judge_calls - est.judge_cached
    cols = st.columns(3)
    cols[0].metric(
        "Answers to score", answers, help="Stored answers of this run; none is generated."
    )
    cols[1].metric(
        "Judge calls to make",
        to_make,
        help=f"{est.judge_cached} of {est.judge_calls} judgments were made before and are reused.",
    )
    cols[2].metric(
        "Cost estimate", cost_range_text(est.cost_low, est.cost_high, bool(est.unknown_prices))
    )
    st.caption(
        f"{est.judge_cached} judgment(s) reused, {to_make} judge call(s) to make, "
        "0 answers generated."
    )
    if prepared.unanswered:
        st.caption(
            "Not answered in this run (never generated, so not scored): "
            + safe_markdown(", ".join(prepared.unanswered))
        )
    for warning in plan.warnings:
        st.warning(safe_markdown(warning))
    for problem in prepared.problems:
        st.error(safe_markdown(problem))
    st.button(
        "Start the re-score",
        type="primary",
        icon=":material/play_arrow:",
        disabled=bool(prepared.problems),
        on_click=_start,
        args=(run.id, text, source),
    )


def rescore_panel(run: RunRecord) -> None:
    """The "Re-score with the current draft" toggle: the plan (judge calls, cost), then a start button.

    Shown for a run with answers, when a blueprint is open in the editor.
    """
    started = st.session_state.get(STARTED_KEY)
    if isinstance(started, tuple) and started[0] == run.id:
        st.page_link(
            "views/results/results.py",
            label="See the re-score",
            icon=":material/leaderboard:",
            query_params={"run": str(started[1])},
        )
    text = state.get_text()
    if text is None or not run.done_cells or run.live_status in runs.ACTIVE:
        return
    if st.toggle(
        "Re-score with the current draft",
        key=SHOW_KEY,
        help="Score this run's answers again with the blueprint open in the editor, as a new "
        "run: nothing is generated, and only points not judged before go to the judges.",
    ):
        _plan(run, text, state.source())
