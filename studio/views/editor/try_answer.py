"""The editor's “Try a response” section: a pasted answer scored by the function points, offline."""

from __future__ import annotations

import streamlit as st

from engine.blueprint import Blueprint
from engine.conversation import response_evidence
from engine.errors import BlueprintError
from engine.js.values import format_score
from engine.scoring.offline import score_cell
from studio import services, state
from studio.core import figures
from studio.core.resultdata import group_label, path_names
from studio.core.textsafe import one_line

__all__ = ["TRY_ANSWER", "TRY_PROMPT", "try_response"]

TRY_ANSWER = "try_answer"
TRY_PROMPT = "try_prompt"


def _use_ideal(ideal: str) -> None:
    st.session_state[TRY_ANSWER] = ideal


def try_response(text: str) -> None:
    """The “Try a response” section: score a pasted answer with the function points, no call."""
    st.markdown("#### Try a response")
    st.caption(
        "Paste an answer a model might give and see every function point (`$…`) scored at "
        "once, with no API call. Points written in words need an LLM judge: they are scored "
        "when you run the blueprint."
    )
    parsed = services.parse(text, state.source())
    if isinstance(parsed, BlueprintError):
        st.info("The blueprint cannot be read yet (see Problems). Fix the error to try answers.")
        return
    if not parsed.prompts:
        st.info("Add a prompt to the blueprint to try an answer.")
        return
    ids = [p.id for p in parsed.prompts]
    if st.session_state.get(TRY_PROMPT) not in ids:
        st.session_state[TRY_PROMPT] = ids[0]
    pid = st.selectbox(
        "Prompt",
        ids,
        key=TRY_PROMPT,
        format_func=lambda i: f"{i} — {one_line(_question(parsed, i), 70)}",
    )
    prompt = parsed.prompt(str(pid))
    if prompt is None:
        return
    cols = st.columns([4, 1], vertical_alignment="bottom")
    with cols[0]:
        answer = st.text_area(
            "An answer to score",
            key=TRY_ANSWER,
            height=140,
            placeholder="Paste or type an answer a model might give…",
        )
    with cols[1]:
        st.button("Score this answer", type="primary", width="stretch")
        if prompt.ideal:
            st.button(
                "Use the ideal answer",
                on_click=_use_ideal,
                args=(prompt.ideal,),
                width="stretch",
                help="Fill in the prompt's `ideal` answer from the blueprint.",
            )
    if not answer or not answer.strip():
        st.caption("The scores appear here once there is an answer.")
        return
    evidence = response_evidence(parsed, prompt, "your answer", response=answer)
    cell = score_cell(parsed, prompt, evidence, services.check_env())
    rows = []
    names = path_names(a.path_id for a in cell.assessments)
    for a in cell.assessments:
        if a.counts and a.coverage_extent is not None:
            value = format_score(a.coverage_extent)
        elif a.status == "unverified" and a.kind == "text":
            value = "needs a judge"
        else:
            value = a.status
        rows.append(
            {
                "Point": a.key_point_text,
                "Checked by": "function" if a.kind == "function" else "LLM judge",
                "Group": group_label(a.path_id, a.is_inverted, names),
                "Weight": a.multiplier,
                "Score": value,
                "Why": a.error or ("" if a.kind == "text" else (a.reflection or "")),
            }
        )
    metric_cols = st.columns([1, 3])
    with metric_cols[0]:
        st.metric(
            "Score without judges",
            format_score(cell.score),
            help="The mean of the function points only; judged points are left out here.",
        )
    with metric_cols[1]:
        judged = sum(1 for a in cell.assessments if a.kind == "text")
        if cell.score is None:
            st.caption("Nothing here can be checked by a function: every point needs a judge.")
        elif judged:
            st.caption(
                f"{judged} point{'s' if judged != 1 else ''} written in words "
                "will be scored by judges when you run the blueprint, and may change the score."
            )
    st.dataframe(rows, hide_index=True, width="stretch")
    with st.expander("How this score is computed"):
        for step in figures.explanation_steps(cell.explain()):
            st.text(step)
    if len([m for m in prompt.messages if m.is_placeholder]) > 0:
        st.caption(
            "This prompt is a conversation: your answer is scored as the model's final turn."
        )


def _question(bp: Blueprint, pid: str) -> str:
    prompt = bp.prompt(pid)
    if prompt is None:
        return ""
    users = [m.content for m in prompt.messages if m.role == "user" and m.content]
    return users[-1] if users else ""
