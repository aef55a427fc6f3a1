"""Variants merged per base model as Weval's `aggregateCoverageByTemperature` does (spec §6.3)."""

from __future__ import annotations

import math

import pytest

from engine.scoring.variants import aggregate_variants, has_variants, parse_variant_id


def result(avg, *extents, count=None):
    return {
        "keyPointsCount": count if count is not None else len(extents),
        "avgCoverageExtent": avg,
        "pointAssessments": [
            {"keyPointText": f"point {i}", "coverageExtent": e, "multiplier": 1}
            for i, e in enumerate(extents)
        ],
    }


def test_ids_split_as_weval_splits_them():
    v = parse_variant_id("openai:gpt-4o[temp:0.7][sp_idx:2]")
    assert (v.base, v.temperature, v.system_index) == ("openai:gpt-4o", 0.7, 2)
    assert v.bucket == "openai:gpt-4o[sp_idx:2]"
    assert parse_variant_id("openai:gpt-4o[temp:0]").bucket == "openai:gpt-4o"
    # a numeric [sys:…] is an index too; a hash is dropped
    assert parse_variant_id("m[sys:1][temp:1]").bucket == "m[sp_idx:1]"
    assert parse_variant_id("m[sys:ab12cd]").bucket == "m"
    assert parse_variant_id("IDEAL_BENCHMARK").bucket == "IDEAL_MODEL_ID"


def test_temperatures_of_one_model_give_mean_population_stddev_and_per_point_means():
    scores = {
        "p1": {
            "m[temp:0]": result(0.2, 0.0, 0.4),
            "m[temp:0.5]": result(0.6, 1.0, 0.2),
            "m[temp:1]": result(1.0, 0.5, 1.0),
        }
    }
    merged = aggregate_variants(scores)["p1"]["m"]
    assert merged["avgCoverageExtent"] == pytest.approx(0.6)
    # population (divide by n), not sample: sqrt(((0.4)^2 + 0 + (0.4)^2) / 3)
    assert merged["stdDev"] == pytest.approx(math.sqrt(0.32 / 3))
    assert merged["sampleCount"] == 3
    assert merged["keyPointsCount"] == 2
    first, second = merged["pointAssessments"]
    assert first["coverageExtent"] == pytest.approx(0.5)
    assert first["stdDev"] == pytest.approx(math.sqrt(((0.5) ** 2 + 0.5**2 + 0) / 3))
    assert first["sampleCount"] == 3
    assert second["coverageExtent"] == pytest.approx(0.5333333333)
    # other fields come from the first result
    assert first["keyPointText"] == "point 0" and first["multiplier"] == 1
    # the input is not changed
    assert scores["p1"]["m[temp:0]"]["pointAssessments"][0]["coverageExtent"] == 0.0


def test_one_variant_has_no_stddev_and_system_prompts_stay_apart():
    scores = {
        "p1": {
            "m[temp:0][sp_idx:0]": result(0.25, 0.25),
            "m[temp:0][sp_idx:1]": result(0.75, 0.75),
            "m[temp:1][sp_idx:1]": result(0.25, 0.25),
        }
    }
    out = aggregate_variants(scores)["p1"]
    assert set(out) == {"m[sp_idx:0]", "m[sp_idx:1]"}
    alone = out["m[sp_idx:0]"]
    assert "stdDev" not in alone and alone["sampleCount"] == 1
    assert "stdDev" not in alone["pointAssessments"][0]
    assert alone["pointAssessments"][0]["sampleCount"] == 1
    assert out["m[sp_idx:1]"]["avgCoverageExtent"] == 0.5
    assert out["m[sp_idx:1]"]["stdDev"] == 0.25


def test_errors_nulls_and_metadata_keys():
    scores = {
        "p1": {
            "__promptWeights": {"x": 1},
            "a[temp:0]": {"error": "Generation failed: boom"},
            "a[temp:1]": result(0.5, 0.5),
            "b[temp:0]": {"error": "Generation failed: 1"},
            "b[temp:1]": {"error": "Generation failed: 2"},
            "c[temp:0]": None,
        },
        "skipped": {},
    }
    out = aggregate_variants(scores)
    # errors do not count: the mean is over the valid result only
    assert out["p1"]["a"]["avgCoverageExtent"] == 0.5 and out["p1"]["a"]["sampleCount"] == 1
    # no valid score: the first result is kept as it is
    assert out["p1"]["b"] == {"error": "Generation failed: 1"}
    # null results and `__` keys are skipped; a prompt skipped by Weval stays empty
    assert set(out["p1"]) == {"a", "b"}
    assert out["skipped"] == {}


def test_points_are_matched_by_position_and_missing_values_are_left_out():
    first = result(1.0, 1.0, 1.0)
    shorter = result(0.0, 0.0)
    unscored = result(0.5, 0.5, None)
    out = aggregate_variants(
        {"p": {"m[temp:0]": first, "m[temp:1]": shorter, "m[temp:2]": unscored}}
    )
    a, b = out["p"]["m"]["pointAssessments"]
    assert a["coverageExtent"] == 0.5 and a["sampleCount"] == 3
    assert b["coverageExtent"] == 1.0 and b["sampleCount"] == 1 and "stdDev" not in b


def test_has_variants():
    assert has_variants(["m[temp:0]", "m[temp:1]"])
    assert not has_variants(["m[temp:0]", "n[temp:0]"])
    assert not has_variants(["m[temp:0][sp_idx:0]", "m[temp:0][sp_idx:1]"])
