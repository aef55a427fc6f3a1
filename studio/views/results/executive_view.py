"""The executive summary at the top of the results page, marked as written by a model.

Its text is a model's answer: shown through `safe_markdown` (no link, image, HTML or directive
can come from it) or `st.text`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine.report.executive import read_executive
from studio.core.textsafe import safe_markdown

__all__ = ["executive_summary"]


def executive_summary(raw: Any) -> bool:
    """Show an `executiveSummary` object, if there is a usable one; return whether it was shown."""
    view = read_executive(raw)
    if view is None:
        return False
    with st.container(border=True, key="executive-summary"):
        st.subheader("Executive summary")
        st.caption(safe_markdown(view.notice))
        for title, items in view.sections:
            st.markdown(f"**{title}**")
            st.markdown("\n".join(f"- {safe_markdown(item)}" for item in items))
        if view.grades:
            st.markdown("**Grades (0–10)**")
            st.dataframe(
                [{"Model": model, **dict(scores)} for model, scores in view.grades],
                hide_index=True,
            )
        if view.content:
            st.warning(view.unread or "")
            st.markdown("**The model's reply**")
            st.text(view.content)
    return True
