"""Run: choose models and judges, see the plan and its cost, start, watch, stop and resume."""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from engine.blueprint import Blueprint
from engine.comparison.build import run_cost
from engine.errors import BlueprintError
from engine.judge.keypoints import key_point_prompts
from engine.modelids import is_collection
from engine.report.costs import PRICE_HOWTO, cost_range_text
from engine.run import judges_for
from engine.run.plan import EXTRACTED_POINTS_GUESS
from engine.run.service import PreparedRun
from engine.store import RunRecord
from engine.summary.prompts import DEFAULT_SUMMARY_MODEL
from studio import access, services, state
from studio.core import markers, runs, share
from studio.core.textsafe import safe_markdown
from studio.views.run import live_run, model_picker, prefs, run_memory
from studio.views.run.pasted_panel import pasted_answers
from studio.widgets.common import no_such_run, notice, status_badge

VIEWER = access.guard("run")  # before anything is drawn or read

MODELS = "run_models"
JUDGING = "run_judging"
JUDGES = "run_judges"
USE_CACHE = "run_use_cache"
BUDGET = "run_budget"
SUMMARY = "run_summary"
SUMMARY_MODEL = "run_summary_model"
STARTING_GRACE_S = 30.0

JUDGING_WORDS = {
    "default": "Default judges",
    "custom": "Choose judge models",
    "none": "No judging",
}


# --- watching a run ---------------------------------------------------------------------


def _age_s(stamp: str | None) -> float:
    if not stamp:
        return 0.0
    try:
        return (datetime.now(UTC) - datetime.fromisoformat(stamp)).total_seconds()
    except ValueError:
        return 0.0


def _active(run: RunRecord) -> bool:
    status = run.live_status
    return status == "running" or (
        status == "planned" and _age_s(run.created_at) < STARTING_GRACE_S
    )


def _progress(run: RunRecord) -> None:
    total = max(run.total_cells, 1)
    st.progress(
        min(run.done_cells / total, 1.0),
        text=f"{run.done_cells} of {run.total_cells} answers scored",
    )
    progress = runs.model_progress(services.store(), run)
    failed = sum(p.failed for p in progress)
    calls = (
        f"{failed} answer{'' if failed == 1 else 's'} failed · "
        f"{run.done_calls} of {run.total_calls} calls made "
        f"({run.cached_calls} from the cache; {run.failed_calls} call"
        f"{'' if run.failed_calls == 1 else 's'} failed, including judge calls) · "
        f"{safe_markdown(run_cost(services.store(), run.id).breakdown())} · "
        f"{run.input_tokens:,} tokens in, "
        f"{run.output_tokens:,} out"
    )
    st.caption(calls)
    rows = [
        {
            "Model": p.model,
            "Progress": p.fraction,
            "Answers": f"{p.done} of {p.total}",
            "Answers failed": p.failed,
        }
        for p in progress
    ]
    if rows:
        st.dataframe(
            rows,
            hide_index=True,
            width="stretch",
            column_config={
                "Progress": st.column_config.ProgressColumn(
                    "Progress", min_value=0.0, max_value=1.0, format="percent"
                )
            },
        )


def _stop(run_id: str) -> None:
    if runs.stop(services.store(), run_id):
        state.set_notice(
            "info", "Stopping after the calls in flight. You can resume the run later."
        )
    else:
        state.set_notice(
            "warning",
            "This run is not running in this studio process (it may have been started from "
            "the command line: stop it there with Ctrl-C).",
        )


def _resume(run_id: str) -> None:
    problems = runs.resume(services.store(), run_id)
    if problems:
        state.set_notice("error", "The run cannot resume: " + " ".join(problems))
    else:
        state.set_notice("success", "Resumed: the calls already made are not repeated.")


