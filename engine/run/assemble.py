"""A stored run's comparison (assembled from its cells), and responses files for `replay:` models."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.blueprint.models import Blueprint
from engine.jsonl import read_jsonl
from engine.judge.keypoints import KeyPoints
from engine.offline import build_comparison
from engine.report.comparison import IDEAL_MODEL_ID, Comparison, cell_from_weval, safe_timestamp
from engine.report.runcost import RunCost
from engine.scoring.cells import CellScore
from engine.similarity.tables import embedding_model, uses_embeddings
from engine.store import CallRow, CellRow, RunRecord, Store

__all__ = [
    "comparison_from_rows",
    "replay_rows",
    "run_cost",
    "run_timestamp",
    "stored_comparison",
]


def replay_rows(path: str) -> dict[str, dict[str, Any]]:
    """Read a responses JSONL for the `replay:<file>` model: the first row per prompt id."""
    rows: dict[str, dict[str, Any]] = {}
    for _, row in read_jsonl(Path(path))[0]:
        if isinstance(row, dict) and "prompt_id" in row:
            rows.setdefault(str(row["prompt_id"]), row)
    return rows


def _key(row: CellRow) -> tuple[str, str]:
    return row.key


def comparison_from_rows(
    blueprint: Blueprint,
    rows: Sequence[CellRow],
    key_points: Mapping[str, KeyPoints] | None = None,
    calls: Mapping[str, CallRow] | None = None,
    scores: Mapping[tuple[str, str], CellScore] | None = None,
    *,
    run_label: str | None = None,
) -> Comparison:
    """Assemble the comparison of a run from its stored cells (in any order).

    `scores` are cells scored in this process, by (prompt id, model id): the stored result of
    such a cell is that score written out (`cell_row`), so it is used as it is instead of
    being read back from its JSON (a run's end: a warm run of 900 cells spent a third of its
    comparison there).

    `key_points` are the run's extractions (`engine.run.keypoints.logged_key_points` reads
    them from a stored run's log): recorded as Weval does, and a prompt whose extraction
    failed is left unscored (`{}`).

    When the blueprint asks for similarity (`uses_embeddings`) and the run's call log `calls`
    is given, the similarity tables are computed from the embeddings logged there.

    `run_label` is the comparison's content hash when it is known (`build_comparison`).
    The cells are taken in prompt id, then model id order (code point order on every store).
    """
    cells: list[CellScore] = []
    responses: dict[str, dict[str, str]] = {}
    histories: dict[str, dict[str, list[dict[str, Any]]]] = {}
    errors: dict[str, dict[str, str]] = {}
    systems: dict[str, str | None] = {}
    for row in sorted(rows, key=_key):
        pid, model = row.prompt_id, row.model_id
        scored = scores.get((pid, model)) if scores else None
        cells.append(scored if scored is not None else cell_from_weval(pid, model, row.result_data))
        history = row.history
        if row.failed:
            errors.setdefault(pid, {})[model] = str(row.error)
            responses.setdefault(pid, {})[model] = f"<<error>>{row.error}<</error>>"
        else:
            responses.setdefault(pid, {})[model] = str(row.response or "")
        histories.setdefault(pid, {})[model] = history
        systems[model] = (
            history[0]["content"] if history and history[0].get("role") == "system" else None
        )
    comparison = build_comparison(
        blueprint,
        cells,
        responses=responses,
        histories=histories,
        errors=errors,
        system_prompts=systems,
        key_points=key_points,
        run_label=run_label,
    )
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
    comparison = comparison_from_rows(
        blueprint, cells, run_key_points(store, run_id, blueprint), calls
    )
    comparison.cost = run_cost(store, run_id, comparison.models)
    run = store.get_run(run_id)
    stamp = run_timestamp(run) if run is not None else None
    if stamp is not None:  # the run's own time, the same at every reading, not the reading's
        comparison.timestamp = stamp
    return comparison


def run_cost(store: Store, run_id: str, models: Sequence[str] = ()) -> RunCost:
    """What a stored run cost, from its call log (`engine.report.runcost`).

    `models` (effective ids) are listed per model even when they cost nothing.
    """
    listed = [m for m in models if m != IDEAL_MODEL_ID]
    return RunCost.from_calls(store.call_costs(run_id), listed)


def run_timestamp(run: RunRecord) -> str | None:
    """A stored run's time in Weval's file-safe form: when it ended, else when it was created.

    None when the stored time cannot be read.
    """
    stamp = run.finished_at or run.created_at
    try:
        moment = datetime.fromisoformat(stamp) if stamp else None
    except ValueError:
        return None
    if moment is None:
        return None
    return safe_timestamp(moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC))
