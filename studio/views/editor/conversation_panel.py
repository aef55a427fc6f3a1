"""Build by conversation, beside the editor: talk to an assistant, apply a proposal on accept.

The conversation is kept with the draft (`Store.draft_messages`). The assistant's words are
shown with `st.text` and its proposals as a plain text diff (`st.code`): nothing it writes is
markup, and nothing is run. A proposal reaches the blueprint only when the author applies
it, as a new version of the draft.
"""

from __future__ import annotations

import streamlit as st

from engine.drafting import DraftRefused
from engine.drafting.converse import converse
from engine.store import DraftMessage
from studio import services, state
from studio.core.textdiff import line_diff
from studio.core.textsafe import safe_markdown
from studio.views.editor.extend_panel import Keep
from studio.views.editor.quick_try import pick_up, quick_try_controls, results_of

__all__ = ["ERROR_KEY", "MESSAGE_KEY", "MODEL_KEY", "conversation_panel"]

MODEL_KEY = "converse_model"
MESSAGE_KEY = "converse_message"
ERROR_KEY = "converse_error"
DEFAULT_MODEL = "openrouter:google/gemini-2.5-flash"


def _send(draft_id: str, author: str | None) -> None:
    # read at the click, not from the run that drew the button (the fields may have changed)
    message = str(st.session_state.get(MESSAGE_KEY) or "").strip()
    model = str(st.session_state.get(MODEL_KEY) or DEFAULT_MODEL).strip()
    store = services.store()
    st.session_state.pop(ERROR_KEY, None)
    try:
        turn = converse(
            store, model, state.get_text() or "", store.draft_messages(draft_id), message
        )
    except DraftRefused as exc:
        st.session_state[ERROR_KEY] = str(exc)
        return
    store.add_draft_message(draft_id, "user", message, author=author)
    words = turn.words
    if turn.refused:
        words = (
            (words + "\n\n" if words else "") + "(Its proposal is not shown: " + turn.refused + ")"
        )
    proposal = turn.proposal.text if turn.proposal is not None else None
    store.add_draft_message(draft_id, "assistant", words, proposal=proposal, author=author)
    st.session_state[MESSAGE_KEY] = ""


def _apply(message: DraftMessage, keep: Keep) -> None:
    if message.proposal is None:
        return
    number = keep(message.proposal, f"Applied the assistant's proposal (message {message.number})")
    services.store().set_proposal_status(message.draft_id, message.number, "accepted")
    state.set_text(message.proposal)
    state.set_notice(
        "success",
        f"Applied the assistant's proposal as version {number}. The text you had before stays "
        "a version.",
    )


def _discard(message: DraftMessage) -> None:
    services.store().set_proposal_status(message.draft_id, message.number, "discarded")


def _proposal(message: DraftMessage, latest: bool, text: str, keep: Keep) -> None:
    if message.proposal is None:
        return
    if message.status == "accepted":
        st.caption("Its proposal was applied.")
        return
    if message.status == "discarded":
        st.caption("Its proposal was discarded.")
        return
    if not latest:
        st.caption("An earlier proposal, not applied (a later one replaces it).")
        return
    diff = line_diff(text, message.proposal, "now", "proposed")
    if diff.same:
        st.caption("Its proposal is the blueprint as it is now.")
        return
    st.caption(
        f"Its proposal, checked and fixed by lint: {diff.added} line"
        f"{'s' if diff.added != 1 else ''} added, {diff.removed} removed. Nothing changes "
        "until you apply it; nothing is run."
    )
    st.code(diff.text, language="diff", wrap_lines=True)  # plain text, never markup
    cols = st.columns(2)
    cols[0].button(
        "Apply this proposal",
        key=f"converse-apply-{message.number}",
        on_click=_apply,
        args=(message, keep),
        type="primary",
    )
    cols[1].button(
        "Discard", key=f"converse-discard-{message.number}", on_click=_discard, args=(message,)
    )


def conversation_panel(draft_id: str, text: str, keep: Keep, author: str | None) -> None:
    """The "Build by conversation" panel of the draft `draft_id` (its text now: `text`).

    Args:
        draft_id: The draft the conversation is kept with.
        text: The blueprint's text now (proposals are shown as a diff of it).
        keep: Saves an applied proposal as a new version of the draft.
        author: Who is writing (an e-mail in team mode), kept with each message.
    """
    with st.expander("Build by conversation", icon=":material/forum:"):
        st.caption(
            "Tell the assistant what you want to test, in your own words. It asks, or proposes "
            "a revised blueprint: you see the change and decide. The conversation is kept with "
            "this draft."
        )
        st.text_input(
            "Assistant model",
            value=DEFAULT_MODEL,
            key=MODEL_KEY,
            help="Any configured model id (provider:model). One call a message.",
        )
        running = pick_up(draft_id, author)
        messages = services.store().draft_messages(draft_id)
        last = max((m.number for m in messages if m.proposal is not None), default=None)
        for message in messages:
            with st.chat_message(message.role):
                st.text(message.content)  # the assistant's words are untrusted: plain text
                link = results_of(message.content) if message.role == "assistant" else None
                if link is not None and message.proposal is None:
                    st.link_button("Open the full results", link)
                _proposal(message, message.number == last, text, keep)
        error = st.session_state.get(ERROR_KEY)
        if isinstance(error, str):
            st.error(safe_markdown(error))
        st.text_area(
            "Your message",
            key=MESSAGE_KEY,
            placeholder="e.g. I want to check that answers about tax residency are careful",
        )
        st.button(
            "Send", key="converse-send", on_click=_send, args=(draft_id, author), type="primary"
        )
        st.caption(
            "Quick try: run the draft as it is on one or two models, with a small budget; the "
            "results are added to the conversation, and the assistant reads them."
        )
        quick_try_controls(draft_id, text, running)
