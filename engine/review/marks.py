"""Editor marks from a run: info diagnostics at the points whose judges or reviewers disagreed.

The loop closes where the rubric is written: a criterion that a run found hard to judge
(`engine.review.calibration`) is marked at its line in the blueprint being edited, with the
run and the disagreement in the message. A point is found by its prompt id and its text, so
once it is rewritten the mark goes away.
"""

from __future__ import annotations

from engine.blueprint import Blueprint
from engine.js.values import format_score
from engine.lint import Diagnostic
from engine.review.calibration import CriterionCalibration, RunCalibration

__all__ = ["MARK_CODE", "disagreement_message", "rewrite_marks"]

MARK_CODE = "judges-disagree"
"""The diagnostic code of these marks (`engine.lint.RUN_CODES`)."""


def _answers(n: int) -> str:
    return f"{n} answer" if n == 1 else f"{n} answers"


def disagreement_message(item: CriterionCalibration, run_name: str) -> str:
    """What a mark says: the run, how far apart the judges (and reviewers) were, what to do."""
    parts: list[str] = []
    if item.judges_split:
        parts.append(
            f"judges gave {format_score(item.spread_low)}–{format_score(item.spread_high)} on "
            f"this point in {run_name} (the answer of {item.spread_model})"
        )
    if item.reviewers_differ:
        sides = []
        if item.judge_high:
            sides.append(f"judges higher than the reviewer on {_answers(item.judge_high)}")
        if item.judge_low:
            sides.append(f"lower on {_answers(item.judge_low)}")
        said = f" ({', '.join(sides)})" if sides else ""
        parts.append(
            f"reviewers differed from the judges by up to {format_score(item.largest_gap)} "
            f"in {run_name}{said}"
        )
    text = "; ".join(parts)
    return (
        f"{text[:1].upper()}{text[1:]}: make it more specific (say exactly what must be in "
        "the answer), so every judge reads it the same way."
    )


def rewrite_marks(
    blueprint: Blueprint, calibration: RunCalibration, run_name: str
) -> list[Diagnostic]:
    """Info diagnostics at the points to rewrite first that `blueprint` still has, unchanged.

    Args:
        blueprint: The blueprint being edited (its points keep their spans).
        calibration: The calibration of a run of this blueprint (or of an earlier version).
        run_name: How to name the run in the message (e.g. `run abc… of 2026-12-01 06:00`).
    """
    prompts = {p.id: p for p in blueprint.prompts}
    out: list[Diagnostic] = []
    for item in calibration.to_rewrite():
        prompt = prompts.get(item.prompt_id)
        if prompt is None:
            continue
        point = next(
            (p for p in prompt.points if p.fn is None and p.text == item.criterion and p.span),
            None,
        )
        if point is None or point.span is None:
            continue
        span = point.span
        out.append(
            Diagnostic(
                line=span.line,
                column=span.column,
                end_line=span.end_line,
                end_column=span.end_column,
                severity="info",
                code=MARK_CODE,
                message=disagreement_message(item, run_name),
            )
        )
    return sorted(out, key=Diagnostic.sort_key)
