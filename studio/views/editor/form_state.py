"""The form's state: one `EditSession` per draft, edits from widget callbacks, undo, fixes.

Every form widget has a stable key starting with `form:` and is given the value written in
the YAML before it is drawn (`field`; see `form_sync`), so after any change (an edit, an undo,
a restored version, the YAML view, another tab) each field shows the text as it is. Edits are
applied in widget callbacks, before the page is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from engine.edit import Edit, EditError
from engine.edit.session import EditSession
from engine.lint import Diagnostic, Fix, apply_fix
from studio import services, state
from studio.core.textsafe import safe_markdown
from studio.views.editor import form_sync

__all__ = [
    "SESSION",
    "do",
    "field",
    "fix",
    "follow_store",
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
CHOICES = {":pick": False, ":into": None}
"""Widgets that pick what an action applies to (not a value of the YAML), with their resets."""
_BOXES = {"error": st.error, "warning": st.warning, "info": st.info}


def _changed(*, by_field: bool = False) -> None:
    """After a change: picks are cleared; one not made by a field makes fields drawn before stale."""
    for key in [k for k in st.session_state if str(k).startswith(PREFIX)]:
        for end, empty in CHOICES.items():
            if str(key).endswith(end):
                st.session_state[key] = empty
    if not by_field:
        form_sync.bump(st.session_state)


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
        _changed()
    elif current.text != text:
        current.set_text(text, services.lint_text(text, state.source()))
        _changed()
    return current


def follow_store() -> bool:
    """Take in the text another tab or person saved to this draft since this tab looked.

    Returns:
        True when there was such a text: it is now the draft's text in this tab.
    """
    newer = form_sync.take_newer(
        st.session_state, services.store(), state.draft_id(), state.get_text()
    )
    if newer is None:
        return False
    state.set_text(newer)
    session()
    return True


def set_on_change(callback: Callable[[str], None]) -> None:
    """What to call with the new text after each change (the editor page's autosave)."""
    st.session_state[ON_CHANGE] = callback


def on_change(text: str, *, by_field: bool = False) -> None:
    """Write the new text as the draft's text and tell the page (autosave)."""
    state.set_text(text)
    _changed(by_field=by_field)
    callback = st.session_state.get(ON_CHANGE)
    if callable(callback):
        callback(text)


def value(key: str) -> Any:
    """The current value of the form widget `key` (without the `form:` prefix)."""
    return st.session_state.get(PREFIX + key)


def field(key: str, shown: Any, make: Callable[[], Edit | None]) -> dict[str, Any]:
    """The arguments of the form widget `key` showing `shown`, the value written in the YAML.

    The widget is given `shown` before it is drawn; its change (`make()`) carries the form's
    revision, so a change typed into a field that showed an older text is refused.
    """
    full = PREFIX + key
    form_sync.show(st.session_state, full, shown)
    return {"key": full, "on_change": do, "args": (make, form_sync.revision(st.session_state))}


def do(make: Callable[[], Edit | None], drawn_at: int | None = None) -> None:
    """Widget callback: build the edit from the widgets, make it, or say why it cannot.

    Args:
        make: Builds the edit from the widgets' values (None: nothing to do).
        drawn_at: For a field, the form's revision when it was drawn (see `field`).
    """
    if follow_store():
        state.set_notice(
            "warning", form_sync.STALE if drawn_at is not None else form_sync.CHANGED_ELSEWHERE
        )
        return
    current = session()
    if form_sync.is_stale(st.session_state, drawn_at):
        state.set_notice("warning", form_sync.STALE)
        return
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
        on_change(new, by_field=drawn_at is not None)


def undo() -> None:
    """Widget callback: go back one change."""
    if follow_store():
        state.set_notice("warning", form_sync.CHANGED_ELSEWHERE)
        return
    current = session()
    if current.can_undo:
        on_change(current.undo())
        state.set_notice("info", "Undid the last change.")


def fix(diagnostic: Diagnostic, chosen: Fix | None = None) -> None:
    """Widget callback: apply a lint fix (by default the diagnostic's first) as one change."""
    if follow_store():
        state.set_notice("warning", form_sync.CHANGED_ELSEWHERE)
        return
    current = session()
    new = apply_fix(current.text, diagnostic, chosen)
    current.set_text(new)
    on_change(new)
    title = (chosen or diagnostic.fix or Fix(title="fix", replacement="")).title
    state.set_notice("success", f"Applied: {title} (line {diagnostic.line}).")


def show_diagnostics(diagnostics: Sequence[Diagnostic], key: str) -> None:
    """Show the lint's diagnostics for one field, with their one-click fixes."""
    for i, d in enumerate(diagnostics):
        _BOXES[d.severity](safe_markdown(d.message))
        for n, offered in enumerate(d.fixes):
            st.button(
                f"Apply fix: {safe_markdown(offered.title)}",
                key=f"{PREFIX}fix:{key}:{i}:{d.line}:{d.column}:{d.code}:{n}",
                on_click=fix,
                args=(d, offered),
                icon=":material/auto_fix_high:",
            )
