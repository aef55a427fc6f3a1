"""Drafting help in the editor: a model drafts, the user reads the checked YAML, then decides.

Nothing a model writes reaches the blueprint until the user presses the accept button, and
nothing is ever run. Drafts are shown with `st.code` (plain text); refusals and fixes are
our own words.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.blueprint import Blueprint
from engine.drafting import DraftRefused, draft_from_goal, suggest_points
from engine.drafting.insert import insert_points
from engine.errors import EngineError
from studio import services, state
from studio.core.textsafe import safe_markdown
from studio.views.editor.draft_notes import fix_notes, refusal, reply_excerpt
from studio.views.editor.extend_panel import Keep, extend_section
from studio.views.editor.yaml_editor import cursor_line

__all__ = [
    "GOAL_KEY",
    "MODEL_KEY",
    "PROMPT_KEY",
    "RESULT_KEY",
    "drafting_panel",
    "prompt_at",
    "reply_excerpt",
]

MODEL_KEY = "draft_model"
GOAL_KEY = "draft_goal"
PROMPT_KEY = "draft_prompt"
RESULT_KEY = "draft_result"
DEFAULT_MODEL = "openrouter:google/gemini-2.5-flash"


def prompt_at(blueprint: Blueprint, line: int | None) -> int:
    """The index of the prompt written at `line` (the last one starting at or before it)."""
    if line is None:
        return 0
    index = 0
    for i, prompt in enumerate(blueprint.prompts):
        if prompt.span is not None and prompt.span.line <= line:
            index = i
    return index


def _prompt_text(blueprint: Blueprint, index: int) -> str:
    prompt = blueprint.prompts[index]
    return "\n".join(f"{m.role}: {m.content}" for m in prompt.messages if m.content)


def _model() -> str:
    return str(st.session_state.get(MODEL_KEY) or DEFAULT_MODEL).strip()


def _ask_goal() -> None:
    # read at the click, not from the run that drew the button (the fields may have changed)
    model, goal = _model(), str(st.session_state.get(GOAL_KEY) or "")
    try:
        draft = draft_from_goal(services.store(), model, goal)
    except DraftRefused as exc:
        st.session_state[RESULT_KEY] = {"error": str(exc), "reply": exc.reply}
        return
    st.session_state[RESULT_KEY] = {
        "kind": "goal",
        "text": draft.text,
        "fixed": draft.fixed,
        "suggested": draft.suggested,
    }


def _ask_points(blueprint: Blueprint) -> None:
    model, index = _model(), int(st.session_state.get(PROMPT_KEY) or 0)
    if index >= len(blueprint.prompts):
        return
    prompt = blueprint.prompts[index]
    existing = [p.text or f"${p.fn}" for p in prompt.points]
    try:
        draft = suggest_points(
            services.store(), model, _prompt_text(blueprint, index), [e for e in existing if e]
        )
    except DraftRefused as exc:
        st.session_state[RESULT_KEY] = {"error": str(exc), "reply": exc.reply}
        return
    st.session_state[RESULT_KEY] = {
        "kind": "points",
        "text": draft.text,
        "fixed": draft.fixed,
        "suggested": draft.suggested,
        "prompt": index,
        "prompt_id": prompt.id,
    }


def _accept(result: dict[str, Any]) -> None:
    if result.get("kind") == "goal":
        state.set_text(str(result["text"]))
        state.set_notice("success", "The draft is in the editor. Read it, then run it yourself.")
    else:
        try:
            new = insert_points(state.get_text() or "", int(result["prompt"]), str(result["text"]))
        except EngineError as exc:
            state.set_notice("error", "The points could not be added: " + str(exc))
            return
        state.set_text(new)
        state.set_notice("success", "The points were added to the prompt.")
    st.session_state.pop(RESULT_KEY, None)


def _discard() -> None:
    st.session_state.pop(RESULT_KEY, None)


def _result() -> None:
    result = st.session_state.get(RESULT_KEY)
    if not isinstance(result, dict):
        return
    if refusal(result):
        return
    where = (
        f"points for prompt {result.get('prompt_id')}" if result["kind"] == "points" else "draft"
    )
    st.caption(
        f"The model's {safe_markdown(where)}, checked and fixed by lint. Nothing is in your "
        "blueprint until you add it; nothing is run."
    )
    st.code(str(result["text"]), language="yaml")
    fix_notes(result)
    cols = st.columns(2)
    label = (
        "Replace the editor's text with this draft"
        if result["kind"] == "goal"
        else ("Add these points to the prompt")
    )
    cols[0].button(label, on_click=_accept, args=(result,), key="draft-accept", type="primary")
    cols[1].button("Discard", on_click=_discard, key="draft-discard")


def drafting_panel(blueprint: Blueprint | None, keep: Keep | None = None) -> None:
    """The "Drafting help" expander: draft from a goal, suggest points, or add prompts.

    Args:
        blueprint: The parsed blueprint, or None when the text cannot be read.
        keep: Saves accepted new prompts as a version of the draft; without it, the "Add
            prompts" part is not offered.
    """
    with st.expander("Drafting help: a model drafts, you decide"):
        st.text_input(
            "Model",
            value=DEFAULT_MODEL,
            key=MODEL_KEY,
            help="Any configured model id (provider:model). One call; answers are cached.",
        )
        st.text_area(
            "Draft a blueprint from a goal",
            key=GOAL_KEY,
            placeholder="In a few sentences: what should the models do well, and for whom?",
        )
        st.button("Draft a blueprint", on_click=_ask_goal, key="draft-goal")
        if blueprint is not None and blueprint.prompts:
            labels = [p.id for p in blueprint.prompts]
            st.selectbox(
                "Suggest points for the prompt",
                range(len(labels)),
                index=prompt_at(blueprint, cursor_line()),
                format_func=lambda i: labels[i],
                key=PROMPT_KEY,
            )
            st.button(
                "Suggest points",
                on_click=_ask_points,
                args=(blueprint,),
                key="draft-points",
            )
        _result()
        if keep is not None:
            st.divider()
            extend_section(_model, keep)
