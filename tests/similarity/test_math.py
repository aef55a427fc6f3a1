"""Weval's cosine, hybrid score and standard deviation facts (spec §5.10, §6.5)."""

from __future__ import annotations

import math

import pytest

from engine.scoring.summary import sample_stddev
from engine.similarity import cosine_similarity, hybrid_score


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ([1, 2, 3], [1, 2, 3], 1.0),
        ([1, 2, 3], [-1, -2, -3], -1.0),
        ([1, 0], [0, 1], 0.0),
        ([1, 2, 3, 4], [4, 3, 2, 1], 0.6667),
        ([], [], 1.0),  # two empty vectors are perfectly similar
        ([0, 0], [1, 2], 0.0),  # a zero vector gives 0
    ],
)
def test_cosine_facts(a, b, expected):
    assert round(cosine_similarity(a, b), 4) == expected


def test_cosine_is_clamped_to_one():
    # rounding puts the raw cosine of this vector with itself at 1.0000000000000002
    v = [0.02834747652200631, 0.8357651039198697, 0.43276706790505337]
    assert cosine_similarity(v, v) == 1.0
    assert cosine_similarity(v, [-x for x in v]) == -1.0


def test_cosine_of_different_lengths_is_refused_with_wevals_message():
    with pytest.raises(ValueError, match="Vectors must have the same length"):
        cosine_similarity([1, 2], [1, 2, 3])


@pytest.mark.parametrize(
    ("values", "expected"),
    [([1, 2, 3, 4, 5], 1.5811), ([10, 10, 10, 10], 0.0), ([5, 7, 9, 11, 13], 3.1623)],
)
def test_standard_deviation_facts(values, expected):
    result = sample_stddev([float(v) for v in values])
    assert result is not None and round(result, 4) == expected


@pytest.mark.parametrize("values", [[], [3.0]])
def test_standard_deviation_needs_two_values(values):
    assert sample_stddev(values) is None


@pytest.mark.parametrize(
    ("sim", "cov", "expected"),
    [
        (0.9, 0.4, 0.4),  # both: similarity weighs 0, coverage 1
        (0.9, -0.2, 0.0),  # positive parts only
        (0.7, None, 0.7),  # only similarity
        (-0.3, None, 0.0),
        (None, 0.55, 0.55),  # only coverage
        (math.nan, 0.5, 0.5),  # NaN is not a valid input
        (0.8, math.nan, 0.8),
        (None, None, None),
        (math.nan, math.nan, None),
    ],
)
def test_hybrid_score(sim, cov, expected):
    assert hybrid_score(sim, cov) == expected
