"""The Run page's widgets keep their choices per blueprint (through `studio.views.run.prefs`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from engine.settings import home_dir
from studio.views.run import prefs

__all__ = ["FOR_KEY", "recall", "remember"]

FOR_KEY = "run_choices_for"
"""Session key: the blueprint key whose choices the Run page's widgets hold."""


def _folder() -> Path:
    return home_dir()  # beside the personal store, `$BLUEPRINT_HOME`


def recall(
    key: str | None,
    default_models: Sequence[str],
    *,
    models_key: str,
    judging_key: str,
    judges_key: str,
) -> prefs.RunPrefs:
    """Put the blueprint's remembered choices into the widgets' state before they are drawn.

    The widgets are seeded when another blueprint is open than last time, and whenever
    Streamlit has dropped their state (after a page switch or in a new session). Returns the
    remembered choices (the defaults when none are kept), whose ids the widgets must offer.
    """
    kept = prefs.load(_folder(), key) if key is not None else None
    chosen = kept or prefs.RunPrefs(models=tuple(default_models))
    fresh = st.session_state.get(FOR_KEY) != key
    if fresh or models_key not in st.session_state:
        st.session_state[models_key] = list(chosen.models)
    if fresh or judging_key not in st.session_state:
        st.session_state[judging_key] = chosen.judging
    if fresh or judges_key not in st.session_state:
        st.session_state[judges_key] = list(chosen.judges)
    st.session_state[FOR_KEY] = key
    return chosen


def remember(key: str | None, before: prefs.RunPrefs, now: prefs.RunPrefs) -> None:
    """Keep the choices on screen for the blueprint when they changed."""
    if key is not None and now != before:
        prefs.save(_folder(), key, now)
