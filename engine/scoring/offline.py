"""Offline scoring: score recorded responses against a blueprint without generating anything.

The comparison of the scored cells is assembled by `engine.comparison.build`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.assessment import PointAssessment
from engine.blueprint.models import Blueprint, Point, Prompt
from engine.checks import CheckEnv, evaluate_function_points
from engine.conversation import response_evidence
from engine.evidence import Evidence
from engine.js.strings import is_js_blank
from engine.responses import ResponseRow
from engine.scoring.cells import CellScore, failed_cell, finish_cell, ordered_points, unjudged

__all__ = ["TextJudge", "score_cell", "score_rows", "score_rows_async"]


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
