"""Compare: two runs side by side (`/compare?base=<id>&cand=<id>`), and a blueprint's trend."""

from __future__ import annotations

import streamlit as st

from engine.errors import InputError
from studio import access, services
from studio.core import share
from studio.core.textsafe import safe_markdown
from studio.views.compare import compare_view as view
from studio.views.compare.compare_data import group_of
from studio.widgets.common import notice

access.guard("compare")  # before anything is drawn or read


def main() -> None:
    """Render the Compare page."""
    st.title("Compare runs")
    notice()
    all_runs = services.store().list_runs(limit=500)
    if len(all_runs) < 2:
        st.info(
            "Comparing needs two runs. Run a blueprint, edit it, run it again, then pick both "
            "runs in History."
        )
        st.page_link("views/history/history.py", label="Past runs", icon=":material/history:")
        view.trend(all_runs, None)
        return
    base_id = st.query_params.get("base") or ""
    cand_id = st.query_params.get("cand") or ""
    base = services.store().get_run(base_id) if share.is_run_id(base_id) else None
    cand = services.store().get_run(cand_id) if share.is_run_id(cand_id) else None
    # the pickers hold up to 500 runs each: built only while their expander is open
    with st.expander(
        "Pick two runs", expanded=base is None or cand is None, key="cmp_pick", on_change="rerun"
    ) as box:
        if box.open is not False:
            view.picker(all_runs, base_id, cand_id)
    if base is None or cand is None:
        if base_id or cand_id:
            st.error(
                "One of the runs of this link is not in this studio. Pick two runs above or "
                "in History."
            )
        view.trend(all_runs, None)
        return
    try:
        loaded = view.load_diff(base, cand)
    except InputError as exc:
        view.load_error(exc)
        return
    st.markdown(
        f"**Baseline:** {safe_markdown(view.run_name(base))}  \n"
        f"**Candidate:** {safe_markdown(view.run_name(cand))}"
    )
    view.model_deltas(loaded)
    kept = view.delta_grid(loaded)
    view.point_changes(loaded)
    view.answers(loaded, kept)
    view.trend(all_runs, group_of(cand))


main()
