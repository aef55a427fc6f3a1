"""What a run-against-run comparison needs of one run: scores per model, prompt and point."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.errors import InputError
from engine.scoring.averages import CellOutcome, by_model, weighted_average

if TYPE_CHECKING:
    from engine.comparison.weval import Comparison
    from engine.store import CellRow

__all__ = [
    "CellView",
    "PointKey",
    "RunView",
    "base_model_id",
    "view_from_comparison",
    "view_from_json",
    "view_from_rows",
]

IDEAL_MODEL_ID = "IDEAL_BENCHMARK"
"""The ideal answers' column of a comparison (as `engine.comparison` writes it); not a model."""

_VARIANT = re.compile(r"\[temp:[^\]]*\]")

PointKey = tuple[str, bool, int]
"""A point's identity across versions: its text (or `Function: name(args)`), whether it is a
`should_not` point, and which occurrence of that pair it is within the cell (0 for the first)."""


def base_model_id(model_id: str) -> str:
    """The model id without its temperature variant (`m[temp:0.7][sp_idx:1]` → `m[sp_idx:1]`)."""
    return _VARIANT.sub("", model_id)


@dataclass(frozen=True)
class CellView:
    """One prompt × model of a run: its score and each point's score (None when not scored)."""

    score: float | None
    failed: bool
    points: dict[PointKey, float | None]


@dataclass
class RunView:
    """The scores of one run, as much as a comparison needs and nothing more."""

    id: str
    label: str
    timestamp: str
    models: list[str]
    prompt_ids: list[str]
    cells: dict[tuple[str, str], CellView] = field(default_factory=dict)
    prompt_weights: dict[str, float | None] = field(default_factory=dict)
    responses: dict[tuple[str, str], str] = field(default_factory=dict)
    """The final answer of each (prompt id, model) that has one (untrusted model output)."""

    def averages(self) -> dict[str, float | None]:
        """Each model's prompt-weighted average, exactly as the run's summary computes it."""
        outcomes = (
            CellOutcome(model, pid, cell.score, cell.failed)
            for (pid, model), cell in self.cells.items()
        )
        groups = by_model(outcomes)
        return {m: weighted_average(g, self.prompt_weights) for m, g in groups.items()}


def _keyed(points: list[tuple[str, bool, float | None]]) -> dict[PointKey, float | None]:
    out_fast = {(text, inverted, 0): score for text, inverted, score in points}
    if len(out_fast) == len(points):  # no point is repeated in the cell (the usual case)
        return out_fast
    seen: dict[tuple[str, bool], int] = {}
    out: dict[PointKey, float | None] = {}
    for text, inverted, score in points:
        nth = seen.get((text, inverted), 0)
        seen[(text, inverted)] = nth + 1
        out[(text, inverted, nth)] = score
    return out


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _score(value: Any, where: str, cell: tuple[str, str]) -> float | None:
    """A score as read, refusing NaN and infinities (`1e999`): they can only be a broken file."""
    number = _number(value)
    if number is not None and not math.isfinite(number):
        pid, model = (part[:60] for part in cell)
        raise InputError(
            f"{where}: a score of the prompt '{pid}' for the model '{model}' is {number} (not a "
            "finite number between 0 and 1), so this file cannot be compared. Give a run id or "
            "an intact `*_comparison.json`."
        )
    return number


def _bad(where: str, what: str) -> InputError:
    return InputError(
        f"{where}: this is not a comparison JSON file ({what}). Give a run id or a "
        "`*_comparison.json` written by `blueprint run`/`blueprint score` or by Weval."
    )


def _weights(config: Any) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    prompts = config.get("prompts") if isinstance(config, dict) else None
    for p in prompts if isinstance(prompts, list) else []:
        if isinstance(p, dict):
            out[str(p.get("id"))] = _number(p.get("weight"))
    return out


def _responses(raw: Any) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for pid, row in raw.items() if isinstance(raw, dict) else ():
        for model, text in row.items() if isinstance(row, dict) else ():
            if isinstance(text, str) and model != IDEAL_MODEL_ID:
                out[(str(pid), str(model))] = text
    return out


def _json_cell(raw: Any, where: str, cell: tuple[str, str]) -> CellView:
    if raw is None:
        return CellView(None, True, {})
    if not isinstance(raw, dict):
        raise _bad(where, "a cell is not an object")
    points = raw.get("pointAssessments")
    if points is None:
        return CellView(None, "error" in raw, {})
    if not isinstance(points, list):
        raise _bad(where, "pointAssessments is not a list")
    rows: list[tuple[str, bool, float | None]] = []
    append = rows.append
    for point in points:
        if not isinstance(point, dict):
            raise _bad(where, "a point assessment is not an object")
        append(
            (
                str(point.get("keyPointText", "")),
                bool(point.get("isInverted", False)),
                _score(point.get("coverageExtent"), where, cell),
            )
        )
    return CellView(_score(raw.get("avgCoverageExtent"), where, cell), False, _keyed(rows))


