"""The share link of a run, shown as text with a copy button."""

from __future__ import annotations

import streamlit as st

__all__ = ["share_box"]


def share_box(link: str) -> None:
    """Show the link as plain text in a code box, whose button copies it to the clipboard.

    A code box shows its text as is (a backtick or an asterisk in the address is not
    Markdown), and Streamlit draws a copy button on it that works from the keyboard too.
    """
    st.markdown("**Share these results**")
    st.code(link, language=None, wrap_lines=True)
