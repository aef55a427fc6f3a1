"""A stored run's comparison: its cells, key points and embeddings read back; `replay:` files.

The comparison itself is built by `engine.comparison.build`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.blueprint.models import Blueprint
from engine.comparison.build import comparison_from_rows, run_cost, run_timestamp
from engine.comparison.weval import Comparison
from engine.jsonl import read_jsonl
from engine.similarity.tables import embedding_model, uses_embeddings
from engine.store import CallRow, CellRow, Store

__all__ = ["replay_rows", "stored_comparison", "with_similarity"]


def replay_rows(path: str) -> dict[str, dict[str, Any]]:
    """Read a responses JSONL for the `replay:<file>` model: the first row per prompt id."""
    rows: dict[str, dict[str, Any]] = {}
    for _, row in read_jsonl(Path(path))[0]:
        if isinstance(row, dict) and "prompt_id" in row:
            rows.setdefault(str(row["prompt_id"]), row)
    return rows


def with_similarity(
    comparison: Comparison, blueprint: Blueprint, calls: Mapping[str, CallRow] | None
) -> Comparison:
    """Attach the similarity tables, computed from the embeddings in a run's call log `calls`.

    Only when the blueprint asks for similarity (`uses_embeddings`) and `calls` is given.
    """
    if calls is not None and uses_embeddings(blueprint):
        from engine.run.embedding import attach_similarity

        attach_similarity(comparison, embedding_model(blueprint), calls)
    return comparison


def stored_comparison(
    store: Store, run_id: str, blueprint: Blueprint, rows: Sequence[CellRow] | None = None
) -> Comparison:
    """The comparison of a stored run, as the run itself assembled it.

    Its cells (`rows`, read from the store when not given), the key points it extracted from
    ideals, and, when the blueprint asks for similarity, the embeddings in its call log: the
    one place that knows what a stored run's comparison is made of (the studio, `compare`,
    `summarize` and `run --queue` all read it here).
    """
    from engine.run.keypoints import run_key_points

    cells = store.cells(run_id) if rows is None else rows
    calls = store.run_calls(run_id, kind="embed") if uses_embeddings(blueprint) else None
    comparison = comparison_from_rows(blueprint, cells, run_key_points(store, run_id, blueprint))
    with_similarity(comparison, blueprint, calls)
    comparison.cost = run_cost(store, run_id, comparison.models)
    run = store.get_run(run_id)
    stamp = run_timestamp(run) if run is not None else None
    if stamp is not None:  # the run's own time, the same at every reading, not the reading's
        comparison.timestamp = stamp
    return comparison
