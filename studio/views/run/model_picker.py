"""The Run page's "Add a model collection" box: choosing a collection adds its models."""

from __future__ import annotations

import streamlit as st

from studio import services

__all__ = ["COLLECTION", "collection_picker"]

COLLECTION = "run_collection"


def _add_collection(models_key: str) -> None:
    """Add the chosen collection's models to the models to run, then clear the choice."""
    ids = services.collections().get(str(st.session_state.get(COLLECTION) or ""))
    if ids:
        current = [str(m) for m in st.session_state.get(models_key) or []]
        st.session_state[models_key] = list(dict.fromkeys([*current, *ids]))
    st.session_state[COLLECTION] = None


def collection_picker(models_key: str) -> None:
    """Offer the non-empty collections; the chosen one's ids join `st.session_state[models_key]`.

    Args:
        models_key: The session key of the models multiselect (drawn before this box).
    """
    known = services.collections()
    st.selectbox(
        "Add a model collection",
        [name for name, ids in known.items() if ids],
        index=None,
        key=COLLECTION,
        on_change=_add_collection,
        args=(models_key,),
        format_func=lambda name: f"{name} ({len(known.get(name, ()))} models)",
        placeholder="Choose a collection to add its models",
        help=(
            "Weval's collections (CORE, QUICK, ...) and those under [collections] in "
            "$BLUEPRINT_HOME/settings.toml. Choosing one adds its models above."
        ),
    )