def _monitor(run_id: str) -> None:
    run = services.store().get_run(run_id)
    if run is None:
        no_such_run()
        return
    status = run.live_status
    head = st.columns([4, 1], vertical_alignment="center")
    with head[0]:
        st.subheader(f"Run: {safe_markdown(run.title or 'Untitled blueprint')}")
    with head[1]:
        status_badge(status, runs.status_word(status))
    active = _active(run)

    @st.fragment(run_every=1.0 if active else None)
    def live() -> None:
        current = services.store().get_run(run_id)
        if current is None:
            return
        _progress(current)
        # a new status (queued → running → completed) redraws the badge and the buttons
        if current.live_status != status or (active and not _active(current)):
            st.rerun(scope="app")

    live()
    cols = st.columns(3)
    with cols[0]:
        if active:
            st.button(
                "Stop",
                icon=":material/stop_circle:",
                on_click=_stop,
                args=(run_id,),
                help="Stop after the calls in flight; finished answers are kept.",
            )
        elif run.resumable or (status == "planned" and not active):
            st.button(
                "Resume",
                type="primary",
                icon=":material/play_arrow:",
                on_click=_resume,
                args=(run_id,),
                help="Finish the run without repeating the calls already made.",
            )
    with cols[1]:
        st.page_link(
            "views/results/results.py",
            label="See the results" if status == "completed" else "See the results so far",
            icon=":material/leaderboard:",
            query_params={"run": run_id},
        )
    if run.error and status in ("failed", "stopped"):
        st.warning(safe_markdown(run.error))
    if status == "interrupted":
        st.info(
            "This run stopped unexpectedly (the studio or the computer was restarted). "
            "Resume it to finish: the answers already saved are kept."
        )
    st.caption(
        "You can close this tab: the run goes on and saves every answer. Link to its results:"
    )
    # the full address (the public URL in team mode), in a code box: never Markdown
    st.code(share.results_link(access.base_url(), run_id), language=None, wrap_lines=True)


# --- setting up a run -------------------------------------------------------------------


def _model_options(bp: Blueprint) -> tuple[list[str], list[str]]:
    """(options, default selection): the blueprint's models, `ideal`, and models used before.

    Custom model objects are offered by their `id`, collection names by their models.
    """
    known = services.collections()
    mine: list[str] = []
    for entry in bp.models:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            mine.append(entry["id"])
        elif isinstance(entry, str):
            mine += list(known.get(entry.strip(), ())) if is_collection(entry) else [entry]
    options = list(mine)
    if any(p.ideal for p in bp.prompts):
        options.append("ideal")
    for run in services.store().list_runs(limit=50):
        options += [str(m) for m in run.options.get("models") or []]
    return list(dict.fromkeys(options)), mine


def _choice(bp: Blueprint) -> runs.RunChoice | None:
    options, default = _model_options(bp)
    memory_key = prefs.blueprint_key(bp.title, state.source(), state.draft_id())
    kept = run_memory.recall(
        memory_key, default, models_key=MODELS, judging_key=JUDGING, judges_key=JUDGES
    )
    chosen = [str(m) for m in st.session_state.get(MODELS) or []]
    options = list(dict.fromkeys([*options, *kept.models, *chosen]))
    models = st.multiselect(
        "Models to run",
        options,
        key=MODELS,
        accept_new_options=True,
        placeholder="Type a model id, e.g. openai:gpt-4.1-mini, and press Enter",
        help=(
            "Model ids are provider:model, e.g. openai:gpt-4.1-mini, "
            "anthropic:claude-haiku-4.5, openrouter:google/gemini-2.5-flash, "
            "ollama:llama3.2. `ideal` answers with each prompt's ideal answer (free)."
        ),
    )
    model_picker.collection_picker(MODELS)
    text_points = sum(1 for p in bp.prompts for pt in p.points if pt.fn is None)
    from_ideal = len(key_point_prompts(bp))
    judging = "none"
    judges: tuple[str, ...] | None = None
    picked = list(kept.judges)
    if text_points or from_ideal:
        defaults, custom = judges_for(bp, None)
        why = f"{text_points} point(s) are written in words; LLM judges score them."
        if from_ideal:
            why += (
                f" {from_ideal} prompt(s) have only an ideal answer: an LLM lists its key "
                "points (one call per prompt) and the judges score them; without judging "
                "these prompts get no score."
            )
        judging = (
            st.radio(
                "Judging of the points written in words",
                list(JUDGING_WORDS),
                format_func=lambda k: JUDGING_WORDS[k],
                key=JUDGING,
                horizontal=True,
                help=why,
            )
            or "default"
        )
        if judging == "default":
            where = "set in the blueprint" if custom else "Weval's defaults, through OpenRouter"
            st.caption(f"Judges ({where}): " + safe_markdown(", ".join(j.model for j in defaults)))
        elif judging == "custom":
            picked = st.multiselect(
                "Judge models",
                list(dict.fromkeys([*models, *(j.model for j in defaults), *kept.judges])),
                key=JUDGES,
                accept_new_options=True,
                placeholder="Type a judge model id and press Enter",
            )
            judges = tuple(str(j) for j in picked) or None
        else:
            st.caption(
                "Points written in words will show as “needs a judge” and are left out of "
                "the scores."
            )
    else:
        st.caption("Every point is checked by a function: no judge is needed.")
    run_memory.remember(
        memory_key,
        kept,
        prefs.RunPrefs(
            models=tuple(str(m) for m in models),
            judging=str(st.session_state.get(JUDGING) or kept.judging),
            judges=tuple(str(j) for j in picked),
        ),
    )
    if judging == "custom" and judges is None:
        st.warning("Pick at least one judge model, or choose another judging option.")
        return None
    with st.expander("More options"):
        use_cache = st.checkbox(
            "Reuse answers already saved (no new calls for them)",
            value=True,
            key=USE_CACHE,
        )
        budget = st.number_input(
            "Stop if the cost reaches (US dollars; 0 = no limit)",
            min_value=0.0,
            value=0.0,
            step=0.5,
            key=BUDGET,
        )
        summary = st.checkbox(
            "Write an executive summary at the end (one more model call)",
            value=False,
            key=SUMMARY,
            help="A model reads the results with the models' names hidden and writes key "
            "findings and grades; it is shown first on the results page, marked as a model's "
            "writing.",
        )
        summary_model = (
            st.text_input("Summary model", value=DEFAULT_SUMMARY_MODEL, key=SUMMARY_MODEL)
            if summary
            else ""
        )
    if not models:
        st.info("Pick at least one model to run.")
        return None
    return runs.RunChoice(
        models=tuple(str(m) for m in models),
        judges=judges,
        judge=judging != "none",
        use_cache=bool(use_cache),
        max_cost_usd=float(budget) if budget else None,
        summary_model=summary_model.strip() or None if summary else None,
    )


