"""Run point functions and convert their results into `PointAssessment`s (spec §3.2, one place).

Conversion: booleans become 1/0; numbers are clamped to [0, 1]; `{score, explain}` keeps a
string `explain` as the reflection; `{error}` makes the point `errored` (no score); any other
value is an error with upstream's wording. The score of a `should_not` point is then inverted
(1 - s), and a scored point without a reflection gets a sentence in the user's terms from
`engine.checks.wording` ("Contains 'sandals', which it should not: score 0.00.", the score with
JavaScript's `toFixed(2)`) where upstream writes `Function '<fn>' evaluated to <s>.`.
DELIBERATE DIFFERENCE: a NaN score makes the point `errored` (upstream lets NaN poison the
whole prompt's score). An errored or unverified point never has a score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from engine.assessment import PointAssessment, Status
from engine.blueprint.models import Blueprint, Point, Prompt
from engine.checks.context import CheckContext, CheckEnv
from engine.checks.outcome import Outcome
from engine.checks.registry import CATALOGUE
from engine.checks.wording import Wording, wording_for
from engine.evidence import Evidence
from engine.js.values import js_json_stringify, js_string, js_to_fixed, js_typeof

__all__ = ["convert_result", "evaluate_function_points", "evaluate_point"]

_FIXED: Final[dict[float, str]] = {0.0: "0.00", 1.0: "1.00"}


def _fixed(score: float) -> str:
    text = _FIXED.get(score)
    if text is None:
        text = js_to_fixed(score, 2)
        if len(_FIXED) < 4096:
            _FIXED[score] = text
    return text


_plans: dict[int, tuple[Point, dict[str, Any], Wording]] = {}
_UNCHECKED: Final = object()
_arg_problems: dict[int, Any] = {}  # id(point) -> the argument problem (None when valid)
_arg_points: dict[int, Point] = {}  # id(point) -> the point (guards against reused ids)


def _static_fields(point: Point) -> dict[str, Any]:
    """The assessment's fields in model order, those copied from the point filled in (cached)."""
    return _plan(point)[1]


def _plan(point: Point) -> tuple[Point, dict[str, Any], Wording]:
    """(point, its static assessment fields, its default-reflection wording), cached by id."""
    plan = _plans.get(id(point))
    if plan is None or plan[0] is not point:
        if len(_plans) >= 8192:
            _plans.clear()
        plan = (
            point,
            {
                "key_point_text": point.display_text,
                "coverage_extent": None,
                "multiplier": point.multiplier,
                "reflection": None,
                "error": None,
                "status": "scored",
                "path_id": point.path_id,
                "is_inverted": point.inverted,
                "citation": point.citation,
                "kind": "function",
                "fn": point.fn,
                "judge_model_id": None,
                "individual_judgements": None,
                "judge_spread": None,
                "findings": None,
                "evidence": None,
            },
            wording_for(point),
        )
        _plans[id(point)] = plan
    return plan


def _assessment(
    point: Point,
    *,
    score: float | None = None,
    reflection: str | None = None,
    error: str | None = None,
    status: Status = "scored",
    outcome: Outcome | None = None,
) -> PointAssessment:
    """Build the assessment without re-validating it (the hot path of scoring).

    Every value is already typed: the static fields come from a validated `Point`, the rest
    from this module's conversion. `tests/checks/test_evaluate.py` checks that the result
    equals a validated `PointAssessment`.
    """
    data = _static_fields(point).copy()
    data["coverage_extent"] = score
    data["reflection"] = reflection
    if error is not None:
        data["error"] = error
    if status != "scored":
        data["status"] = status
    if outcome is None:
        data["findings"] = []
        data["evidence"] = []
    else:
        data["findings"] = list(outcome.findings)
        data["evidence"] = list(outcome.evidence)
    return _make(data)


def _make(data: dict[str, Any]) -> PointAssessment:
    """A PointAssessment over already-typed field values, without re-validation."""
    return PointAssessment(**data)


def _errored(point: Point, error: str, reflection: str | None) -> PointAssessment:
    return _assessment(point, error=error, reflection=reflection, status="errored")


def _clamp(value: float) -> float:
    """`Math.max(0, Math.min(1, value))`; NaN stays NaN, huge integers are +/-Infinity."""
    try:
        number = float(value)
    except OverflowError:
        number = math.inf if value > 0 else -math.inf
    return number if math.isnan(number) else max(0.0, min(1.0, number))


def _score_of(result: Any) -> tuple[float | None, str | None, str | None]:
    """Return (score, reflection, error) for a plain (untyped) result."""
    if isinstance(result, bool):
        return (1.0 if result else 0.0), None, None
    if isinstance(result, int | float):
        return _clamp(result), None, None
    if isinstance(result, dict):
        if "error" in result:
            error = result["error"]
            return None, None, error if isinstance(error, str) else js_string(error)
        if "score" in result:
            raw = result["score"]
            explain = result.get("explain")
            reflection = explain if isinstance(explain, str) and explain else None
            if isinstance(raw, bool):
                return (1.0 if raw else 0.0), reflection, None
            if isinstance(raw, int | float):
                return _clamp(raw), reflection, None
            error = f"Invalid score type returned from point function: {js_typeof(raw)}"
            return None, reflection, error
        return None, None, f"Invalid return object from point function: {js_json_stringify(result)}"
    if isinstance(result, list):
        return None, None, f"Invalid return object from point function: {js_json_stringify(result)}"
    shown = js_json_stringify(result)
    return (
        None,
        None,
        f"Invalid return value from point function: {shown if shown is not None else 'undefined'}",
    )


