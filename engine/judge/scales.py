"""The judges' classification scales: Weval's 5-point and 9-point (spec §5.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["FIVE_POINT", "NINE_POINT", "JudgeClass", "Scale", "scale_for"]


@dataclass(frozen=True)
class JudgeClass:
    """One class of a scale: its name, score and the guideline shown to the judge."""

    name: str
    score: float
    description: str


@dataclass(frozen=True)
class Scale:
    """An ordered classification scale, from the lowest class to the highest."""

    name: str
    classes: tuple[JudgeClass, ...]

    def score(self, name: str) -> float | None:
        """Return the score of a class name, or None if the scale has no such class."""
        return next((c.score for c in self.classes if c.name == name), None)

    @property
    def lowest(self) -> JudgeClass:
        """The class for a criterion that is not met at all."""
        return self.classes[0]

    @property
    def highest(self) -> JudgeClass:
        """The class for a criterion that is fully met."""
        return self.classes[-1]

    def nearest(self, score: float) -> JudgeClass:
        """Return the class whose score is closest to `score` (for few-shot examples)."""
        return min(self.classes, key=lambda c: abs(c.score - score))


FIVE_POINT = Scale(
    "5-point",
    (
        JudgeClass("CLASS_UNMET", 0.0, "The criterion is not met."),
        JudgeClass("CLASS_PARTIALLY_MET", 0.25, "The criterion is partially met."),
        JudgeClass("CLASS_MODERATELY_MET", 0.5, "The criterion is moderately met."),
        JudgeClass("CLASS_MAJORLY_MET", 0.75, "The criterion is mostly met."),
        JudgeClass("CLASS_EXACTLY_MET", 1.0, "The criterion is fully met."),
    ),
)

NINE_POINT = Scale(
    "9-point",
    (
        JudgeClass("CLASS_UTTERLY_UNMET", 0.0, "The text contradicts or opposes the criterion."),
        JudgeClass("CLASS_UNMET", 0.001, "The criterion is absent from the text."),
        JudgeClass("CLASS_TRACE", 0.125, "There is only a faint trace of the criterion."),
        JudgeClass("CLASS_SLIGHT", 0.25, "The criterion is slightly met."),
        JudgeClass("CLASS_PARTIAL", 0.375, "The criterion is partly met."),
        JudgeClass("CLASS_MODERATE", 0.5, "The criterion is moderately met."),
        JudgeClass("CLASS_SUBSTANTIAL", 0.625, "The criterion is substantially met."),
        JudgeClass("CLASS_MAJOR", 0.75, "The criterion is mostly met."),
        JudgeClass("CLASS_VERY_NEARLY", 0.875, "The criterion is very nearly fully met."),
        JudgeClass("CLASS_EXACT", 1.0, "The criterion is fully and exactly met."),
    ),
)


def scale_for(evaluation_config: dict[str, Any]) -> Scale:
    """Return the scale a blueprint asks for.

    Weval forces the 9-point scale; we default to it too, and honour an explicit
    `useExperimentalScale: false` under `llm-coverage` by using the 5-point scale
    (docs/compat.md).
    """
    coverage = evaluation_config.get("llm-coverage")
    if isinstance(coverage, dict) and coverage.get("useExperimentalScale") is False:
        return FIVE_POINT
    return NINE_POINT
