"""Krippendorff's alpha on the published example, judge calibration, and the editor's marks."""

from __future__ import annotations

import pytest

from engine.blueprint import parse_blueprint
from engine.judge.agreement import interval_alpha
from engine.review import calibrate, judged_points, match_reviews
from engine.review.marks import MARK_CODE, rewrite_marks
from tests.review.data import BLUEPRINT, CLEAR, VAGUE, comparison, review

N = None
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the example with missing
# values: 4 observers, 12 units; published alpha (interval) = 0.849.
OBSERVERS = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
    [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],
]


def test_interval_alpha_matches_krippendorffs_published_example():
    units = [list(unit) for unit in zip(*OBSERVERS, strict=True)]
    alpha = interval_alpha(units)
    assert alpha is not None and round(alpha, 3) == 0.849


def test_interval_alpha_edge_cases():
    assert interval_alpha([[0.5, 0.5], [1.0, 1.0]]) == 1.0  # perfect agreement
    assert interval_alpha([[0.1, 0.1, 0.1]] * 3) == 1.0  # all the same, despite rounding
    assert interval_alpha([[0.5, 0.5]]) is None  # one unit: nothing to compare against
    assert interval_alpha([[0.5, None], [None, 1.0]]) is None  # nothing pairable
    assert interval_alpha([[0.0, 1.0], [1.0, 0.0]]) < 0  # worse than chance


def test_every_judged_text_point_is_found_with_its_judges():
    points = judged_points(comparison())
    assert len(points) == 6
    vague = next(
        p for p in points if (p.prompt_id, p.model, p.criterion) == ("p1", "openai:a", VAGUE)
    )
    assert (vague.index, vague.number, vague.judge_score) == (1, 2, pytest.approx(0.5625))
    assert dict(vague.judges) == {"judge:one": 0.25, "judge:two": 0.875}


def test_a_verdict_matches_the_same_answer_and_point_in_any_run_only():
    comp = comparison()
    points = judged_points(comp)
    same = review("p1", "openai:a", VAGUE, 0.25)  # given in another run of the same answer
    other_answer = review("p1", "openai:b", VAGUE, 0.25, answer="A different answer.")
    other_point = review("p1", "openai:a", "Is polite.", 0.25)
    matched = match_reviews(points, [same, other_answer, other_point])
    assert matched == {("p1", "openai:a", 1): [same]}


def test_calibration_finds_split_judges_and_reviewer_disagreement():
    comp = comparison()
    points = judged_points(comp)
    verdicts = [
        review("p2", "openai:a", VAGUE, 0.0),  # judges 0.5625: judge high, human low
        review("p1", "openai:b", CLEAR, 0.9375, verdict="agree"),
        review("p2", "openai:b", VAGUE, 0.5),  # judges 0.0625: judge low, human high
    ]
    cal = calibrate(points, match_reviews(points, verdicts))
    by = {(c.prompt_id, c.criterion): c for c in cal.criteria}
    split = by[("p1", VAGUE)]
    assert (split.spread_low, split.spread_high, split.spread_model) == (0.25, 0.875, "openai:a")
    assert split.judges_split and not split.reviewers_differ
    clear = by[("p1", CLEAR)]
    assert not clear.to_rewrite and clear.reviewed == 1 and clear.largest_gap == 0
    p2 = by[("p2", VAGUE)]
    assert (p2.reviewed, p2.judge_high, p2.judge_low) == (2, 1, 1)
    assert p2.reviewers_differ and not p2.judges_split
    assert p2.human_alpha is not None and p2.human_alpha < 0.5
    assert [(c.prompt_id, c.criterion) for c in cal.to_rewrite()] == [("p1", VAGUE), ("p2", VAGUE)]
    assert (cal.reviewed, cal.judge_high, cal.judge_low) == (3, 1, 1)
    assert cal.judge_alpha is not None and cal.human_alpha is not None


def test_reviewers_who_agree_everywhere_give_alpha_one():
    points = judged_points(comparison())
    verdicts = [
        review(p.prompt_id, p.model, p.criterion, p.judge_score, verdict="agree") for p in points
    ]
    cal = calibrate(points, match_reviews(points, verdicts))
    assert cal.human_alpha == 1.0 and cal.judge_high == cal.judge_low == 0
    assert cal.reviewed == len(points)


def test_the_editor_marks_the_points_to_rewrite_at_their_lines():
    points = judged_points(comparison())
    cal = calibrate(points, match_reviews(points, [review("p2", "openai:a", VAGUE, 0.0)]))
    marks = rewrite_marks(parse_blueprint(BLUEPRINT), cal, "run r1 of 2026-12-01 06:00")
    lines = BLUEPRINT.splitlines()
    assert [(d.code, d.severity) for d in marks] == [(MARK_CODE, "info")] * 2
    assert [lines[d.line - 1].strip() for d in marks] == [f"- {VAGUE}", f"- {VAGUE}"]
    assert [d.line for d in marks] == [7, 11]
    assert "Judges gave 0.25–0.88 on this point in run r1 of 2026-12-01 06:00" in marks[0].message
    assert "openai:a" in marks[0].message and "more specific" in marks[0].message
    assert "Reviewers differed from the judges by up to 0.56" in marks[1].message


def test_a_rewritten_point_loses_its_mark():
    points = judged_points(comparison())
    cal = calibrate(points, match_reviews(points, []))
    edited = BLUEPRINT.replace(f"    - {VAGUE}\n- id: p2", "    - Says the date.\n- id: p2")
    assert [d.line for d in rewrite_marks(parse_blueprint(BLUEPRINT), cal, "run r")] == [7]
    assert rewrite_marks(parse_blueprint(edited), cal, "run r") == []
