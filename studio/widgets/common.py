"""Small render helpers shared by the pages (they take plain data and draw it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from studio import state
from studio.core.run_files import slug
from studio.core.textsafe import safe_markdown

__all__ = ["conversation", "no_such_run", "notice", "slug", "status_badge"]

_BADGE: dict[str, tuple[str, Any]] = {
    "completed": (":material/check_circle:", "green"),
    "running": (":material/progress_activity:", "blue"),
    "planned": (":material/schedule:", "blue"),
    "interrupted": (":material/pause_circle:", "orange"),
    "stopped": (":material/stop_circle:", "orange"),
    "failed": (":material/error:", "red"),
}


def status_badge(status: str, word: str) -> None:
    """A colored badge for a run status."""
    icon, color = _BADGE.get(status, (":material/help:", "gray"))
    st.badge(word, icon=icon, color=color)


def no_such_run() -> None:
    """Say that the run of a link is not in this studio, with a link to the past runs."""
    st.error(
        "There is no run with this id in this studio. Check the link, or pick a run on "
        "the History page."
    )
    st.page_link("views/history/history.py", label="Past runs", icon=":material/history:")


def notice() -> None:
    """Show the one-time message left by the previous run, if any (as escaped text).

    The slot is drawn on every run, message or not, so the elements below it keep their
    place: a custom component that moved would be rebuilt (the editor would lose its text).
    """
    slot = st.empty()
    pending = state.pop_notice()
    if pending is None:
        return
    kind, text = pending
    show = {"success": st.success, "warning": st.warning, "error": st.error}.get(kind, st.info)
    with slot:
        show(safe_markdown(text))  # messages quote titles, names and files: untrusted


def conversation(messages: Sequence[dict[str, Any]], *, skip_system: bool = False) -> None:
    """Show a conversation turn by turn, every turn as plain text."""
    for m in messages:
        role = str(m.get("role") or "")
        if skip_system and role == "system":
            continue
        content = m.get("content")
        who = {"user": "User", "assistant": "Assistant", "system": "System prompt"}.get(
            role, safe_markdown(role) or "?"
        )
        st.markdown(f"**{who}**")
        if content is None:
            st.caption("(the model writes this turn)")
        else:
            st.text(str(content))