def _nan(point: Point) -> PointAssessment:
    error = (
        f"Function '{point.fn}' returned NaN (not a number); the point is left out of the "
        "score instead of making the whole prompt's score NaN. Make the function return a "
        "number in [0, 1]."
    )
    return _errored(point, error, f"Error: {error}")


def convert_result(point: Point, result: Any) -> PointAssessment:
    """Convert a point function's return value into the point's assessment.

    Args:
        point: The function point (its inversion, weight, path and citation are copied).
        result: A boolean, a number, `{score, explain}`, `{error}` or an `Outcome`.
    """
    if result is True or result is False or type(result) is float:
        value: float = 1.0 if result is True else 0.0 if result is False else result
        if 0.0 <= value <= 1.0:  # the common case, built directly (NaN fails the test)
            _, fields, wording = _plan(point)
            final = 1.0 - value if point.inverted else value
            data = fields.copy()
            data["coverage_extent"] = final
            data["reflection"] = wording.reflection(value, _fixed(final))
            data["findings"] = []
            data["evidence"] = []
            return _make(data)
    if isinstance(result, Outcome):
        score = result.score if result.status == "scored" else None
        if score is not None and math.isnan(score):
            return _nan(point)
        raw = score
        if score is not None and point.inverted:
            score = 1.0 - score
        reflection = result.reflection
        if reflection is None and score is not None and raw is not None:
            reflection = _plan(point)[2].reflection(raw, _fixed(score))
        return _assessment(
            point,
            score=score,
            reflection=reflection,
            error=result.error,
            status=result.status,
            outcome=result,
        )
    score, reflection, error = _score_of(result)
    if error is not None:
        return _errored(point, error, reflection)
    if score is None:  # pragma: no cover - _score_of always gives a score or an error
        return _errored(point, "Invalid return value from point function", None)
    if math.isnan(score):
        return _nan(point)
    raw = score
    if point.inverted:
        score = 1.0 - score
    if reflection is None:
        reflection = _plan(point)[2].reflection(raw, _fixed(score))
    return _assessment(point, score=score, reflection=reflection)


def _evaluate(point: Point, ctx: CheckContext) -> PointAssessment:
    name = point.fn
    if name is None:
        error = "This is an LLM-judged text point, not a point function."
        return _assessment(point, error=error, status="errored").model_copy(
            update={"kind": "text", "fn": None}
        )
    check = CATALOGUE.get(name)
    if check is None:
        error = f"Unknown point function: '{name}'"
        return _errored(point, error, f"Error: {error}")
    try:
        # A point's arguments never change: validate them once per point, not per response.
        problem = _arg_problems.get(id(point), _UNCHECKED)
        if problem is _UNCHECKED or _arg_points.get(id(point)) is not point:
            if len(_arg_problems) >= 8192:
                _arg_problems.clear()
                _arg_points.clear()
            problem = None if check.typed else check.arg_error(point.args, point.has_args)
            _arg_problems[id(point)] = problem
            _arg_points[id(point)] = point
        result = (
            {"error": problem}
            if problem is not None
            else check.fn(ctx.evidence.text, point.args, ctx)
        )
        return convert_result(point, result)
    except Exception as exc:  # a failing check is a result, never an exception
        message = str(exc) or type(exc).__name__
        error = f"Error executing point function '{name}': {message}"
        return _errored(point, error, f"Error: {error}")


def evaluate_point(
    point: Point,
    evidence: Evidence,
    *,
    env: CheckEnv,
    blueprint: Blueprint | None = None,
    prompt: Prompt | None = None,
) -> PointAssessment:
    """Evaluate one function point against one response.

    Never raises for content: an unknown name, a bad argument, a crash inside the function or
    a sandbox limit all give an `errored` assessment.

    Args:
        point: A function point (`point.fn` set).
        evidence: What was recorded for the response; `evidence.text` is the subject text.
        env: Injected services (settings, HTTP client, limits, cache).
        blueprint: The blueprint, for `$call` named services.
        prompt: The prompt, for its id and `schema:`.
    """
    return _evaluate(point, CheckContext(evidence, env, blueprint, prompt))


def evaluate_function_points(
    points: Sequence[Point],
    evidence: Evidence,
    *,
    env: CheckEnv,
    blueprint: Blueprint | None = None,
    prompt: Prompt | None = None,
) -> list[PointAssessment]:
    """Evaluate the function points of `points` in order (text points are skipped)."""
    ctx = CheckContext(evidence, env, blueprint, prompt)
    return [_evaluate(point, ctx) for point in points if point.fn is not None]
