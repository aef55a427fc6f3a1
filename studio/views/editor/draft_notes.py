"""What the drafting panels say around a model's answer: a refusal and its reply, the fixes."""

from __future__ import annotations

from typing import Any

import streamlit as st

from studio.core.textsafe import safe_markdown

__all__ = ["REPLY_SHOWN", "fix_notes", "refusal", "reply_excerpt"]

REPLY_SHOWN = 4000
"""How much of a refused reply is shown (characters)."""


def reply_excerpt(reply: str, limit: int = REPLY_SHOWN) -> str:
    """The start of a model's reply, cut at `limit` characters with a note of what is left."""
    if len(reply) <= limit:
        return reply
    return f"{reply[:limit]}\n… ({len(reply) - limit:,} more characters not shown)"


def refusal(result: dict[str, Any]) -> bool:
    """Show a refused answer's message and, as plain text, what the model replied.

    Returns:
        True when `result` was a refusal (and was shown).
    """
    if "error" not in result:
        return False
    st.error(safe_markdown(str(result["error"])))
    reply = result.get("reply")
    if isinstance(reply, str) and reply.strip():
        st.caption("What the model replied (its own words, shown as plain text):")
        st.code(reply_excerpt(reply), language=None, wrap_lines=True)
    return True


def fix_notes(result: dict[str, Any]) -> None:
    """List what lint fixed in a draft and what it only suggests."""
    for fix in result.get("fixed") or []:
        st.caption("Fixed: " + safe_markdown(str(fix)))
    for suggestion in result.get("suggested") or []:
        st.caption(
            "Suggested, not applied (it could change a score; the editor offers it): "
            + safe_markdown(str(suggestion))
        )
