"""Aggregation exactly as Weval's coverage-logic (spec §4), and explain-my-score reproducing it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.assessment import PointAssessment
from engine.js.values import js_round, js_to_fixed
from engine.scoring import aggregate, explain, finish_cell


def pa(score, weight=1.0, path=None, status="scored", inverted=False, text="p"):
    return PointAssessment(
        key_point_text=text,
        coverage_extent=score if status == "scored" else None,
        multiplier=weight,
        status=status,
        path_id=path,
        is_inverted=inverted,
    )


def score_of(points):
    raw = aggregate(points)
    ex = explain(points)
    # explain-my-score reproduces the number exactly, every time
    assert ex.raw == raw
    assert ex.score == (None if raw is None else js_round(raw, 2))
    return raw


# Upstream's coverage-logic.test.ts table (spec §7.3).
@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([pa(1), pa(0.5), pa(0)], 0.5),
        ([pa(1, 2), pa(0.5, 1)], 0.8333333333),
        ([pa(1), pa(None, status="errored"), pa(0.5)], 0.75),
        ([pa(1, 3), pa(0.2), pa(0.8, 0.5)], 0.8),
        ([pa(0), pa(0)], 0.0),
        ([pa(0.8, path="p1"), pa(0, path="p1"), pa(0.8, path="p2"), pa(1, path="p2")], 0.9),
        ([pa(1, 3, "p1"), pa(0, 1, "p1"), pa(0.5, 2, "p2"), pa(0.8, 1, "p2")], 0.75),
        ([pa(0.8), pa(0.6), pa(0.2, path="p1"), pa(0.4, path="p1"), pa(1.0, path="p2")], 0.85),
        ([pa(0.3, path="a"), pa(0.9, path="b"), pa(0.1, path="c")], 0.9),
        (
            [
                pa(0.8, path="p1"),
                pa(None, path="p1", status="errored"),
                pa(0.5, path="p2"),
                pa(0.7, path="p2"),
            ],
            0.8,
        ),
        ([pa(None, path="p1", status="errored"), pa(0.4, path="p2"), pa(0.6, path="p2")], 0.5),
        ([pa(0.8), pa(0.6), pa(1)], 0.8),
        ([pa(0.8, path=""), pa(0.6, path="  "), pa(1)], 0.8),
    ],
)
def test_upstream_coverage_logic_table(points, expected):
    assert score_of(points) == pytest.approx(expected)


def test_worked_example_0425():
    points = [
        pa(1.0),
        pa(0.75),
        pa(0.5),
        pa(0.2, path="path_3"),
        pa(0.0, path="path_3"),
        pa(0.0, path="path_4"),
        pa(0.0, path="path_4"),
    ]
    assert score_of(points) == pytest.approx(0.425)
    ex = explain(points)
    required, paths = ex.groups
    assert required.kind == "required"
    assert required.score == pytest.approx(0.75)
    assert paths.winner == "path_3"
    assert paths.score == pytest.approx(0.1)
    # (0.75 + 0.1) / 2 is 0.42499999999999998889... in binary: JavaScript's toFixed(2) gives 0.42
    assert ex.score == 0.42


def test_worked_example_multipliers_0875():
    assert score_of([pa(1.0, 3), pa(0.5, 1)]) == pytest.approx(0.875)
    assert finish_cell("p", "m", [pa(1.0, 3), pa(0.5, 1)]).score == 0.88


def test_single_element_path_pitfall():
    # `- - $imatches: Lagos…` / `- - $imatches: Kinshasa…`: two one-point OR paths.
    one_matches = [pa(1.0, path="path_0"), pa(0.0, path="path_1")]
    assert score_of(one_matches) == 1.0  # OR: either path satisfies the block
    flat = [pa(1.0), pa(0.0)]
    assert score_of(flat) == 0.5  # the fix the docs recommend: an AND-average
    # Beside required points averaging 0.8, two failed paths halve the score.
    assert score_of([pa(0.8), pa(0.0, path="path_1"), pa(0.0, path="path_2")]) == pytest.approx(0.4)


def test_or_logic_integration_facts():
    paths = [pa(s, path="p1") for s in (0.1, 0.2, 0.8)] + [
        pa(s, path="p2") for s in (0.8, 0.85, 0.9)
    ]
    paths += [pa(s, path="p3") for s in (1.0, 0.9)]
    assert score_of(paths) == pytest.approx(0.95)
    assert score_of([pa(0.8), pa(0.3, path="p1"), pa(0.9, path="p2")]) == pytest.approx(0.85)


def test_rich_object_weights_easy_hard():
    assert score_of([pa(1.0, 0.5), pa(0.5, 2.0)]) == pytest.approx(0.6)


def test_errored_and_unverified_are_left_out_not_zero():
    points = [pa(1.0), pa(None, status="errored"), pa(None, status="unverified")]
    assert score_of(points) == 1.0
    ex = explain(points)
    assert [line.status for line in ex.left_out] == ["errored", "unverified"]


def test_nothing_scored_means_no_score_not_zero():
    assert score_of([]) is None
    assert score_of([pa(None, status="errored")]) is None
    cell = finish_cell("p", "m", [pa(None, status="unverified")])
    assert cell.score is None
    assert "avgCoverageExtent" not in cell.to_weval()


def test_nan_scores_never_poison_the_mean():
    assert score_of([pa(1.0), pa(math.nan)]) == 1.0


def test_should_not_paths_merge_with_should_paths_of_the_same_index_as_weval_does():
    # Weval pools every point with pathId path_0 into one group (spec §4.3); we keep that
    # (docs/compat.md) and flag it in the explanation.
    points = [pa(1.0, path="path_0"), pa(0.0, path="path_0", inverted=True)]
    assert score_of(points) == 0.5
    (group,) = explain(points).groups
    assert group.paths[0].merged_should_not


# The rounding table of spec §4.4: JavaScript toFixed(2), not Python's round.
@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.125, "0.13"),
        (0.625, "0.63"),
        (0.375, "0.38"),
        (0.875, "0.88"),
        (1.005, "1.00"),
        (2.675, "2.67"),
    ],
)
def test_rounding_is_javascript_to_fixed(value, text):
    assert js_to_fixed(value, 2) == text
    assert js_round(value, 2) == float(text)


def test_python_round_would_be_wrong_here():
    assert round(0.125, 2) == 0.12
    assert js_round(0.125, 2) == 0.13


score_st = st.one_of(st.none(), st.floats(0, 1, allow_nan=False))
point_st = st.builds(
    lambda s, w, path, status: pa(
        s if status == "scored" and s is not None else None,
        w,
        path,
        status if s is not None else "errored",
    ),
    score_st,
    st.sampled_from([0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0]),
    st.sampled_from([None, None, "path_1", "path_2", "path_4"]),
    st.sampled_from(["scored", "scored", "errored", "unverified"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(point_st, max_size=12))
def test_explain_always_reproduces_the_score(points):
    raw = aggregate(points)
    ex = explain(points)
    assert ex.raw == raw
    if raw is not None:
        groups = [g.score for g in ex.groups]
        assert sum(groups) / len(groups) == raw
        assert 0.0 <= raw <= 1.0


@settings(max_examples=400, deadline=None)
@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), st.integers(0, 4))
def test_to_fixed_agrees_with_a_real_javascript_engine(value, digits):
    import quickjs

    ctx = quickjs.Context()
    expected = ctx.eval(f"({value!r}).toFixed({digits})")
    assert js_to_fixed(value, digits) == expected
