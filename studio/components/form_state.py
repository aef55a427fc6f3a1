"""The form's state: one `EditSession` per draft, edits from widget callbacks, undo, fixes.

Every form widget has a stable key starting with `form:`. When the text changes (an edit, an
undo, a change in the YAML view) those keys are dropped, so each widget shows the value now
written in the YAML. Edits are applied in widget callbacks, before the page is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from engine.edit import Edit, EditError
from engine.edit.session import EditSession
from engine.lint import Diagnostic, apply_fix
from studio import services, state
from studio.textsafe import safe_markdown

__all__ = [
    "SESSION",
    "do",
    "fix",
    "on_change",
    "session",
    "set_on_change",
    "show_diagnostics",
    "undo",
    "value",
]

SESSION = "form_session"
SESSION_DRAFT = "form_session_draft"
ON_CHANGE = "form_on_change"
PREFIX = "form:"
_BOXES = {"error": st.error, "warning": st.warning, "info": st.info}


def _reset_widgets() -> None:
    for key in [k for k in st.session_state if str(k).startswith(PREFIX)]:
        del st.session_state[key]


def session() -> EditSession:
    """The session of the draft being edited (a change made in the YAML is one undo step).

    Another draft (opened, or started from an example) starts a new session: undo never
    goes back into a different blueprint.
    """
    text = state.get_text() or ""
    current = st.session_state.get(SESSION)
    draft, known = state.draft_id(), st.session_state.get(SESSION_DRAFT)
    st.session_state[SESSION_DRAFT] = draft
    if not isinstance(current, EditSession) or known not in (None, draft):
        # (None: the session began before the first autosave named the draft)
        current = EditSession(
            text, source=state.source(), diagnostics=services.lint_text(text, state.source())
        )
        st.session_state[SESSION] = current
        _reset_widgets()
    elif current.text != text:
        current.set_text(text, services.lint_text(text, state.source()))
        _reset_widgets()
    return current


def set_on_change(callback: Callable[[str], None]) -> None:
    """What to call with the new text after each change (the editor page's autosave)."""
    st.session_state[ON_CHANGE] = callback


def on_change(text: str) -> None:
    """Write the new text as the draft's text and tell the page (autosave)."""
    state.set_text(text)
    _reset_widgets()
    callback = st.session_state.get(ON_CHANGE)
    if callable(callback):
        callback(text)


def value(key: str) -> Any:
    """The current value of the form widget `key` (without the `form:` prefix)."""
    return st.session_state.get(PREFIX + key)


def do(make: Callable[[], Edit | None]) -> None:
    """Widget callback: build the edit from the widgets, make it, or say why it cannot."""
    current = session()
    try:
        edit = make()
        if edit is None:
            return
        new = current.apply(edit)
    except EditError as exc:
        state.set_notice("error", str(exc))
        return
    except ValueError:
        state.set_notice("error", "That value cannot be used here; check what you typed.")
        return
    if new != state.get_text():
        on_change(new)


def undo() -> None:
    """Widget callback: go back one change."""
    current = session()
    if current.can_undo:
        on_change(current.undo())
        state.set_notice("info", "Undid the last change.")


def fix(diagnostic: Diagnostic) -> None:
    """Widget callback: apply a lint fix as one undoable change."""
    current = session()
    new = apply_fix(current.text, diagnostic)
    current.set_text(new)
    on_change(new)
    title = diagnostic.fix.title if diagnostic.fix else "fix"
    state.set_notice("success", f"Applied: {title} (line {diagnostic.line}).")


def show_diagnostics(diagnostics: Sequence[Diagnostic], key: str) -> None:
    """Show the lint's diagnostics for one field, with their one-click fixes."""
    for i, d in enumerate(diagnostics):
        _BOXES[d.severity](safe_markdown(d.message))
        if d.fix is not None:
            st.button(
                f"Apply fix: {safe_markdown(d.fix.title)}",
                key=f"{PREFIX}fix:{key}:{i}:{d.line}:{d.column}:{d.code}",
                on_click=fix,
                args=(d,),
                icon=":material/auto_fix_high:",
            )
