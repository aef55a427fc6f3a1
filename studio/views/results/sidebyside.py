"""Which models "Answers side by side" shows: a picker that defaults to the first few."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

__all__ = ["DEFAULT_SHOWN", "PICK_KEY", "pick_models"]

PICK_KEY = "res_side_models"
"""Session key of the picker (a widget: Streamlit drops it while the tab is closed)."""
_KEPT = "res_side_models_kept"
"""Session key of the last pick, kept while the tab is closed."""

DEFAULT_SHOWN = 3
"""How many models are shown at first: one row of answers."""


def pick_models(models: Sequence[str], names: Mapping[str, str]) -> list[str]:
    """Draw the model picker; return the models to show, in the results' order.

    The pick is kept across reruns and tab switches; a pick naming models these results do
    not have (another run) starts again from the first few models.

    Args:
        models: Every model of the results, in order.
        names: The display name of each model.
    """
    kept = st.session_state.get(PICK_KEY, st.session_state.get(_KEPT))
    if not isinstance(kept, list) or any(m not in models for m in kept):
        kept = list(models[:DEFAULT_SHOWN])
    st.session_state[PICK_KEY] = kept
    picked = st.multiselect(
        "Models to compare",
        list(models),
        key=PICK_KEY,
        format_func=lambda m: names.get(m, m),
        placeholder="Pick the models whose answers to show",
        help=f"The first {DEFAULT_SHOWN} models are shown at first; add or remove any.",
    )
    st.session_state[_KEPT] = list(picked)
    if not picked:
        st.info("Pick at least one model to see its answer.")
    return [m for m in models if m in picked]
