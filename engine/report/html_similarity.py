"""The HTML report's similarity section (§5.10): the model × model table and similarity to the ideal."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence

from engine.comparison.weval import IDEAL_MODEL_ID, Comparison

__all__ = ["similarity_html"]

IDEAL_LABEL = "Ideal answer"


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _cell(value: float | None, color: Callable[[float | None], str]) -> str:
    shown = "–" if value is None else f"{value:.2f}"
    return f'<td class=num style="background:{color(value)}">{shown}</td>'


def similarity_html(
    comparison: Comparison,
    models: Sequence[str],
    prompts: Sequence[str],
    names: Mapping[str, str],
    color: Callable[[float | None], str],
) -> str:
    """The section, or '' when the comparison has no similarities."""
    tables = comparison.similarity
    if tables is None or not tables.matrix:
        return ""
    axis = list(tables.matrix)

    def label(model: str) -> str:
        return IDEAL_LABEL if model == IDEAL_MODEL_ID else names.get(model, model)

    head = "".join(f"<th>{_e(label(m))}</th>" for m in axis)
    rows = "".join(
        f"<tr><td>{_e(label(a))}</td>"
        + "".join(_cell(tables.matrix[a].get(b), color) for b in axis)
        + "</tr>"
        for a in axis
    )
    model_name = comparison.config.get("embeddingModel")
    by = f" by {_e(model_name)}" if isinstance(model_name, str) and model_name else ""
    out = (
        "<h2>Similarity of the answers</h2><p class=muted>Cosine similarity of the answers' "
        f"embeddings{by}, averaged over the prompts (1 = the same meaning). It changes no "
        "average here; Weval scores a prompt without a coverage score by it (see the "
        "leaderboard).</p>"
        f"<table><tr><th></th>{head}</tr>{rows}</table>"
    )
    if IDEAL_MODEL_ID not in tables.matrix:
        return out
    head = "".join(f"<th>{_e(names[m])}</th>" for m in models)
    rows = "".join(
        f"<tr><td>{_e(pid)}</td>"
        + "".join(_cell(tables.to_ideal(pid, m, IDEAL_MODEL_ID), color) for m in models)
        + "</tr>"
        for pid in prompts
    )
    return (
        out + "<p class=muted>Each model's similarity to the ideal answer, by prompt.</p>"
        f"<table><tr><th>Prompt</th>{head}</tr>{rows}</table>"
    )
