"""What the Results page shows of similarity (§5.10): the model × model table, similarity to the ideal.

Pure: no Streamlit. The numbers are the engine's (`Comparison.similarity`); this module only
arranges and colours them, with the heatmap's colour-blind-safe palette and the value written
in every cell.
"""

from __future__ import annotations

from collections.abc import Sequence

from pandas.io.formats.style import Styler

from engine.comparison import IDEAL_MODEL_ID
from studio.core.figures import coloured_table
from studio.core.resultdata import Results

__all__ = ["IDEAL_LABEL", "ideal_table", "matrix_table", "similarity_table"]

IDEAL_LABEL = "Ideal answer"


def _label(results: Results, model: str) -> str:
    return IDEAL_LABEL if model == IDEAL_MODEL_ID else results.names.get(model, model)


def similarity_table(
    rows: Sequence[str], columns: Sequence[str], values: Sequence[Sequence[float | None]]
) -> Styler:
    """A table of similarities: each cell shows its value (2 decimals) on a coloured ground.

    Cosines below 0 get the colour of 0; a missing value shows `–` on grey.
    """
    labels = [["–" if v is None else f"{v:.2f}" for v in row] for row in values]
    return coloured_table(labels, values, rows, columns)


def matrix_table(results: Results) -> Styler | None:
    """The model × model similarity (mean over prompts), the ideal answer included; None if none."""
    tables = results.comparison.similarity
    if tables is None or not tables.matrix:
        return None
    axis = list(tables.matrix)
    names = [_label(results, m) for m in axis]
    values = [[tables.matrix[a].get(b) for b in axis] for a in axis]
    return similarity_table(names, names, values)


def ideal_table(results: Results, prompt_ids: Sequence[str]) -> Styler | None:
    """Each model's similarity to the ideal answer, per prompt (rows) and model (columns).

    None when there are no similarities or no ideal answer.
    """
    tables = results.comparison.similarity
    if tables is None or IDEAL_MODEL_ID not in tables.matrix:
        return None
    values = [
        [tables.to_ideal(pid, model, IDEAL_MODEL_ID) for model in results.models]
        for pid in prompt_ids
    ]
    return similarity_table(list(prompt_ids), [results.names[m] for m in results.models], values)
