"""One prompt × model: its point assessments in Weval's order, and its score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.assessment import PointAssessment
from engine.blueprint.models import Point, Prompt
from engine.js.values import js_clean, js_round
from engine.records import Record, coerce_floats
from engine.scoring.aggregation import ScoreExplanation, aggregate, explain

__all__ = ["CellScore", "failed_cell", "finish_cell", "ordered_points", "unjudged"]

UNJUDGED_REFLECTION = "Not judged: no LLM judge was configured for this run."


@dataclass(kw_only=True, slots=True)
class CellScore(Record):
    """The coverage result of one prompt × model (Weval's `CoverageResult`)."""

    prompt_id: str
    model_id: str
    assessments: list[PointAssessment] = field(default_factory=list)
    score: float | None = None
    """avgCoverageExtent (toFixed(2))."""
    error: str | None = None
    """Set when no response could be scored."""
    judge_agreement: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        coerce_floats(self, ("score",))

    @property
    def failed(self) -> bool:
        """True when no response could be scored (Weval's `{error}` cell)."""
        return self.error is not None and not self.assessments

    def explain(self) -> ScoreExplanation:
        """Return the arithmetic behind `score`."""
        return explain(self.assessments)

    def to_weval(self) -> dict[str, Any]:
        """Return Weval's JSON for this cell (`{error}` or the coverage result)."""
        if self.failed:
            return {"error": self.error}
        out: dict[str, Any] = {
            "keyPointsCount": len(self.assessments),
            "pointAssessments": [a.to_weval() for a in self.assessments],
        }
        if self.score is not None:
            out["avgCoverageExtent"] = int(self.score) if self.score.is_integer() else self.score
        if self.judge_agreement is not None:
            out["judgeAgreement"] = js_clean(self.judge_agreement)
        return out


def ordered_points(prompt: Prompt) -> tuple[list[Point], list[Point]]:
    """Split a prompt's points as Weval's evaluator does: function points, then text points."""
    functions = [p for p in prompt.points if p.fn is not None]
    texts = [p for p in prompt.points if p.fn is None]
    return functions, texts


def unjudged(point: Point) -> PointAssessment:
    """The assessment of a text point when no judge is available: unverified, left out."""
    return PointAssessment.model_construct(
        key_point_text=point.display_text,
        coverage_extent=None,
        multiplier=point.multiplier,
        reflection=UNJUDGED_REFLECTION,
        error=None,
        status="unverified",
        path_id=point.path_id,
        is_inverted=point.inverted,
        citation=point.citation,
        kind="text",
        fn=None,
        judge_model_id=None,
        individual_judgements=None,
        findings=[],
        evidence=[],
    )


def finish_cell(
    prompt_id: str,
    model_id: str,
    assessments: Sequence[PointAssessment],
    judge_agreement: dict[str, Any] | None = None,
) -> CellScore:
    """Score a cell from its assessments (function points first, then text points)."""
    raw = aggregate(assessments)
    return CellScore.model_construct(
        prompt_id=prompt_id,
        model_id=model_id,
        assessments=list(assessments),
        score=None if raw is None else js_round(raw, 2),
        error=None,
        judge_agreement=judge_agreement,
    )


def failed_cell(prompt_id: str, model_id: str, message: str | None) -> CellScore:
    """The cell of a response that could not be generated: Weval's `Generation failed` entry."""
    reason = message or "Model response generation failed or returned empty."
    return CellScore(prompt_id=prompt_id, model_id=model_id, error=f"Generation failed: {reason}")
