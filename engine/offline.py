"""Offline scoring: score recorded responses against a blueprint without generating anything."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from engine.assessment import PointAssessment
from engine.blueprint.models import Blueprint, Point, Prompt
from engine.blueprint.parse import config_id_of
from engine.checks import CheckEnv, evaluate_function_points
from engine.conversation import response_evidence
from engine.evidence import Evidence
from engine.js.strings import is_js_blank
from engine.judge.keypoints import KeyPoints
from engine.report.comparison import IDEAL_MODEL_ID, Comparison, config_content_hash, safe_timestamp
from engine.responses import ResponseRow
from engine.scoring.cells import CellScore, failed_cell, finish_cell, ordered_points, unjudged

__all__ = ["TextJudge", "build_comparison", "score_cell", "score_rows", "score_rows_async"]


class TextJudge(Protocol):
    """Something that judges text points (LLM judges); see `engine.judge`."""

    async def judge_points(
        self, blueprint: Blueprint, prompt: Prompt, evidence: Evidence, points: Sequence[Point]
    ) -> tuple[list[PointAssessment], dict[str, Any] | None]:
        """Return one assessment per point, in order, and the judges' agreement (or None)."""
        ...


def score_cell(
    blueprint: Blueprint,
    prompt: Prompt,
    evidence: Evidence,
    env: CheckEnv,
    judged: tuple[list[PointAssessment], dict[str, Any] | None] | None = None,
) -> CellScore:
    """Score one response: function points now, text points from `judged` (or unverified)."""
    functions, texts = ordered_points(prompt)
    assessments = evaluate_function_points(
        functions, evidence, env=env, blueprint=blueprint, prompt=prompt
    )
    agreement = None
    if judged is not None:
        assessments += judged[0]
        agreement = judged[1]
    else:
        assessments += [unjudged(p) for p in texts]
    return finish_cell(prompt.id, evidence.model_id, assessments, agreement)


def _evidence(blueprint: Blueprint, prompt: Prompt, row: ResponseRow) -> Evidence:
    return response_evidence(
        blueprint,
        prompt,
        row.model,
        response=row.response,
        messages=row.messages,
        tool_calls=row.tool_calls,
        durations_ms=row.durations_ms,
    )


def _is_empty(row: ResponseRow, evidence: Evidence) -> bool:
    return is_js_blank(evidence.final_text or evidence.text) and not row.tool_calls


def score_rows(
    blueprint: Blueprint,
    rows: Sequence[ResponseRow],
    env: CheckEnv,
    on_cell: Callable[[CellScore], None] | None = None,
) -> list[CellScore]:
    """Score rows without judges: text points are `unverified` and left out of the scores."""
    cells: list[CellScore] = []
    for row in rows:
        prompt = blueprint.prompt(row.prompt_id)
        if prompt is None:
            continue
        evidence = _evidence(blueprint, prompt, row)
        if _is_empty(row, evidence):
            cell = failed_cell(prompt.id, row.model, "The recorded response is empty.")
        else:
            cell = score_cell(blueprint, prompt, evidence, env)
        cells.append(cell)
        if on_cell is not None:
            on_cell(cell)
    return cells


async def score_rows_async(
    blueprint: Blueprint,
    rows: Sequence[ResponseRow],
    env: CheckEnv,
    judge: TextJudge,
    concurrency: int = 20,
    on_cell: Callable[[CellScore], None] | None = None,
) -> list[CellScore]:
    """Score rows with a judge for text points, `concurrency` cells at a time."""
    limit = asyncio.Semaphore(concurrency)

    async def one(row: ResponseRow) -> CellScore | None:
        prompt = blueprint.prompt(row.prompt_id)
        if prompt is None:
            return None
        evidence = _evidence(blueprint, prompt, row)
        if _is_empty(row, evidence):
            cell = failed_cell(prompt.id, row.model, "The recorded response is empty.")
        else:
            async with limit:
                _, texts = ordered_points(prompt)
                judged = (
                    await judge.judge_points(blueprint, prompt, evidence, texts)
                    if texts
                    else ([], None)
                )
                cell = await asyncio.to_thread(score_cell, blueprint, prompt, evidence, env, judged)
        if on_cell is not None:
            on_cell(cell)
        return cell

    results = await asyncio.gather(*(one(r) for r in rows))
    return [c for c in results if c is not None]


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