def view_from_json(data: Mapping[str, Any], run_id: str, where: str) -> RunView:
    """Read a comparison JSON document (ours or Weval's) without building every assessment.

    Raises:
        InputError: The document is not a comparison result; the message says what is missing.
    """
    results = data.get("evaluationResults")
    coverage = results.get("llmCoverageScores") if isinstance(results, dict) else None
    if not isinstance(coverage, dict):
        raise _bad(where, "evaluationResults.llmCoverageScores is missing")
    cells: dict[tuple[str, str], CellView] = {}
    for pid, row in coverage.items():
        if not isinstance(row, dict):
            raise _bad(where, f"llmCoverageScores[{str(pid)[:60]!r}] is not an object")
        for model, raw in row.items():
            if model != IDEAL_MODEL_ID:
                key = (str(pid), str(model))
                cells[key] = _json_cell(raw, where, key)
    models = data.get("effectiveModels")
    if not isinstance(models, list):
        models = sorted({m for _, m in cells})
    prompt_ids = data.get("promptIds")
    if not isinstance(prompt_ids, list):
        prompt_ids = list(dict.fromkeys(p for p, _ in cells))
    return RunView(
        id=run_id,
        label=str(data.get("configTitle") or data.get("configId") or data.get("runLabel") or ""),
        timestamp=str(data.get("timestamp") or ""),
        models=[str(m) for m in models if m != IDEAL_MODEL_ID],
        prompt_ids=[str(p) for p in prompt_ids],
        cells=cells,
        prompt_weights=_weights(data.get("config")),
        responses=_responses(data.get("allFinalAssistantResponses")),
    )


def view_from_comparison(comparison: Comparison, run_id: str) -> RunView:
    """The view of a comparison already in memory (a stored run, assembled)."""
    cells: dict[tuple[str, str], CellView] = {}
    for pid, row in comparison.cells.items():
        for model, cell in row.items():
            if model == IDEAL_MODEL_ID:
                continue
            points = [
                (a.key_point_text, a.is_inverted, a.coverage_extent) for a in cell.assessments
            ]
            failed = cell.error is not None and not cell.assessments
            cells[(pid, model)] = CellView(cell.score, failed, _keyed(points))
    return RunView(
        id=run_id,
        label=comparison.config_title,
        timestamp=comparison.timestamp,
        models=[m for m in comparison.models if m != IDEAL_MODEL_ID],
        prompt_ids=list(comparison.prompt_ids),
        cells=cells,
        prompt_weights=comparison.prompt_weights(),
        responses={
            (pid, model): text
            for pid, row in comparison.responses.items()
            for model, text in row.items()
            if model != IDEAL_MODEL_ID
        },
    )


def view_from_rows(
    rows: Iterable[CellRow],
    *,
    run_id: str,
    label: str,
    timestamp: str,
    prompt_ids: list[str],
    prompt_weights: dict[str, float | None],
    skipped: frozenset[str] = frozenset(),
) -> RunView:
    """The view of a stored run read straight from its cell rows (no comparison assembled).

    The same view as `view_from_comparison` of the run's assembled comparison, in a fraction
    of the time (a 10,000-cell run: no assessment objects are built): each stored result is
    read as a comparison file's cell is (`{error}` or the point assessments, as `cell_row`
    writes them).

    Args:
        rows: The run's stored cells.
        run_id: The run's id.
        label: Its blueprint's title, as the comparison names it.
        timestamp: The run's time.
        prompt_ids: The blueprint's prompt ids, sorted.
        prompt_weights: Each prompt's weight (None when unset).
        skipped: Prompts whose key-point extraction failed: left unscored, as the
            comparison leaves them.

    Raises:
        InputError: A stored result does not have the shape of a coverage result.
    """
    cells: dict[tuple[str, str], CellView] = {}
    responses: dict[tuple[str, str], str] = {}
    models: set[str] = set()
    for row in rows:
        pid, model = row.prompt_id, row.model_id
        if model == IDEAL_MODEL_ID:
            continue
        models.add(model)
        responses[(pid, model)] = (
            f"<<error>>{row.error}<</error>>" if row.failed else str(row.response or "")
        )
        if pid not in skipped:
            cells[(pid, model)] = _json_cell(row.result_data, run_id, (pid, model))
    return RunView(
        id=run_id,
        label=label,
        timestamp=timestamp,
        models=sorted(models),
        prompt_ids=prompt_ids,
        cells=cells,
        prompt_weights=prompt_weights,
        responses=responses,
    )
