"""The quick try of Build by conversation: run the draft on one or two models, cheaply.

The run is a normal stored run (it shows in History), started as the Run page starts runs
(here in personal mode, queued in team mode), with a small budget and few prompts. When it
has ended, our own code (`engine.drafting.quick_try`) says its results in plain words, as a
message of the conversation; the assistant reads it on the next turn.
"""

from __future__ import annotations

import re
import time

import streamlit as st

from engine.blueprint import Blueprint
from engine.drafting.quick_try import (
    MAX_COST_USD,
    MAX_MODELS,
    MAX_PROMPTS,
    SUMMARY_PREFIX,
    quick_try_summary,
)
from engine.errors import EngineError
from engine.run.assemble import stored_comparison
from studio import services, state
from studio.core import runs, share
from studio.core.textsafe import safe_markdown

__all__ = [
    "MODELS_KEY",
    "PENDING_KEY",
    "QUICK_ERROR_KEY",
    "pick_up",
    "quick_try_controls",
    "results_of",
]

MODELS_KEY = "quick_try_models"
PENDING_KEY = "quick_try_run"
QUICK_ERROR_KEY = "quick_try_error"
FALLBACK_MODEL = "openrouter:google/gemini-2.5-flash"
_LINK = re.compile(r"\nFull results: (/results\?run=[A-Za-z0-9_-]{8,64})\Z")
WAIT_SECONDS = 180.0
"""How long the button waits for a run in this process before the next rerun picks it up."""


def default_models(text: str) -> str:
    """The first one or two of the blueprint's models (comma separated), else the fallback."""
    bp = services.parse(text)
    mine = [m for m in bp.models if isinstance(m, str)] if isinstance(bp, Blueprint) else []
    mine = [m.strip() for m in mine if ":" in m and m.strip()]
    return ", ".join(mine[:MAX_MODELS]) or FALLBACK_MODEL


def _refusal(text: str) -> str | None:
    bp = services.parse(text)
    if not isinstance(bp, Blueprint):
        return f"The draft cannot be read, so nothing was run: {bp}"
    errors = [d for d in services.lint_text(text) if d.severity == "error"]
    if errors:
        first = errors[0]
        return (
            f"The draft has {len(errors)} lint error{'s' if len(errors) != 1 else ''} (line "
            f"{first.line}: {first.message}), so nothing was run. Fix them first."
        )
    if not bp.prompts:
        return "The draft has no prompts yet, so nothing was run."
    if len(bp.prompts) > MAX_PROMPTS:
        return (
            f"A quick try runs at most {MAX_PROMPTS} prompts and this draft has "
            f"{len(bp.prompts)}, so nothing was run: use the Run page for the whole draft."
        )
    return None


def _start(draft_id: str) -> None:
    st.session_state.pop(QUICK_ERROR_KEY, None)
    text = state.get_text() or ""
    refusal = _refusal(text)
    raw = str(st.session_state.get(MODELS_KEY) or "")
    models = tuple(dict.fromkeys(m.strip() for m in raw.split(",") if m.strip()))
    if refusal is None and not models:
        refusal = "Name one or two models to try, separated by a comma."
    if refusal is None and len(models) > MAX_MODELS:
        refusal = f"A quick try runs at most {MAX_MODELS} models."
    if refusal is not None:
        st.session_state[QUICK_ERROR_KEY] = refusal
        return
    store = services.store()
    choice = runs.RunChoice(models=models, max_cost_usd=MAX_COST_USD)
    try:
        prepared = runs.start(store, text, state.source(), choice)
    except EngineError as exc:
        st.session_state[QUICK_ERROR_KEY] = f"The quick try could not start: {exc}"
        return
    if prepared.run_id is None or prepared.problems:
        said = "; ".join(prepared.problems) or "it was not recorded"
        st.session_state[QUICK_ERROR_KEY] = f"The quick try did not run: {said}"
        return
    st.session_state[PENDING_KEY] = (draft_id, prepared.run_id)
    if runs.queue_url() is not None:
        return  # team mode: a worker runs it; a later rerun picks the result up
    deadline = time.monotonic() + WAIT_SECONDS
    with st.spinner("Quick try running…"):
        while time.monotonic() < deadline:
            run = store.get_run(prepared.run_id)
            if run is None or run.live_status not in runs.ACTIVE:
                return
            time.sleep(0.5)


def _summary(run_id: str) -> str:
    store = services.store()
    run = store.get_run(run_id)
    link = share.results_path(run_id)
    if run is None:
        return f"Quick try results: the run {run_id} is no longer in the store."
    if run.live_status != "completed":
        word = runs.status_word(run.live_status)
        why = f": {run.error}" if run.error else ""
        return f"Quick try results: the run {word}{why}.\nFull results: {link}"[:2000]
    blueprint = services.blueprint_of_run(run)
    if blueprint is None:
        return f"Quick try results: the run's blueprint cannot be read.\nFull results: {link}"
    return quick_try_summary(stored_comparison(store, run_id, blueprint), link)


def pick_up(draft_id: str, author: str | None) -> str | None:
    """Add the quick try's summary to the conversation once its run has ended.

    Returns:
        The id of the run still going, or None.
    """
    pending = st.session_state.get(PENDING_KEY)
    if not isinstance(pending, tuple) or pending[0] != draft_id:
        return None
    run_id = str(pending[1])
    run = services.store().get_run(run_id)
    if run is not None and run.live_status in runs.ACTIVE:
        return run_id
    st.session_state.pop(PENDING_KEY, None)
    services.store().add_draft_message(draft_id, "assistant", _summary(run_id), author=author)
    return None


def quick_try_controls(draft_id: str, text: str, running: str | None) -> None:
    """The quick try's models field and button, or the run going on (`running`)."""
    st.text_input(
        "Quick try models",
        value=default_models(text),
        key=MODELS_KEY,
        help=f"One or two model ids, comma separated. At most {MAX_PROMPTS} prompts and "
        f"${MAX_COST_USD:.2f}.",
    )
    if running is not None:
        st.caption(f"A quick try is running (run {running[:8]}…).")
        st.button("Check the quick try", key="quick-try-check")
    else:
        st.button("Quick try", key="quick-try", on_click=_start, args=(draft_id,))
    error = st.session_state.get(QUICK_ERROR_KEY)
    if isinstance(error, str):
        st.error(safe_markdown(error), icon=":material/block:")


def results_of(message: str) -> str | None:
    """The results path a quick try's summary ends with (our own line), or None."""
    found = _LINK.search(message) if message.startswith(SUMMARY_PREFIX) else None
    return found.group(1) if found else None
