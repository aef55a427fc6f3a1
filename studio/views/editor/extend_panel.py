"""Add prompts in the Drafting help: from guidance or a source text, shown as a diff, kept on accept.

The model's prompts are checked by the engine (`engine.drafting.extend`) and shown as a plain
text diff of the draft (`st.code`); nothing reaches the blueprint until the author accepts,
and accepting keeps the new text as a version of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from engine.drafting import DraftRefused
from engine.drafting.extend import MAX_SOURCE_CHARS, Extension, add_prompts, prompts_from_source
from studio import services, state
from studio.core.textdiff import line_diff
from studio.core.textsafe import safe_markdown
from studio.views.editor.draft_notes import fix_notes, refusal

__all__ = ["EXTEND_KEY", "GUIDANCE_KEY", "SOURCE_KEY", "Keep", "extend_section"]

GUIDANCE_KEY = "extend_guidance"
SOURCE_KEY = "extend_source"
EXTEND_KEY = "extend_result"

Keep = Callable[[str, str], int]
"""Keeps a text as a new version of the open draft, with a note; returns the version's number."""


def _store_result(ask: Callable[[], Extension]) -> None:
    try:
        extension = ask()
    except DraftRefused as exc:
        st.session_state[EXTEND_KEY] = {"error": str(exc), "reply": exc.reply}
        return
    st.session_state[EXTEND_KEY] = {
        "text": extension.text,
        "before": extension.before,
        "added": extension.added,
        "fixed": extension.fixed,
        "suggested": extension.suggested,
    }


def _ask_guidance(model: Callable[[], str]) -> None:
    # read at the click, not from the run that drew the button (the fields may have changed)
    guidance = str(st.session_state.get(GUIDANCE_KEY) or "")
    current = state.get_text() or ""
    _store_result(lambda: add_prompts(services.store(), model(), current, guidance))


def _ask_source(model: Callable[[], str]) -> None:
    source = str(st.session_state.get(SOURCE_KEY) or "")
    current = state.get_text() or ""
    _store_result(lambda: prompts_from_source(services.store(), model(), current, source))


def _accept(result: dict[str, Any], keep: Keep) -> None:
    if (state.get_text() or "") != result["before"]:
        state.set_notice(
            "warning",
            "The blueprint changed after the prompts were drafted, so they were not added. "
            "Ask again to draft them for the text you have now.",
        )
        st.session_state.pop(EXTEND_KEY, None)
        return
    added = [str(a) for a in result["added"]]
    text = str(result["text"])
    number = keep(text, "Added prompts: " + ", ".join(added))
    state.set_text(text)
    st.session_state.pop(EXTEND_KEY, None)
    st.session_state.pop(GUIDANCE_KEY, None)
    state.set_notice(
        "success",
        f"Added {len(added)} prompt{'s' if len(added) != 1 else ''} ({', '.join(added)}) as "
        f"version {number}. The text you had before stays a version.",
    )


def _discard() -> None:
    st.session_state.pop(EXTEND_KEY, None)


def _result(keep: Keep) -> None:
    result = st.session_state.get(EXTEND_KEY)
    if not isinstance(result, dict):
        return
    if refusal(result):
        return
    added = [str(a) for a in result["added"]]
    diff = line_diff(str(result["before"]), str(result["text"]), "now", "with the new prompts")
    st.caption(
        f"The model proposes {len(added)} new prompt{'s' if len(added) != 1 else ''} "
        f"({safe_markdown(', '.join(added))}), checked and fixed by lint: {diff.added} line"
        f"{'s' if diff.added != 1 else ''} added. Nothing is in your blueprint until you add "
        "them; nothing is run."
    )
    st.code(diff.text, language="diff", wrap_lines=True)  # plain text, never markup
    fix_notes(result)
    cols = st.columns(2)
    cols[0].button(
        "Add these prompts to the blueprint",
        on_click=_accept,
        args=(result, keep),
        key="extend-accept",
        type="primary",
    )
    cols[1].button("Discard", on_click=_discard, key="extend-discard")


def extend_section(model: Callable[[], str], keep: Keep) -> None:
    """Ask `model` for more prompts (from guidance or a source text); show them; add on accept.

    Args:
        model: The drafting model chosen in the panel (read at the click).
        keep: Saves an accepted text as a new version of the draft.
    """
    st.markdown("**Add prompts**")
    st.text_input(
        "What should the new prompts be about?",
        key=GUIDANCE_KEY,
        placeholder="e.g. three more about edge cases of tax residency",
    )
    st.button("Add prompts", on_click=_ask_guidance, args=(model,), key="extend-guidance")
    st.text_area(
        "Or draft prompts from a source text",
        key=SOURCE_KEY,
        placeholder="Paste an article or your notes: prompts, ideal answers and points are "
        "drawn from it.",
        help=f"At most {MAX_SOURCE_CHARS:,} characters are sent.",
    )
    pasted = len(str(st.session_state.get(SOURCE_KEY) or ""))
    if pasted > MAX_SOURCE_CHARS:
        st.warning(
            f"This text is {pasted:,} characters; at most {MAX_SOURCE_CHARS:,} can be sent. "
            "Keep the part that matters most."
        )
    st.button(
        "Draft prompts from this text",
        on_click=_ask_source,
        args=(model,),
        key="extend-source",
    )
    _result(keep)
