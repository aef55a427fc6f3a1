"""A small comparison with two judges per text point, and verdicts on it, for the review tests."""

from __future__ import annotations

from typing import Any

from engine.comparison import Comparison, read_comparison
from engine.store import ReviewRow, answer_hash, criterion_hash

MODELS = ("openai:a", "openai:b")
VAGUE = "Is helpful."
CLEAR = "Names January 1 as the first day of the year."
ANSWERS = {
    ("p1", "openai:a"): "It is on January 1.",
    ("p1", "openai:b"): '=HYPERLINK("x") New year is on 1 January.',
    ("p2", "openai:a"): "Use a calendar.",
    ("p2", "openai:b"): "Ask someone.",
}
# (prompt, model) -> [(criterion, judge 1 score, judge 2 score)]
SCORES: dict[tuple[str, str], list[tuple[str, float, float]]] = {
    ("p1", "openai:a"): [(CLEAR, 1.0, 1.0), (VAGUE, 0.25, 0.875)],
    ("p1", "openai:b"): [(CLEAR, 0.875, 1.0), (VAGUE, 0.5, 0.5)],
    ("p2", "openai:a"): [(VAGUE, 0.5, 0.625)],
    ("p2", "openai:b"): [(VAGUE, 0.0, 0.125)],
}
BLUEPRINT = f"""title: New year
---
- id: p1
  prompt: When is new year?
  should:
    - {CLEAR}
    - {VAGUE}
- id: p2
  prompt: How do I find the date?
  should:
    - {VAGUE}
"""


def _point(text: str, one: float, two: float) -> dict[str, Any]:
    return {
        "keyPointText": text,
        "coverageExtent": (one + two) / 2,
        "multiplier": 1,
        "isInverted": False,
        "reflection": "both judges",
        "status": "scored",
        "individualJudgements": [
            {"judgeModelId": "judge:one", "coverageExtent": one, "reflection": "r1"},
            {"judgeModelId": "judge:two", "coverageExtent": two, "reflection": "r2"},
        ],
    }


def comparison() -> Comparison:
    """The comparison of the scores above."""
    coverage: dict[str, dict[str, Any]] = {}
    for (pid, model), points in SCORES.items():
        assessed = [_point(*p) for p in points]
        mean = sum(a["coverageExtent"] for a in assessed) / len(assessed)
        coverage.setdefault(pid, {})[model] = {
            "keyPointsCount": len(assessed),
            "avgCoverageExtent": mean,
            "pointAssessments": assessed,
        }
    responses: dict[str, dict[str, str]] = {}
    for (pid, model), text in ANSWERS.items():
        responses.setdefault(pid, {})[model] = text
    return read_comparison(
        {
            "configId": "new-year",
            "configTitle": "New year",
            "runLabel": "r",
            "timestamp": "t",
            "effectiveModels": list(MODELS),
            "promptIds": ["p1", "p2"],
            "allFinalAssistantResponses": responses,
            "evaluationResults": {"llmCoverageScores": coverage},
        }
    )


def review(
    pid: str,
    model: str,
    criterion: str,
    score: float,
    *,
    author: str = "me",
    verdict: str = "score",
    judge: float | None = None,
    comment: str | None = None,
    answer: str | None = None,
    index: int = 0,
) -> ReviewRow:
    """A verdict on the answer of `model` to `pid` (or on another answer text)."""
    return ReviewRow(
        pid,
        model,
        answer_hash(ANSWERS[(pid, model)] if answer is None else answer),
        criterion_hash(criterion),
        author,
        criterion,
        "agree" if verdict == "agree" else "score",
        score,
        judge,
        comment,
        "run-1",
        index,
        "2026-12-01T06:00:00.000+00:00",
    )
