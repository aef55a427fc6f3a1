"""Intervals, paired differences and power checked against figures worked out by hand."""

from __future__ import annotations

import math

import pytest

from engine.stats import (
    estimate,
    minimum_detectable,
    paired,
    prompts_needed,
    t_cdf,
    t_quantile,
)


@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.7062), (2, 4.30265), (4, 2.77645), (11, 2.200985), (29, 2.04523), (1000, 1.96234)],
)
def test_the_t_quantile_matches_the_published_tables(df: int, expected: float):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=5e-5)


def test_the_t_quantile_inverts_the_t_distribution_and_is_symmetric():
    for df in (1, 3, 7, 30, 200):
        for p in (0.6, 0.9, 0.995):
            assert t_cdf(t_quantile(p, df), df) == pytest.approx(p, abs=1e-9)
            assert t_quantile(1 - p, df) == pytest.approx(-t_quantile(p, df), abs=1e-9)
    with pytest.raises(ValueError):
        t_quantile(1.0, 5)


def _scores(*values: float) -> dict[str, float]:
    return {f"p{i}": v for i, v in enumerate(values)}


def test_a_hand_computed_interval_over_five_prompts():
    # mean 0.7; squared deviations sum to 0.10; sd = sqrt(0.10 / 4) = 0.158114;
    # se = 0.158114 / sqrt(5) = 0.0707107; t(0.975, 4) = 2.776445; half width 0.196324
    e = estimate(_scores(0.5, 0.7, 0.9, 0.6, 0.8))
    assert e.n == 5
    assert e.mean == pytest.approx(0.7)
    assert e.sd == pytest.approx(0.158114, abs=1e-6)
    assert e.se == pytest.approx(0.0707107, abs=1e-7)
    assert (e.low, e.high) == (pytest.approx(0.503676, abs=1e-6), pytest.approx(0.896324, abs=1e-6))


def test_weighted_prompts_use_the_weighted_mean_and_its_standard_error():
    # m = (2*1 + 1*0 + 1*0.5) / 4 = 0.625;
    # se² = (4*0.375² + 0.625² + 0.125²) / 4² × 3/2 = 0.96875 / 16 × 1.5 = 0.0908203
    e = estimate(_scores(1.0, 0.0, 0.5), {"p0": 2, "p1": 1, "p2": None})
    assert e.mean == pytest.approx(0.625)
    assert e.se == pytest.approx(math.sqrt(0.0908203), abs=1e-6)
    plain = estimate(_scores(1.0, 0.0, 0.5))
    same = estimate(_scores(1.0, 0.0, 0.5), {"p0": 3, "p1": 3, "p2": 3})
    assert (same.mean, same.se, same.low) == pytest.approx((plain.mean, plain.se, plain.low))


def test_pairing_separates_models_whose_own_intervals_overlap():
    a = _scores(0.2, 0.4, 0.6, 0.8, 1.0)
    b = _scores(0.1, 0.32, 0.5, 0.68, 0.9)
    ea, eb = estimate(a), estimate(b)
    assert ea.low is not None and ea.high is not None and eb.low is not None
    assert eb.high is not None
    # unpaired: each interval holds the other's mean, and the two-sample interval holds 0
    assert ea.low < eb.mean < ea.high and eb.low < ea.mean < eb.high
    unpaired_half = t_quantile(0.975, 8) * math.sqrt(ea.se**2 + eb.se**2)  # type: ignore[operator]
    assert abs(ea.mean - eb.mean) < unpaired_half  # type: ignore[operator]
    # paired: d = [0.1, 0.08, 0.1, 0.12, 0.1], sd 0.0141421, se 0.00632456, half 0.0175597
    d = paired(a, b)
    assert d.mean == pytest.approx(0.1)
    assert (d.low, d.high) == (pytest.approx(0.08244, abs=1e-5), pytest.approx(0.11756, abs=1e-5))
    assert d.separable


def test_the_same_difference_on_every_prompt_is_separable_without_an_interval():
    a = _scores(0.2, 0.4, 0.6, 0.8, 1.0)
    d = paired(a, {p: v - 0.1 for p, v in a.items()})
    assert d.mean == pytest.approx(0.1)
    assert d.se == 0 and not d.has_interval
    assert d.separable
    assert not paired(a, a).separable


def test_only_the_prompts_both_scored_are_paired():
    d = paired({"x": 1.0, "y": 0.5, "z": 0.0}, {"y": 0.25, "z": 0.5, "w": 1.0})
    assert d.n == 2
    assert d.mean == pytest.approx((0.25 - 0.5) / 2)


def test_one_prompt_or_identical_scores_give_no_interval_and_no_nan():
    one = estimate({"only": 0.4})
    assert (one.mean, one.n, one.low, one.high, one.se) == (0.4, 1, None, None, None)
    assert not one.has_interval and not one.separable
    flat = estimate(_scores(0.5, 0.5, 0.5))
    assert flat.mean == pytest.approx(0.5) and flat.se == 0
    assert flat.low is None and flat.high is None
    empty = estimate({})
    assert empty.mean is None and empty.n == 0
    assert minimum_detectable(flat.se) is None and prompts_needed(flat.sd, 0.05) is None


def test_power_matches_the_worked_example():
    # sd_d = 0.25, δ = 0.05: n ≈ ((1.960 + 0.842) × 0.25 / 0.05)² ≈ 196;
    # with 12 prompts the detectable difference is 2.80 × 0.25 / sqrt(12) ≈ 0.20
    assert prompts_needed(0.25, 0.05) in range(195, 199)
    assert minimum_detectable(0.25 / math.sqrt(12)) == pytest.approx(0.202, abs=0.002)
    assert prompts_needed(0.25, 0.10) < prompts_needed(0.25, 0.05)  # type: ignore[operator]