def _plan_view(prepared: PreparedRun) -> None:
    est = prepared.estimate
    plan = prepared.plan
    st.markdown("#### The plan")
    cols = st.columns(4)
    cols[0].metric(
        "Answers to score",
        len(plan.cells),
        help="Prompts × models (× temperatures × system prompts).",
    )
    cols[1].metric(
        "Model calls",
        est.generation_calls,
        help=f"{est.generation_cached} of them already saved, so not made again.",
    )
    guess = (
        f" An estimate: {est.guessed_prompts} prompt(s) are counted with "
        f"{EXTRACTED_POINTS_GUESS} points each until an LLM lists the key points of their "
        f"ideal answers ({est.extraction_calls} call(s), counted in the total below)."
        if est.guessed_prompts
        else ""
    )
    cols[2].metric(
        "Judge calls",
        f"~{est.judge_calls}" if est.guessed_prompts else est.judge_calls,
        help=f"{est.judge_cached} of them already saved, so not made again.{guess}",
    )
    cols[3].metric(
        "Cost estimate",
        cost_range_text(est.cost_low, est.cost_high, bool(est.unknown_prices)),
        help=f"Between ${est.cost_low:.4f} and ${est.cost_high:.4f}, depending on how long "
        "the answers are.",
    )
    details = (
        f"{est.calls_to_make} calls to make "
        f"({est.generation_cached + est.judge_cached + est.extraction_cached} already "
        f"saved) · about {est.input_tokens:,} tokens in, {est.output_tokens_low:,}–"
        f"{est.output_tokens_high:,} out"
    )
    st.caption(details)
    if plan.embedding_model is not None:
        st.caption(
            f"Plus at most {est.embedding_calls} embedding calls with "
            f"{safe_markdown(plan.embedding_model)} (the blueprint's embeddingModel): the answers "
            "and ideal answers, to show how similar they are. They change no score."
        )
    if prepared.options.summary_model:
        st.caption(
            "Then 1 call to "
            + safe_markdown(prepared.options.summary_model)
            + " writes the executive summary (not in the estimate)."
        )
    if est.unknown_prices:
        st.caption(
            "No price is known for "
            + safe_markdown(", ".join(sorted(est.unknown_prices)))
            + ": their cost is not in the estimate. To include it, "
            + safe_markdown(PRICE_HOWTO)
            + "."
        )
    for warning in plan.warnings:
        st.warning(safe_markdown(warning))
    if prepared.problems:
        st.error("The run cannot start yet:")
        for problem in prepared.problems:
            st.markdown("- " + safe_markdown(problem))
        if any("_API_KEY" in p for p in prepared.problems):
            st.info(
                "API keys are never typed into the studio. Put the key in "
                "`.streamlit/secrets.toml` in the folder where you started the studio "
                '(for example `OPENAI_API_KEY = "sk-..."`): it is read at once. Or set it '
                "in the environment and restart `blueprint studio`."
            )


def _kept_version(text: str) -> tuple[str, int] | None:
    """Keep the text as a version of the session's draft; return (draft id, number)."""
    did = state.draft_id()
    if did is None:
        return None
    parsed = services.parse(text, state.source())
    number = services.store().save_draft(
        did,
        text,
        parsed.title if isinstance(parsed, Blueprint) else None,
        explicit=True,
        note="Kept when a run was started",
        author=VIEWER.email,
    )
    return did, number


