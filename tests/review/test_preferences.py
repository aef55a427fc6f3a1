"""People's picks between two answers: tasks, blind order, canonical picks, win rates, agreement."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from engine.comparison import IDEAL_MODEL_ID, read_comparison
from engine.review.preferences import (
    SAME_MARGIN,
    PairTask,
    agreement,
    canonical_pick,
    cell_scores,
    judges_choice,
    pair_tasks,
    preferences_csv,
    served_order,
    shown_order,
    win_rates,
)
from engine.stats.proportion import wilson
from engine.store import PreferenceRow

A, B, C = "openai:a", "openai:b", "openai:c"


def pick(choice: str, pid: str = "p1", a: str = A, b: str = B, who: str = "me") -> PreferenceRow:
    return PreferenceRow("run-1", pid, a, b, who, choice, "2026-12-01T06:00:00.000+00:00")  # type: ignore[arg-type]


def comparison(scores: dict[tuple[str, str], float | None], answers: dict[tuple[str, str], str]):
    coverage: dict[str, dict[str, Any]] = {}
    for (pid, model), score in scores.items():
        coverage.setdefault(pid, {})[model] = (
            {"error": "the provider failed", "pointAssessments": []}
            if score is None
            else {"keyPointsCount": 1, "avgCoverageExtent": score, "pointAssessments": []}
        )
    responses: dict[str, dict[str, str]] = {}
    for (pid, model), text in answers.items():
        responses.setdefault(pid, {})[model] = text
    return read_comparison(
        {
            "configId": "c",
            "configTitle": "C",
            "runLabel": "r",
            "timestamp": "t",
            "effectiveModels": sorted({m for _, m in answers}),
            "promptIds": sorted({p for p, _ in answers}),
            "allFinalAssistantResponses": responses,
            "evaluationResults": {"llmCoverageScores": coverage},
        }
    )


def test_wilson_matches_the_published_interval_and_stays_in_bounds():
    eight = wilson(8, 10)
    assert eight.rate == 0.8
    assert (round(eight.low or 0, 4), round(eight.high or 0, 4)) == (0.4902, 0.9433)
    none = wilson(0, 10)
    assert none.low == 0.0 and round(none.high or 0, 4) == 0.2775  # not empty at 0
    assert wilson(0, 0).rate is None and wilson(0, 0).low is None
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_every_prompt_gives_each_pair_of_answering_models_once():
    comp = comparison(
        {("p1", A): 0.5, ("p1", B): 0.7, ("p1", C): 0.2, ("p2", A): 0.5, ("p2", B): None},
        {
            ("p1", A): "a1",
            ("p1", B): "b1",
            ("p1", C): "c1",
            ("p1", IDEAL_MODEL_ID): "the ideal",
            ("p2", A): "a2",
            ("p2", B): "",  # failed: no answer
            ("p2", C): "   ",  # nothing to read
        },
    )
    found = {(t.prompt_id, t.model_a, t.model_b) for t in pair_tasks(comp, "run-1")}
    assert found == {("p1", A, B), ("p1", A, C), ("p1", B, C)}


def test_a_pick_is_stored_in_canonical_terms_whatever_was_shown_first():
    assert canonical_pick(B, A, "A") == (A, B, "b")  # B was shown as A and picked
    assert canonical_pick(B, A, "B") == (A, B, "a")
    assert canonical_pick(A, B, "A") == (A, B, "a")
    assert canonical_pick(B, A, "same") == (A, B, "same")
    with pytest.raises(ValueError):
        canonical_pick(A, A, "A")
    with pytest.raises(ValueError, match="sorted order"):
        pick("a", a=B, b=A)


def test_the_order_is_random_per_session_but_stable_on_a_redraw():
    tasks = [PairTask("run-1", f"p{i}", A, B) for i in range(400)]
    one = [shown_order(t, "seed-1").first for t in tasks]
    assert one == [shown_order(t, "seed-1").first for t in tasks]  # a redraw keeps it
    shown_first = one.count(A) / len(one)
    assert 0.4 < shown_first < 0.6  # position does not tell which model wrote an answer
    other = [shown_order(t, "seed-2").first for t in tasks]
    assert other != one  # another session draws again
    for t in tasks[:20]:
        s = shown_order(t, "seed-1")
        assert {s.first, s.second} == {A, B}
        assert A not in t.token and "openai" not in t.token  # widget keys name no model
    served = served_order(tasks, "seed-1")
    assert sorted(served, key=lambda t: t.prompt_id) == sorted(tasks, key=lambda t: t.prompt_id)
    assert served != tasks and served == served_order(tasks, "seed-1")


def test_win_rates_count_a_tie_as_half_a_win_with_a_wilson_interval():
    picks = [pick("a"), pick("a", "p2"), pick("same", "p3"), pick("b", "p4"), pick("b", a=B, b=C)]
    ab, bc = win_rates(picks)
    assert (ab.model_a, ab.model_b, ab.a_better, ab.b_better, ab.same, ab.picks) == (
        A,
        B,
        2,
        1,
        1,
        4,
    )
    assert ab.rate.rate == 0.625
    assert (ab.rate.low, ab.rate.high) == (wilson(2.5, 4).low, wilson(2.5, 4).high)
    assert ab.rate.low is not None and ab.rate.low < 0.625 < (ab.rate.high or 0)
    assert (bc.model_a, bc.model_b, bc.rate.rate) == (B, C, 0.0)


def test_judges_agree_by_the_higher_score_or_within_the_margin_for_same():
    assert judges_choice(0.8, 0.5) == "a"
    assert judges_choice(0.5, 0.8) == "b"
    assert judges_choice(0.5, 0.5 + SAME_MARGIN) == "same"
    assert judges_choice(0.5, 0.56) == "b"
    assert judges_choice(None, 0.5) is None
    comp = comparison(
        {("p1", A): 0.9, ("p1", B): 0.4, ("p2", A): 0.6, ("p2", B): 0.62, ("p3", A): 0.5},
        {("p1", A): "x", ("p1", B): "y", ("p2", A): "x", ("p2", B): "y", ("p3", A): "x"},
    )
    found = agreement(
        [
            pick("a"),
            pick("b", who="ana"),
            pick("same", "p2"),
            pick("a", "p2", who="ana"),
            pick("a", "p3"),
        ],
        cell_scores(comp),
    )
    # p1: a agrees, b does not; p2 (0.02 apart): same agrees, a does not; p3 has no B score
    assert (found.counted, found.agreed, found.left_out) == (4, 2, 1)
    assert found.rate.rate == 0.5


def test_the_csv_has_one_row_per_pair_and_defuses_formulas():
    rates = win_rates([pick("a"), pick("same", "p2")])
    rows = list(csv.DictReader(io.StringIO(preferences_csv(rates, {A: "=cmd()", B: "B"}))))
    assert rows == [
        {
            "model_a": "'=cmd()",
            "model_b": "B",
            "picks": "2",
            "a_better": "1",
            "b_better": "0",
            "about_the_same": "1",
            "a_win_rate": "0.7500",
            "a_win_rate_low": f"{wilson(1.5, 2).low:.4f}",
            "a_win_rate_high": f"{wilson(1.5, 2).high:.4f}",
        }
    ]
