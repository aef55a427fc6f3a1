"""Compare answers: pick the better of two models' answers to one prompt, names hidden."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

import streamlit as st

from engine.review.preferences import Shown, ShownPick, pair_tasks, served_order, shown_order
from engine.store import PreferenceRow
from studio import access, services
from studio.core import runs, share
from studio.core.textsafe import safe_markdown
from studio.state import set_notice
from studio.widgets.common import conversation, notice
from studio.widgets.review_panel import author_of

VIEWER = access.guard("preferences")  # before anything is drawn or read

# Bare strings in a page script are drawn (Streamlit's magic): these notes are comments.
# SEED_KEY: this session's secret seed, drawing which answer is A and the order of the pairs.
# SKIPPED_KEY: the tokens of the pairs skipped in this session.
SEED_KEY = "pref_seed"
SKIPPED_KEY = "pref_skipped"
RUN_KEY = "pref_run"

PICKS: tuple[tuple[str, ShownPick], ...] = (
    ("A is better", "A"),
    ("B is better", "B"),
    ("About the same", "same"),
)


def _seed() -> str:
    if not isinstance(st.session_state.get(SEED_KEY), str):
        st.session_state[SEED_KEY] = secrets.token_hex(16)
    return str(st.session_state[SEED_KEY])


def _skipped() -> set[str]:
    found = st.session_state.get(SKIPPED_KEY)
    if not isinstance(found, set):
        found = set()
        st.session_state[SKIPPED_KEY] = found
    return found


def _pick(shown: Shown, pick: ShownPick, reviewer: str) -> None:
    task = shown.task
    services.store().save_preference(
        PreferenceRow(
            run_id=task.run_id,
            prompt_id=task.prompt_id,
            model_a=task.model_a,
            model_b=task.model_b,
            reviewer=reviewer,
            choice=shown.canonical(pick),
            created_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
        )
    )
    words = {"A": "answer A is better", "B": "answer B is better", "same": "about the same"}
    set_notice("success", f"Saved your pick ({words[pick]}). Here is the next pair.")


def _skip(token: str) -> None:
    _skipped().add(token)
    set_notice("info", "Skipped. Here is the next pair.")


def main() -> None:
    """Render the Compare answers page."""
    st.title("Compare answers")
    notice()
    st.caption(
        "Two models' answers to one prompt of a finished run, in random order and without "
        "their names. Read both and pick the better one, or say they are about the same. "
        "The Results page shows what people preferred and how often the judges' scores agree."
    )
    done = [r for r in services.store().list_runs(limit=200) if r.live_status == "completed"]
    if not done:
        st.info("No finished run yet. Run a blueprint on two or more models first.")
        return
    labels = {r.id: runs.run_label(r) for r in done}
    wanted = st.query_params.get("run")
    if share.is_run_id(wanted) and wanted in labels and st.session_state.get(RUN_KEY) != wanted:
        st.session_state[RUN_KEY] = wanted
    if st.session_state.get(RUN_KEY) not in labels:
        st.session_state[RUN_KEY] = done[0].id
    run_id = str(st.selectbox("Run", list(labels), format_func=labels.__getitem__, key=RUN_KEY))
    if st.query_params.get("run") != run_id:
        st.query_params["run"] = run_id
    loaded = services.run_view(run_id)
    results = loaded.results if loaded is not None else None
    if results is None:
        st.error("The answers of this run cannot be read (its blueprint is missing).")
        return
    tasks = pair_tasks(results.comparison, run_id)
    if not tasks:
        st.info("No prompt of this run was answered by two models: there is nothing to compare.")
        return
    reviewer = author_of(VIEWER)
    mine = {
        (p.run_id, p.prompt_id, p.model_a, p.model_b)
        for p in services.store().preferences(run_id)
        if p.reviewer == reviewer
    }
    seed, skipped = _seed(), _skipped()
    todo = [t for t in served_order(tasks, seed) if t.key not in mine and t.token not in skipped]
    picked = sum(1 for t in tasks if t.key in mine)
    st.caption(f"You have compared {picked} of the {len(tasks)} pairs of this run.")
    st.page_link(
        "views/results/results.py",
        label="See what people preferred (Results)",
        icon=":material/leaderboard:",
        query_params={"run": run_id},
    )
    if not todo:
        if skipped:
            st.info("Only pairs you skipped are left.")
            st.button("Show the skipped pairs again", on_click=skipped.clear)
        else:
            st.success("You have compared every pair of this run. Thank you.")
        return
    shown = shown_order(todo[0], seed)
    pid = shown.task.prompt_id
    st.subheader(f"Prompt {safe_markdown(pid)}")
    with st.container(border=True):
        conversation(results.prompt_messages(pid))
    for col, (label, model) in zip(
        st.columns(2), (("A", shown.first), ("B", shown.second)), strict=True
    ):
        with col, st.container(border=True):
            st.markdown(f"**Answer {label}**")
            st.code(results.response(pid, model) or "", language=None, wrap_lines=True)
    cols = st.columns(4)
    token = shown.task.token  # widget keys name the pair without naming its models
    for col, (label, pick) in zip(cols, PICKS, strict=False):
        col.button(
            label,
            key=f"pref-{token}-{pick}",
            on_click=_pick,
            args=(shown, pick, reviewer),
            type="primary",
            width="stretch",
        )
    cols[3].button("Skip", key=f"pref-{token}-skip", on_click=_skip, args=(token,), width="stretch")


main()
