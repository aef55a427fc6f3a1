"""Judge calibration speed: a run of 1,000 prompts x 10 models x 3 judged points, 2 judges each.

Times, in one process: finding the run's 30,000 judged points (each answer hashed once), then
matching 3,000 reviewers' verdicts to them and calibrating every criterion (Krippendorff's
alpha between judges and against reviewers, the points to rewrite first). The studio does both
once per run and set of verdicts (then cached). Baseline in the same session: reading the
comparison (`read_comparison`), which every page that shows the run does anyway.
Run: python -m bench.review
"""

from __future__ import annotations

import time
from typing import Any

from engine.comparison import Comparison, read_comparison
from engine.review import calibrate, judged_points, match_reviews
from engine.store import ReviewRow

PROMPTS, MODELS, POINTS = 1000, 10, 3


def comparison_data() -> dict[str, Any]:
    """A comparison JSON of that size, judges disagreeing in a fixed pattern."""
    coverage: dict[str, dict[str, Any]] = {}
    responses: dict[str, dict[str, str]] = {}
    for p in range(PROMPTS):
        pid = f"p{p}"
        for m in range(MODELS):
            model = f"bench:m{m}"
            points = [
                {
                    "keyPointText": f"Point {k} of {pid}",
                    "coverageExtent": 0.5,
                    "multiplier": 1,
                    "isInverted": False,
                    "status": "scored",
                    "individualJudgements": [
                        {
                            "judgeModelId": "j1",
                            "coverageExtent": (p * k + m) % 9 / 8,
                            "reflection": "",
                        },
                        {
                            "judgeModelId": "j2",
                            "coverageExtent": (p + k * m) % 9 / 8,
                            "reflection": "",
                        },
                    ],
                }
                for k in range(POINTS)
            ]
            coverage.setdefault(pid, {})[model] = {
                "keyPointsCount": POINTS,
                "avgCoverageExtent": 0.5,
                "pointAssessments": points,
            }
            responses.setdefault(pid, {})[model] = f"answer {p} {m} " + "x" * 800
    return {
        "configId": "bench",
        "effectiveModels": [f"bench:m{m}" for m in range(MODELS)],
        "promptIds": [f"p{p}" for p in range(PROMPTS)],
        "allFinalAssistantResponses": responses,
        "evaluationResults": {"llmCoverageScores": coverage},
    }


def main() -> None:
    """Print the figures and their ratio to the baseline."""
    data = comparison_data()
    start = time.perf_counter()
    comparison: Comparison = read_comparison(data)
    baseline = time.perf_counter() - start
    start = time.perf_counter()
    points = judged_points(comparison)
    found = time.perf_counter() - start
    reviews = [
        ReviewRow(
            p.prompt_id,
            p.model,
            p.answer_hash,
            p.criterion_hash,
            "me",
            p.criterion,
            "score",
            0.0,
            p.judge_score,
            None,
            "bench",
            p.index,
            "t",
        )
        for p in points[::10]
    ]
    start = time.perf_counter()
    calibration = calibrate(points, match_reviews(points, reviews))
    calibrated = time.perf_counter() - start
    print(f"baseline read_comparison: {baseline:.3f} s")
    print(f"judged points ({len(points)}): {found:.3f} s ({found / baseline:.2f}x baseline)")
    print(
        f"match {len(reviews)} verdicts + calibrate: {calibrated:.3f} s "
        f"({calibrated / baseline:.2f}x baseline); {len(calibration.to_rewrite())} to rewrite"
    )


if __name__ == "__main__":
    main()
