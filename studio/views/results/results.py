"""Results: the scores of a run (shared as `/results?run=<id>`) or of a comparison file."""

from __future__ import annotations

import streamlit as st

from engine.edit.keypoints import add_should_points
from engine.edit.nodes import EditError
from engine.errors import InputError
from engine.report.costs import run_cost_text
from engine.report.views.overview import date_words
from engine.store import RunRecord
from studio import access, services, state
from studio.core import drafts, runs, share
from studio.core.resultdata import Results
from studio.core.textsafe import safe_markdown
from studio.views.results.keypoints_view import AddPoints
from studio.views.results.preferences_view import preferences_section
from studio.views.results.rescore_panel import rescore_panel, rescored_from_note
from studio.views.results.results_view import init_view, render_results
from studio.views.share.share_panel import share_panel
from studio.widgets.common import no_such_run, notice, slug, status_badge
from studio.widgets.review_panel import can_review

VIEWER = access.guard("results")  # before anything is drawn or read

SOURCE_KEY = "res_source"
UPLOAD_KEY = "res_upload"
UPLOADER_VERSION = "res_uploader_version"
UPLOAD_BOX_KEY = "res_upload_box"


def _upload_key() -> str:
    return f"{UPLOAD_KEY}-{int(st.session_state.get(UPLOADER_VERSION, 0))}"


def _share_link(run_id: str) -> str:
    return share.results_link(access.base_url(), run_id)


def _open_upload() -> None:
    uploaded = st.session_state.get(_upload_key())
    if uploaded is None:
        return
    try:
        results = services.read_uploaded(uploaded.getvalue(), uploaded.name)
    except InputError as exc:
        state.set_notice("error", str(exc))
        return
    st.session_state[state.UPLOADED] = (uploaded.name, results)
    st.session_state.pop(SOURCE_KEY, None)
    st.query_params.clear()
    state.set_notice("success", f"Opened {uploaded.name}. Files you open are only visible to you.")


def _close_upload() -> None:
    st.session_state.pop(state.UPLOADED, None)
    st.session_state.pop(SOURCE_KEY, None)
    st.session_state[UPLOADER_VERSION] = int(st.session_state.get(UPLOADER_VERSION, 0)) + 1


def _uploader(expanded: bool) -> None:
    # the file box is built once the expander is open: below a run's results it is closed,
    # and a new tab draws the page without it
    with st.expander(
        "Open a comparison file (from Blueprint Studio or Weval)",
        expanded=expanded,
        key=f"{UPLOAD_BOX_KEY}-{int(expanded)}",
        on_change="rerun",
    ) as box:
        if box.open is not False:
            st.file_uploader(
                "Comparison JSON",
                type=["json"],
                key=_upload_key(),
                on_change=_open_upload,
                max_upload_size=drafts.COMPARISON_UPLOAD_MB,
                help="A `*_comparison.json` file written by `blueprint run`, `blueprint score`, "
                "this studio, or Weval.",
            )


def _empty() -> None:
    st.info(
        "No results to show yet. Start a run on the Run page, pick a past run on the History "
        "page, or open a comparison file below."
    )
    cols = st.columns(2)
    if _may_run():
        cols[0].page_link("views/run/run.py", label="Start a run", icon=":material/play_circle:")
    cols[1].page_link("views/history/history.py", label="Past runs", icon=":material/history:")
    done = [r for r in services.store().list_runs(limit=20) if r.live_status == "completed"][:5]
    if done:
        st.markdown("**Latest completed runs**")
        for run in done:
            st.page_link(
                "views/results/results.py",
                label=safe_markdown(runs.run_label(run)),
                query_params={"run": run.id},
            )
    _uploader(expanded=True)


def _may_run() -> bool:
    """Whether this viewer may start, resume or re-score runs (viewers only read them)."""
    return "run" in access.allowed_pages(VIEWER)


