"""Read a comparison JSON file (ours or Weval's) back into a `Comparison`, its shape checked."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from engine.assessment import PointAssessment
from engine.comparison.cost import RunCost
from engine.comparison.weval import Comparison
from engine.errors import InputError
from engine.jsonl import json_error_words, loads_like_js
from engine.records import is_validation_error
from engine.scoring.cells import CellScore
from engine.similarity.tables import SimilarityTables

__all__ = ["cell_from_weval", "read_comparison"]

_KNOWN = {
    "configId",
    "configTitle",
    "runLabel",
    "timestamp",
    "description",
    "config",
    "evalMethodsUsed",
    "effectiveModels",
    "modelSystemPrompts",
    "promptIds",
    "promptContexts",
    "allFinalAssistantResponses",
    "fullConversationHistories",
    "errors",
    "evaluationResults",
    "extractedKeyPoints",
    "blueprintStudio",
}


def _bad(where: str, what: str) -> InputError:
    return InputError(
        f"{where}: this is not a comparison JSON file ({what}). Open a "
        "`*_comparison.json` written by `blueprint run`/`blueprint score` or by Weval."
    )


def cell_from_weval(pid: str, model: str, raw: Any, where: str = "comparison") -> CellScore:
    """Read one `llmCoverageScores[prompt][model]` entry (ours or Weval's).

    Raises:
        InputError: The entry does not have the shape of a coverage result.
    """
    if raw is None:
        return CellScore(prompt_id=pid, model_id=model, error="No result recorded.")
    if not isinstance(raw, dict):
        raise _bad(where, f"llmCoverageScores[{pid!r}][{model!r}] is not an object")
    if "pointAssessments" not in raw and "error" in raw:
        return CellScore(prompt_id=pid, model_id=model, error=str(raw["error"]))
    points = raw.get("pointAssessments", [])
    if not isinstance(points, list) or not all(isinstance(p, dict) for p in points):
        raise _bad(where, f"pointAssessments of {pid!r} / {model!r} is not a list of objects")
    score = raw.get("avgCoverageExtent")
    agreement = raw.get("judgeAgreement")
    assessments = []
    for index, point in enumerate(points):
        try:
            assessments.append(PointAssessment.from_weval(point))
        except (ValueError, TypeError, AttributeError) as exc:  # ValidationError is a ValueError
            what = f"pointAssessments[{index}] of {pid!r} / {model!r} has a wrong shape"
            raise _bad(where, f"{what}: {_short(exc)}") from None
    return CellScore(
        prompt_id=pid,
        model_id=model,
        assessments=assessments,
        score=float(score) if isinstance(score, int | float) else None,
        judge_agreement=agreement if isinstance(agreement, dict) else None,
    )


def _short(exc: Exception) -> str:
    if is_validation_error(exc):
        first = cast(Any, exc).errors()[0]
        return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
    return str(exc).splitlines()[0][:200]


def _str_map(value: Any) -> dict[str, dict[str, str]]:
    if not isinstance(value, Mapping):
        return {}
    return {
        str(p): {str(m): str(t) for m, t in row.items() if isinstance(t, str)}
        for p, row in value.items()
        if isinstance(row, Mapping)
    }


def _key_points(value: Any) -> dict[str, list[str]]:
    """`extractedKeyPoints` as written (texts only; anything else is left out)."""
    if not isinstance(value, Mapping):
        return {}
    return {
        str(pid): [p for p in points if isinstance(p, str)]
        for pid, points in value.items()
        if isinstance(points, list)
    }


def _extraction_notes(studio: Any) -> dict[str, dict[str, Any]]:
    """Our `blueprintStudio.keyPointExtraction`: the extracting model, or the failure."""
    notes = studio.get("keyPointExtraction") if isinstance(studio, Mapping) else None
    if not isinstance(notes, Mapping):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for pid, note in notes.items():
        if isinstance(note, Mapping):
            out[str(pid)] = {
                k: v
                for k, v in note.items()
                if k in ("model", "error") and (v is None or isinstance(v, str))
            }
    return out


def read_comparison(source: Path | str | Mapping[str, Any]) -> Comparison:
    """Read a comparison JSON file (ours or Weval's) and validate its shape.

    Raises:
        InputError: The file is unreadable, not JSON, or not a comparison result; the message
            says what is missing.
    """
    if isinstance(source, Mapping):
        data: Any = dict(source)
        where = "comparison"
    else:
        where = str(source)
        try:
            data = loads_like_js(Path(source).read_text(encoding="utf-8"))
        except OSError as exc:
            raise InputError(f"{where}: cannot read the file ({exc.strerror or exc}).") from None
        except UnicodeDecodeError:
            raise InputError(f"{where}: not UTF-8 text; save it as UTF-8 JSON.") from None
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{where}:{exc.lineno}:{exc.colno}: not valid JSON: {json_error_words(exc)}."
            ) from None
        except RecursionError:
            raise _bad(where, "it is nested too deeply") from None
        except ValueError as exc:
            raise InputError(f"{where}: not valid JSON: {exc}.") from None
    if not isinstance(data, dict):
        raise _bad(where, "the top level is not an object")
    results = data.get("evaluationResults")
    if not isinstance(results, dict) or not isinstance(results.get("llmCoverageScores"), dict):
        raise _bad(where, "evaluationResults.llmCoverageScores is missing")
    coverage = results["llmCoverageScores"]
    cells: dict[str, dict[str, CellScore]] = {}
    for pid, row in coverage.items():
        if not isinstance(row, dict):
            raise _bad(where, f"llmCoverageScores[{pid!r}] is not an object")
        cells[str(pid)] = {
            str(m): cell_from_weval(str(pid), str(m), raw, where) for m, raw in row.items()
        }
    models = data.get("effectiveModels")
    if not isinstance(models, list):
        models = sorted({m for row in cells.values() for m in row})
    prompt_ids = data.get("promptIds")
    if not isinstance(prompt_ids, list):
        prompt_ids = sorted(cells)
    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    studio = data.get("blueprintStudio")
    systems = data.get("modelSystemPrompts")
    methods = data.get("evalMethodsUsed")
    histories = data.get("fullConversationHistories")
    return Comparison(
        config_id=str(data.get("configId") or "comparison"),
        config_title=str(data.get("configTitle") or data.get("configId") or "Comparison"),
        run_label=str(data.get("runLabel") or ""),
        timestamp=str(data.get("timestamp") or ""),
        description=data.get("description") if isinstance(data.get("description"), str) else None,
        config=config or {},
        models=[str(m) for m in models],
        prompt_ids=[str(p) for p in prompt_ids],
        prompt_contexts=dict(data["promptContexts"])
        if isinstance(data.get("promptContexts"), dict)
        else {},
        system_prompts={
            str(k): (v if isinstance(v, str) else None) for k, v in (systems or {}).items()
        }
        if isinstance(systems, dict)
        else {},
        responses=_str_map(data.get("allFinalAssistantResponses")),
        histories={
            str(p): {str(m): list(h) for m, h in row.items() if isinstance(h, list)}
            for p, row in histories.items()
            if isinstance(row, dict)
        }
        if isinstance(histories, dict)
        else {},
        errors=_str_map(data.get("errors")),
        cells=cells,
        extracted_key_points=_key_points(data.get("extractedKeyPoints")),
        key_point_extraction=_extraction_notes(data.get("blueprintStudio")),
        extra={k: v for k, v in data.items() if k not in _KNOWN},
        eval_methods=[str(m) for m in methods] if isinstance(methods, list) else ["llm-coverage"],
        similarity=SimilarityTables.from_weval(results),
        cost=RunCost.from_json(studio.get("cost")) if isinstance(studio, dict) else None,
    )
