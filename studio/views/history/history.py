"""History: every run in the store with its status and scores, each linking to its results."""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.comparison.build import run_cost
from engine.comparison.cost import money_text
from engine.js.values import format_score
from engine.modelids import base_model_id
from engine.report.costs import PRICE_HOWTO, UNKNOWN
from engine.store import RunRecord
from studio import access, services, state
from studio.core import runs, share
from studio.widgets.common import notice

VIEWER = access.guard("history")  # before anything is drawn or read

TABLE_KEY = "history_table"
STATUS_FILTER = "history_status"


def _scores(run: RunRecord) -> str:
    summary = run.summary or {}
    parts = []
    for model, stats in sorted(
        summary.items(), key=lambda kv: -((kv[1] or {}).get("average") or 0.0)
    ):
        average = (stats or {}).get("average")
        shown = format_score(average) if isinstance(average, int | float) else "—"
        parts.append(f"{base_model_id(str(model))} {shown}")
    return " · ".join(parts)


def _version(run: RunRecord) -> str:
    """The draft version a run used (`version 3`), when it was started from a studio draft."""
    draft = run.options.get("draft")
    if isinstance(draft, list) and len(draft) == 2 and isinstance(draft[1], int):
        return f"version {draft[1]}"
    return "—"


def _kind(run: RunRecord) -> str:
    """The kind of run: a run, or a re-score naming the run it scored (never by its id)."""
    found = runs.rescored_from(services.store(), run)
    return "Run" if found is None else f"Re-score of {found[1]}"


def _row(run: RunRecord, base: str) -> dict[str, Any]:
    return {
        "Results": share.results_link(base, run.id),
        "Blueprint": run.title or "Untitled blueprint",
        "Kind": _kind(run),
        "Version": _version(run),
        "Status": runs.status_word(run.live_status),
        "Scores": _scores(run) or "—",
        "Answers": f"{run.done_cells} of {run.total_cells}",
        # the figure of the run's results page, report and JSON (`blueprintStudio.cost`)
        "Cost": money_text(run_cost(services.store(), run.id).total),
        "Started (UTC)": run.created_at[:16].replace("T", " "),
        "Models": ", ".join(str(m) for m in run.options.get("models") or []),
    }


def main() -> None:
    """Render the History page."""
    st.title("History")
    notice()
    all_runs = services.store().list_runs(limit=500)
    if not all_runs:
        st.info(
            "No runs yet. Write a blueprint in the Editor, then start it on the Run page: "
            "every run is listed here with its scores."
        )
        cols = st.columns(2)
        cols[0].page_link(
            "views/editor/editor.py", label="Open the Editor", icon=":material/edit_note:"
        )
        if _may_run():
            cols[1].page_link(
                "views/run/run.py", label="Start a run", icon=":material/play_circle:"
            )
        return
    st.caption(
        "Every run saved in this studio, newest first. Open one to see its results; a link "
        "to the results can be shared with anyone who can reach this studio."
    )
    statuses = sorted({r.live_status for r in all_runs})
    chosen = st.pills(
        "Show",
        statuses,
        selection_mode="multi",
        default=statuses,
        key=STATUS_FILTER,
        format_func=runs.status_word,
    )
    shown = [r for r in all_runs if r.live_status in (chosen or statuses)]
    base = access.base_url()  # the public URL in team mode
    event = st.dataframe(
        [_row(r, base) for r in shown],
        hide_index=True,
        width="stretch",
        key=TABLE_KEY,
        on_select="rerun",
        selection_mode="multi-row",
        column_config={
            "Results": st.column_config.LinkColumn(
                "Results", display_text="Open", help="The share link of the run's results."
            ),
            "Kind": st.column_config.TextColumn(
                "Kind",
                help="A run generates answers; a re-score scores another run's answers again.",
            ),
            "Version": st.column_config.TextColumn(
                "Version", help="The version of its draft the run used (Editor › Versions)."
            ),
            "Cost": st.column_config.TextColumn(
                "Cost", help=f"“{UNKNOWN}”: a model has no price; {PRICE_HOWTO}."
            ),
        },
    )
    picked = event.selection.rows if event is not None else []
    if not picked:
        st.caption(
            "Select a row to open its results or to watch, stop or resume it; select two rows "
            "to compare them."
        )
        return
    if len(picked) == 2:
        _compare_link([shown[i] for i in picked])
        return
    if len(picked) > 2:
        st.caption("Select two rows to compare them, or one to open it.")
        return
    run = shown[picked[0]]
    state.set_run_id(run.id)
    cols = st.columns(2)
    cols[0].page_link(
        "views/results/results.py",
        label="Open its results",
        icon=":material/leaderboard:",
        query_params={"run": run.id},
    )
    if not _may_run():  # a viewer reads runs; the Run page refuses them anyway
        return
    cols[1].page_link(
        "views/run/run.py",
        label="Watch, stop or resume it",
        icon=":material/play_circle:",
        query_params={"run": run.id},
    )


def _may_run() -> bool:
    """Whether this viewer may start, stop or resume runs (the Run page is theirs)."""
    return "run" in access.allowed_pages(VIEWER)


def _compare_link(picked: list[RunRecord]) -> None:
    """A link to the comparison of two runs: the older one is the baseline."""
    base, cand = sorted(picked, key=lambda r: r.created_at)
    st.page_link(
        "views/compare/compare.py",
        label="Compare these two runs (the older one as the baseline)",
        icon=":material/compare_arrows:",
        query_params={"base": base.id, "cand": cand.id},
    )


main()
