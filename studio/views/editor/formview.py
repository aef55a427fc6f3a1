"""The Form view of the Editor: the same draft as the YAML view, edited field by field.

Each change is one structural edit of the YAML (`engine.edit`): comments, quoting and layout
elsewhere stay as written, and the YAML view shows exactly the old text with the edited part
changed. What the form cannot show is listed read-only with "edit in YAML", never dropped.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.edit import (
    AddPrompt,
    DeletePrompt,
    DuplicatePrompt,
    EditError,
    MovePrompt,
    SetMessages,
    SetPromptField,
)
from engine.edit.form import PromptView, prompt_view, turns
from studio import state
from studio.core.textsafe import one_line, safe_markdown
from studio.views.editor.form_fields import read_only, text_field
from studio.views.editor.form_header import header_section
from studio.views.editor.form_points import points_section
from studio.views.editor.form_state import (
    PREFIX,
    do,
    follow_store,
    session,
    set_on_change,
    show_diagnostics,
    undo,
    value,
)
from studio.views.editor.form_state import field as bound
from studio.views.editor.form_sync import CHANGED_ELSEWHERE

__all__ = ["PAGE_SIZE", "VIEW", "follow_elsewhere", "form_view", "view_switch"]

PAGE_SIZE = 10
PAGE = "form_page"
VIEW = "editor_view"
ROLES = ["user", "assistant", "system"]


def _conversation(view: PromptView) -> None:
    field = view.field("messages")
    prompt = view.field("prompt")
    p = view.index
    if field is not None and not field.editable:
        read_only(field)
        return
    if field is None:
        text_field(
            view,
            "prompt",
            "Question",
            f"p{p}:prompt",
            lambda v: SetPromptField(p, "prompt", v),
            area=True,
        )
        st.button(
            "Make it a conversation",
            key=f"{PREFIX}p{p}:to-chat",
            on_click=do,
            args=(
                lambda: SetMessages(
                    p,
                    (
                        ("user", str(prompt.value if prompt else "")),
                        ("assistant", "…"),
                        ("user", "…"),
                    ),
                ),
            ),
        )
        return
    chat = turns(field.value)

    def make() -> SetMessages:
        out = []
        for i in range(len(chat)):
            role = str(value(f"p{p}:turn{i}:role") or chat[i][0])
            content = value(f"p{p}:turn{i}:text")
            out.append(
                (role, None if role == "assistant" and content == "" else str(content or ""))
            )
        return SetMessages(p, tuple(out))

    for i, (role, content) in enumerate(chat):
        cols = st.columns([1, 5])
        cols[0].selectbox("Role", ROLES, **bound(f"p{p}:turn{i}:role", role, make))
        cols[1].text_area(
            f"Turn {i + 1}",
            height=68,
            placeholder="Empty assistant turn: the model answers here",
            **bound(f"p{p}:turn{i}:text", content or "", make),
        )
    buttons = st.columns(2)
    buttons[0].button(
        "Add a turn",
        key=f"{PREFIX}p{p}:turn-add",
        on_click=do,
        args=(
            lambda: SetMessages(
                p, (*chat, ("user" if chat and chat[-1][0] != "user" else "assistant", "…"))
            ),
        ),
    )
    if len(chat) > 1:
        buttons[1].button(
            "Remove the last turn",
            key=f"{PREFIX}p{p}:turn-drop",
            on_click=do,
            args=(lambda: SetMessages(p, tuple(chat[:-1])),),
        )
    show_diagnostics(field.diagnostics, f"p{p}:messages")


def _weight(view: PromptView) -> None:
    field = view.field("weight")
    p = view.index
    if field is not None and not field.editable:
        read_only(field)
        return
    current = "" if field is None else str(field.value)

    def make() -> SetPromptField:
        typed = str(value(f"p{p}:weight") or "").strip()
        return SetPromptField(p, "weight", float(typed) if typed else None)

    st.text_input(
        "Importance (weight, 0.1-10; empty for 1)", **bound(f"p{p}:weight", current, make)
    )
    if field is not None:
        show_diagnostics(field.diagnostics, f"p{p}:weight")


def _prompt(view: PromptView, count: int) -> None:
    p = view.index
    ident = view.field("id")
    title = safe_markdown(one_line(str(ident.value), 60)) if ident is not None else "(no id)"
    cols = st.columns([4, 1, 1, 2, 2], vertical_alignment="center")
    cols[0].markdown(f"##### Prompt {p + 1} · {title}")
    cols[1].button(
        "↑",
        key=f"{PREFIX}p{p}:up",
        disabled=p == 0,
        on_click=do,
        args=(lambda: MovePrompt(p, p - 1),),
        help="Move up",
    )
    cols[2].button(
        "↓",
        key=f"{PREFIX}p{p}:down",
        disabled=p == count - 1,
        on_click=do,
        args=(lambda: MovePrompt(p, p + 1),),
        help="Move down",
    )
    cols[3].button(
        "Copy",
        key=f"{PREFIX}p{p}:dup",
        on_click=do,
        args=(lambda: DuplicatePrompt(p, f"{ident.value if ident else 'prompt'}-copy"),),
        icon=":material/content_copy:",
        help="Duplicate this prompt (a copy with a new id goes right after it)",
    )
    cols[4].button(
        "Delete",
        key=f"{PREFIX}p{p}:delete",
        on_click=do,
        args=(lambda: DeletePrompt(p),),
        icon=":material/delete:",
        help="Delete this prompt (Undo brings it back)",
    )
    text_field(
        view,
        "id",
        "Id",
        f"p{p}:id",
        lambda v: SetPromptField(p, "id", v),
        help_text="A short name; results are stored under it.",
    )
    _conversation(view)
    text_field(
        view,
        "ideal",
        "Ideal answer (optional)",
        f"p{p}:ideal",
        lambda v: SetPromptField(p, "ideal", v),
        area=True,
    )
    with st.expander("More: system prompt, importance, citation, description"):
        text_field(
            view,
            "system",
            "System prompt for this prompt",
            f"p{p}:system",
            lambda v: SetPromptField(p, "system", v),
            area=True,
        )
        _weight(view)
        text_field(
            view,
            "citation",
            "Citation",
            f"p{p}:citation",
            lambda v: SetPromptField(p, "citation", v),
        )
        text_field(
            view,
            "description",
            "Description",
            f"p{p}:description",
            lambda v: SetPromptField(p, "description", v),
            area=True,
        )
    for field in view.extras:
        read_only(field)
    points_section(view)
    show_diagnostics(view.diagnostics, f"p{p}:rest")


def _new_prompt_id(count: int) -> str:
    return f"prompt-{count + 1}"


def view_switch() -> str:
    """The YAML / Form switch of the Editor: two views of the same draft; returns the choice."""
    choice = st.radio(
        "View",
        ["YAML", "Form"],
        key=VIEW,
        horizontal=True,
        help="Form: edit fields one by one; every change is written into the YAML.",
    )
    return str(choice)


def follow_elsewhere() -> None:
    """In the Form view, take in what another tab or person saved to this draft, and say so.

    Called before the page is drawn, so the heading, the problems and every field show it.
    """
    if st.session_state.get(VIEW) == "Form" and follow_store():
        state.set_notice("info", CHANGED_ELSEWHERE)


def form_view(on_change: Any) -> None:
    """Draw the form for the draft in `state.TEXT`; `on_change(text)` runs after each change."""
    set_on_change(on_change)
    state.remount(state.get_text() or "")  # the YAML view, shown next, starts from this text
    current = session()
    try:
        count = len(current.layout.regions)
    except EditError as exc:
        st.warning(safe_markdown(str(exc)))
        return
    cols = st.columns([3, 1], vertical_alignment="center")
    cols[0].caption(
        "Every change is written into the YAML at once; the YAML view shows it, "
        "with your comments and layout kept."
    )
    cols[1].button(
        "Undo",
        key=f"{PREFIX}undo",
        on_click=undo,
        disabled=not current.can_undo,
        icon=":material/undo:",
        width="stretch",
    )
    header_section()
    st.markdown(f"#### Prompts ({count})")
    pages = max(1, (count + PAGE_SIZE - 1) // PAGE_SIZE)
    page = 0
    if pages > 1:
        page = int(st.number_input("Page of prompts", 1, pages, key=PAGE)) - 1
    for i in range(page * PAGE_SIZE, min(count, (page + 1) * PAGE_SIZE)):
        with st.container(border=True):
            try:
                _prompt(prompt_view(current, i), count)
            except EditError as exc:
                st.warning(safe_markdown(str(exc)))
    st.button(
        "Add a prompt",
        key=f"{PREFIX}add-prompt",
        type="primary",
        icon=":material/add:",
        on_click=do,
        args=(
            lambda: AddPrompt({"id": _new_prompt_id(count), "prompt": "Write the question here."}),
        ),
    )
