"""A heatmap cell the user has just selected: which row and column it is, read once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

__all__ = ["new_cell"]


def _first_cell(event: Any) -> tuple[int, str] | None:
    selection = getattr(event, "selection", None) or {}
    cells = selection.get("cells") if isinstance(selection, dict) else None
    if not cells:
        cells = getattr(selection, "cells", None)
    if not cells:
        return None
    row, column = cells[0][0], cells[0][1]
    if not isinstance(row, int) or not isinstance(column, str):
        return None
    return row, column


def new_cell(
    event: Any, seen_key: str, rows: int, columns: Sequence[str]
) -> tuple[int, int] | None:
    """The (row, column) index of a cell selected since the last call, or None.

    A selection stays on screen across reruns; it is acted on once, when it changes, so that
    picking another prompt or model afterwards is not undone by the old selection.

    Args:
        event: What `st.dataframe(..., on_select="rerun")` returned.
        seen_key: A session key holding the selection already acted on.
        rows: How many rows the table has.
        columns: The table's column labels, in order.
    """
    cell = _first_cell(event)
    if cell == st.session_state.get(seen_key):
        return None
    st.session_state[seen_key] = cell
    if cell is None:
        return None
    row, column = cell
    if not 0 <= row < rows or column not in columns:
        return None
    return row, list(columns).index(column)
