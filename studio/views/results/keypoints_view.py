"""Results: the key points an LLM found in a prompt's ideal answer, and adding them as points."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from studio.core.resultdata import Results

__all__ = ["AddPoints", "key_points_panel"]

AddPoints = Callable[[str, list[str]], None]
"""Adds (prompt id, points) to the blueprint as `should` points, in a new draft version."""


def key_points_panel(results: Results, pid: str, add: AddPoints | None) -> None:
    """The points found in `pid`'s ideal (or why none were), with a button to add them.

    Model output is shown as plain text only. Nothing is drawn for a prompt whose points the
    blueprint gives.
    """
    comparison = results.comparison
    points = comparison.extracted_key_points.get(pid)
    note = comparison.key_point_extraction.get(pid) or {}
    error = note.get("error")
    if not points and not error:
        return
    with st.container(border=True):
        st.markdown("**Points found in the ideal answer**")
        if not points:
            st.warning(
                "This prompt has no points of its own and none could be found in its ideal "
                "answer, so it is not scored. Why:"
            )
            st.text(str(error))
            return
        model = note.get("model")
        st.caption(
            "The blueprint gives no points for this prompt, so "
            + (f"the model {model}" if isinstance(model, str) else "an LLM")
            + " listed these from its ideal answer, and every answer was judged against them."
        )
        st.text("\n".join(f"• {p}" for p in points))
        if add is None:
            return
        if st.button(
            "Add them to the blueprint as should points",
            key=f"res_add_points_{pid}",
            icon=":material/playlist_add:",
            help="Writes these points under `should:` of this prompt in a new version of the "
            "draft and opens it in the editor, where you can change them.",
        ):
            add(pid, list(points))