def _run_header(run: RunRecord, results: Results | None) -> None:
    status = run.live_status
    cols = st.columns([4, 1], vertical_alignment="center")
    with cols[0]:
        st.subheader(safe_markdown(run.title or "Untitled blueprint"))
    with cols[1]:
        status_badge(status, runs.status_word(status))
    models = safe_markdown(", ".join(str(m) for m in run.options.get("models") or []))
    when = date_words(run.created_at) or run.created_at[:16].replace("T", " ") + " UTC"
    st.caption(
        f"Run of {when} · models: {models} · "
        f"{run.done_cells} of {run.total_cells} answers scored · "
        + (
            safe_markdown(results.cost.breakdown())  # the leaderboard's, report's, JSON's figures
            if results is not None and results.cost is not None
            else run_cost_text(run.cost_usd, run.options)
        )
    )
    if "editor" in access.allowed_pages(VIEWER) and st.button(
        "Open this version in the editor",
        icon=":material/edit_note:",
        help="Opens the exact blueprint text this run used, as a version of the draft it "
        "came from (or as a new draft).",
    ):
        _open_in_editor(run)
    rescored_from_note(run)
    _pasted_note(run, results)
    if status in runs.ACTIVE:

        @st.fragment(run_every=1.0)
        def waiting() -> None:
            current = services.store().get_run(run.id)
            if current is None:
                return
            st.progress(
                min(current.done_cells / max(current.total_cells, 1), 1.0),
                text=f"Running: {current.done_cells} of {current.total_cells} answers scored. "
                "This page shows the results so far and updates when the run ends.",
            )
            if current.live_status != status:  # queued → running, or the run's end
                st.rerun(scope="app")

        waiting()
    elif status != "completed" and not _may_run():
        st.warning(
            f"This run is {runs.status_word(status)}: the results below are incomplete. "
            "An editor can resume it."
        )
    elif status != "completed":
        st.warning(
            f"This run is {runs.status_word(status)}: the results below are incomplete. "
            "Resume it on the Run page."
        )
        st.page_link(
            "views/run/run.py",
            label="Open it on the Run page",
            icon=":material/play_circle:",
            query_params={"run": run.id},
        )
    if _may_run():  # a re-score is a run: editors and admins only
        rescore_panel(run)
    share_panel(run.id)


def _pasted_note(run: RunRecord, results: Results | None) -> None:
    """Say that a run scores a chat app's pasted answers, and which prompts it left."""
    pasted = run.options.get("pasted")
    if not isinstance(pasted, dict) or results is None:
        return
    model = str(pasted.get("model") or "")
    given = pasted.get("answers")
    answered = given if isinstance(given, dict) else {}
    left = [pid for pid in results.prompt_ids if pid not in answered]
    st.caption(
        safe_markdown(
            f"The answers of {model} were pasted by a person and scored as given."
            + (
                f" Not answered: {', '.join(left)} (no score, not counted as failures)."
                if left
                else ""
            )
        )
    )


def _open_in_editor(run: RunRecord) -> None:
    """Open the exact text a run used in the editor, as a version of its draft."""
    store = services.store()
    text = store.blueprint_text(run.blueprint_hash)
    if text is None:
        st.error("The blueprint text of this run is missing from the store.")
        return
    draft, number = drafts.draft_for_run(
        store, run, text, new_id=state.new_draft_id(), owner=access.draft_owner(VIEWER)
    )
    source = run.options.get("source")
    st.session_state[state.DRAFT_ID] = draft
    state.set_text(text, source_name=source if isinstance(source, str) else None, keep_source=False)
    state.set_notice("success", f"Opened the text this run used: version {number} of its draft.")
    st.switch_page("views/editor/editor.py")


def _text_to_edit(run: RunRecord | None, pid: str) -> tuple[str, str, str] | None:
    """(draft id, its text, what it is): the open draft if it has the prompt, else the run's."""
    opened, text = state.draft_id(), state.get_text()
    if opened is not None and text is not None and pid in services.prompt_ids(text):
        return opened, text, "the open draft"
    if run is None:
        return None
    store = services.store()
    used = store.blueprint_text(run.blueprint_hash)
    if used is None:
        return None
    draft, _ = drafts.draft_for_run(
        store, run, used, new_id=state.new_draft_id(), owner=access.draft_owner(VIEWER)
    )
    return draft, used, "the text this run used"