def _start(text: str, source: str | None, choice: runs.RunChoice) -> None:
    try:
        prepared = runs.start(services.store(), text, source, choice, draft=_kept_version(text))
    except BlueprintError as exc:
        state.set_notice("error", str(exc))
        return
    if prepared.run_id is None:
        state.set_notice("error", "The run could not start: " + " ".join(prepared.problems))
        return
    state.set_run_id(prepared.run_id)
    st.query_params["run"] = prepared.run_id
    state.set_notice("success", "The run has started. It goes on even if you close this tab.")


def _setup() -> None:
    text = state.get_text()
    if text is None:
        st.info("Open a blueprint in the Editor first: pick an example or write your own.")
        st.page_link("views/editor/editor.py", label="Open the Editor", icon=":material/edit_note:")
        return
    source = state.source()
    parsed = services.parse(text, source)
    if isinstance(parsed, BlueprintError):
        st.error("The blueprint cannot be read: " + safe_markdown(parsed.message))
        st.page_link(
            "views/editor/editor.py", label="Fix it in the Editor", icon=":material/edit_note:"
        )
        return
    st.markdown(
        f"**{safe_markdown(parsed.title or 'Untitled blueprint')}** · "
        f"{len(parsed.prompts)} prompt{'s' if len(parsed.prompts) != 1 else ''}"
    )
    found = markers.counts(services.lint_text(text, source))
    if found["error"]:
        st.warning(
            f"The Editor lists {found['error']} error(s) in this blueprint: the run may score "
            "wrongly. Fix them first if you can."
        )
    choice = _choice(parsed)
    if choice is None:
        return
    try:
        prepared = runs.plan(services.store(), text, source, choice)
    except BlueprintError as exc:
        st.error(safe_markdown(str(exc)))
        return
    _plan_view(prepared)
    if st.button(
        "Start run",
        type="primary",
        icon=":material/play_arrow:",
        disabled=bool(prepared.problems) or not prepared.plan.cells,
    ):
        _start(text, source, choice)
        st.rerun()


def _last_run_link(run_id: str) -> None:
    run = services.store().get_run(run_id)
    if run is None:
        return
    st.caption(
        f"Your last run: {safe_markdown(run.title or 'Untitled blueprint')} "
        f"({runs.status_word(run.live_status)})."
    )
    st.page_link(
        "views/results/results.py",
        label="See its results",
        icon=":material/leaderboard:",
        query_params={"run": run_id},
    )


def _running_elsewhere() -> str | None:
    """The open blueprint's run in progress (or any, with none open), for a new tab."""
    text = state.get_text()
    parsed = services.parse(text, state.source()) if text is not None else None
    title = parsed.title if isinstance(parsed, Blueprint) else None
    recent = services.store().list_runs(limit=20)
    return live_run.newest_active(recent, _active, text=text, title=title)


def _chat_app_section() -> None:
    """Below the run setup: a chat app's pasted answers, scored as a run of their own."""
    text = state.get_text()
    if text is None:
        return
    parsed = services.parse(text, state.source())
    if not isinstance(parsed, Blueprint) or not parsed.prompts:
        return
    with st.expander("Test a chat app: paste its answers", icon=":material/content_paste:"):
        pasted_answers(text, state.source(), parsed)


def main() -> None:
    """Render the Run page.

    A run named in the link (`?run=<id>`), the session's run while it is still going, or (in
    a new tab) the open blueprint's run in progress is shown for watching, stopping and
    resuming; otherwise the page sets up a new run.
    """
    st.title("Run")
    notice()
    wanted = st.query_params.get("run")
    if wanted is not None and not share.is_run_id(wanted):
        st.error("This link does not name a run. Pick one on the History page.")
    run_id = str(wanted) if share.is_run_id(wanted) else None
    last = state.run_id()
    if run_id is None and last is not None:
        record = services.store().get_run(last)
        if record is not None and _active(record):
            run_id = last
    if run_id is None and wanted is None:
        run_id = _running_elsewhere()
    if run_id is not None:
        state.set_run_id(run_id)
        if st.query_params.get("run") != run_id:
            st.query_params["run"] = run_id
        _monitor(run_id)
        st.divider()
        with st.expander("Start a new run", icon=":material/add:"):
            _setup()
        _chat_app_section()
        return
    st.caption(
        "Choose the models, check the plan and its cost, then start. The run goes on in "
        "the background and saves every answer, so closing the tab loses nothing."
    )
    if last is not None and share.is_run_id(last):
        _last_run_link(last)
    _setup()
    st.divider()
    _chat_app_section()


main()
