"""Build a comparison: from scored cells, or from a stored run's cells, its cost and its time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from engine.blueprint.models import Blueprint
from engine.blueprint.parse import config_id_of
from engine.comparison.cost import RunCost
from engine.comparison.read import cell_from_weval
from engine.comparison.weval import IDEAL_MODEL_ID, Comparison, config_content_hash, safe_timestamp
from engine.judge.keypoints import KeyPoints
from engine.scoring.cells import CellScore
from engine.store import CellRow, RunRecord, Store

__all__ = ["build_comparison", "comparison_from_rows", "run_cost", "run_timestamp"]


def build_comparison(
    blueprint: Blueprint,
    cells: Sequence[CellScore],
    *,
    responses: dict[str, dict[str, str]],
    histories: dict[str, dict[str, list[dict[str, Any]]]] | None = None,
    errors: dict[str, dict[str, str]] | None = None,
    system_prompts: dict[str, str | None] | None = None,
    run_label: str | None = None,
    timestamp: str | None = None,
    key_points: Mapping[str, KeyPoints] | None = None,
) -> Comparison:
    """Assemble a `Comparison` (Weval's comparison JSON) from scored cells.

    `key_points` are the key points extracted from ideals: the extracted ones are recorded
    (`extractedKeyPoints`), and a prompt whose extraction failed gets no scores (`{}`).
    """
    models = sorted({c.model_id for c in cells} | {m for row in responses.values() for m in row})
    ideal = any(p.ideal for p in blueprint.prompts)
    all_responses = {pid: dict(row) for pid, row in responses.items()}
    if ideal:
        for p in blueprint.prompts:
            if p.ideal:
                all_responses.setdefault(p.id, {})[IDEAL_MODEL_ID] = p.ideal
    config_id = config_id_of(blueprint)
    key_points = key_points or {}
    skipped = {pid for pid, k in key_points.items() if not k.ok}
    table: dict[str, dict[str, CellScore]] = {pid: {} for pid in sorted(skipped)}
    for cell in cells:
        if cell.prompt_id not in skipped:
            table.setdefault(cell.prompt_id, {})[cell.model_id] = cell
    return Comparison(
        config_id=config_id,
        config_title=blueprint.title or config_id,
        run_label=run_label or config_content_hash(blueprint, models),
        timestamp=timestamp or safe_timestamp(),
        description=blueprint.description,
        config=blueprint.weval,  # read-only: the comparison never changes it
        models=sorted(models + ([IDEAL_MODEL_ID] if ideal else [])),
        prompt_ids=sorted(p.id for p in blueprint.prompts),
        prompt_contexts={p.id: p.weval.get("messages", []) for p in blueprint.prompts},
        system_prompts=system_prompts or dict.fromkeys(models),
        responses=all_responses,
        histories=histories or {},
        errors=errors or {},
        cells=table,
        extracted_key_points={
            pid: list(k.points) for pid, k in key_points.items() if k.points is not None
        },
        key_point_extraction={pid: k.to_json() for pid, k in key_points.items()},
    )


def _key(row: CellRow) -> tuple[str, str]:
    return row.key


def comparison_from_rows(
    blueprint: Blueprint,
    rows: Sequence[CellRow],
    key_points: Mapping[str, KeyPoints] | None = None,
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

    The similarity tables, when the blueprint asks for them, are attached by the run
    (`engine.run.assemble.with_similarity`): they come from the embeddings in its call log.

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
    return build_comparison(
        blueprint,
        cells,
        responses=responses,
        histories=histories,
        errors=errors,
        system_prompts=systems,
        key_points=key_points,
        run_label=run_label,
    )


def run_cost(store: Store, run_id: str, models: Sequence[str] = ()) -> RunCost:
    """What a stored run cost, from its call log (`engine.comparison.cost`).

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