def _add_points(run: RunRecord | None, pid: str, points: list[str]) -> None:
    """Write `points` as `should` points of `pid` in a new draft version; open the editor."""
    found = _text_to_edit(run, pid)
    if found is None:
        st.error(
            f"Open the blueprint that has the prompt '{pid}' in the editor first: the points "
            "are added to the draft open there."
        )
        return
    draft, text, what = found
    try:
        new = add_should_points(text, pid, points)
    except EditError as exc:
        st.error(str(exc))
        return
    number = services.store().save_draft(
        draft,
        new,
        run.title if run is not None else None,
        explicit=True,
        note=f"Points found in the ideal answer of '{pid}' added as should points",
        author=VIEWER.email,
    )
    source = run.options.get("source") if run is not None else state.source()
    st.session_state[state.DRAFT_ID] = draft
    state.set_text(new, source_name=source if isinstance(source, str) else None)
    state.set_notice(
        "success",
        f"Added {len(points)} points to the prompt '{pid}' of {what} (version {number} of "
        "its draft). Change them as you like: they are yours now.",
    )
    st.switch_page("views/editor/editor.py")


def _points_adder(run: RunRecord | None) -> AddPoints | None:
    if "editor" not in access.allowed_pages(VIEWER):
        return None
    return lambda pid, points: _add_points(run, pid, points)


def _show_run(run_id: str, view: share.ResultsView) -> None:
    loaded = services.run_view(run_id)
    if loaded is None:
        no_such_run()
        return
    state.set_run_id(run_id)
    results = loaded.results
    _run_header(loaded.run, results)
    if results is None:
        st.info("No answer has been scored yet. Results appear here as the run goes on.")
        return
    _render(
        results,
        f"run:{run_id}",
        view,
        run_id=run_id,
        link=_share_link(run_id),
        add_points=_points_adder(loaded.run),
    )
    if loaded.run.live_status == "completed":
        preferences_section(results, run_id, may_pick="preferences" in access.allowed_pages(VIEWER))


def _render(
    results: Results,
    source: str,
    view: share.ResultsView,
    *,
    run_id: str | None,
    link: str | None,
    add_points: AddPoints | None = None,
) -> None:
    if st.session_state.get(SOURCE_KEY) != source:
        init_view(results, view.page, view.prompt, view.model)
        st.session_state[SOURCE_KEY] = source
    page, prompt, model = render_results(
        results,
        run_id=run_id,
        name=slug(results.title, "results"),
        link=link,
        reviewer=can_review(VIEWER),
        add_points=add_points,
    )
    if run_id is not None:
        wanted = share.ResultsView(run=run_id, page=page, prompt=prompt, model=model)
        params = wanted.to_query_params()
        if st.query_params.to_dict() != params:
            st.query_params.from_dict(params)


def main() -> None:
    """Render the Results page."""
    st.title("Results")
    notice()
    view = share.ResultsView.from_query_params(st.query_params.to_dict())
    if "run" in st.query_params and view.run is None:
        st.error("This link does not name a run. Check it, or pick a run on the History page.")
        return
    uploaded = st.session_state.get(state.UPLOADED)
    if view.run is not None:
        _show_run(view.run, view)
        _uploader(expanded=False)
    elif uploaded is not None:
        name, results = uploaded
        cols = st.columns([4, 1], vertical_alignment="center")
        cols[0].subheader(safe_markdown(results.title))
        cols[1].button("Close file", on_click=_close_upload, icon=":material/close:")
        st.caption(
            f"From the file {safe_markdown(name)}. Only you can see it; download the report "
            "to share it."
        )
        _render(
            results, f"file:{name}", view, run_id=None, link=None, add_points=_points_adder(None)
        )
        _uploader(expanded=False)
    elif state.run_id() is not None and share.is_run_id(state.run_id()):
        run_id = str(state.run_id())
        st.query_params["run"] = run_id
        _show_run(run_id, share.ResultsView(run=run_id))
        _uploader(expanded=False)
    else:
        _empty()


main()
