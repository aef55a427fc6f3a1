"""The Run page's "Test a chat app" section: paste an app's answers, score them as a run."""

from __future__ import annotations

import hashlib

import streamlit as st

from engine.blueprint import Blueprint
from engine.errors import EngineError
from engine.modelids import app_model_id
from engine.run.pasted import answer_turns
from studio import services, state
from studio.core import runs
from studio.core.textsafe import safe_markdown

__all__ = ["PASTE_JUDGE", "PASTE_NAME", "answer_key", "pasted_answers"]

PASTE_NAME = "paste_name"
PASTE_JUDGE = "paste_judge"
ROLE_WORDS = {"user": "User", "assistant": "Assistant", "system": "System prompt"}


def answer_key(prompt_id: str, turn: int) -> str:
    """The widget key of the text area for the app's answer to one turn of a prompt."""
    digest = hashlib.sha256(prompt_id.encode("utf-8")).hexdigest()[:12]
    return f"paste-{digest}-{turn}"


def _answer_area(prompt_id: str, turn: int, turns: int) -> None:
    label = "The app's answer" if turns == 1 else f"The app's answer (turn {turn + 1} of {turns})"
    st.text_area(
        label,
        key=answer_key(prompt_id, turn),
        height=110,
        placeholder="Paste the app's answer here, or leave it empty: not answered.",
    )


def _prompt_block(blueprint: Blueprint, index: int, turns: int) -> None:
    """One prompt: its whole conversation as plain text, a text area where the app answers."""
    prompt = blueprint.prompts[index]
    with st.container(border=True):
        st.markdown(f"**Prompt {index + 1}** · " + safe_markdown(f"`{prompt.id}`"))
        turn = 0
        for msg in prompt.messages:
            if msg.is_placeholder:
                _answer_area(prompt.id, turn, turns)
                turn += 1
                continue
            st.caption(ROLE_WORDS.get(msg.role, safe_markdown(msg.role)))
            st.text(msg.content or "")
        if turn < turns:
            _answer_area(prompt.id, turn, turns)


def _collect(blueprint: Blueprint, needed: dict[str, int]) -> dict[str, list[str]]:
    answers: dict[str, list[str]] = {}
    for prompt in blueprint.prompts:
        turns = [
            str(st.session_state.get(answer_key(prompt.id, k)) or "")
            for k in range(needed.get(prompt.id, 0))
        ]
        if any(t.strip() for t in turns):
            answers[prompt.id] = turns
    return answers


def _score(text: str, source: str | None, blueprint: Blueprint) -> None:
    """Record and start the run of the pasted answers; say how it went on the page."""
    name = str(st.session_state.get(PASTE_NAME) or "")
    answers = _collect(blueprint, answer_turns(blueprint))
    judge = bool(st.session_state.get(PASTE_JUDGE, True))
    try:
        prepared = runs.paste(services.store(), text, source, name, answers, judge=judge)
    except EngineError as exc:
        state.set_notice("error", str(exc))
        return
    if prepared.run_id is None:
        state.set_notice("error", "Nothing was scored: " + " ".join(prepared.problems))
        return
    state.set_run_id(prepared.run_id)
    st.query_params["run"] = prepared.run_id
    left = len(prepared.unanswered)
    state.set_notice(
        "success",
        f"Scoring the answers of {prepared.model} as a run"
        + (f"; {left} prompt(s) not answered (not scored, not failures)." if left else "."),
    )


def pasted_answers(text: str, source: str | None, blueprint: Blueprint) -> None:
    """The section: every prompt in full, a text area per answer, and "Score these answers"."""
    st.caption(
        "Ask a chat app (ChatGPT's or Claude's website, ...) each prompt below, then paste "
        "its answers. They are scored like any model's, judges included, as a run of the "
        'model you name here. A prompt you leave empty is "not answered": it gets no score '
        "and is not counted as a failure. The blueprint's system prompt is not part of an "
        "app's conversation."
    )
    st.text_input(
        "The app's name",
        key=PASTE_NAME,
        placeholder="app:chatgpt-web",
        help="app: followed by letters, digits, '.', '_' or '-', such as app:chatgpt-web. "
        "The app: prefix keeps it apart from every provider's models.",
    )
    name = str(st.session_state.get(PASTE_NAME) or "").strip()
    name_problem = None
    if name:
        try:
            app_model_id(name)
        except ValueError as exc:
            name_problem = str(exc)
            st.error(safe_markdown(name_problem))
    needed = answer_turns(blueprint)
    for index in range(len(blueprint.prompts)):
        _prompt_block(blueprint, index, needed.get(blueprint.prompts[index].id, 1))
    st.checkbox(
        "Judge the points written in words (needs the judges' API keys)",
        value=True,
        key=PASTE_JUDGE,
    )
    st.button(
        "Score these answers",
        type="primary",
        icon=":material/grading:",
        key="paste-score",
        disabled=not name or name_problem is not None,
        on_click=_score,
        args=(text, source, blueprint),
    )
