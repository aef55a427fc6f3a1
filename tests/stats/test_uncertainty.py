"""`blueprintStudio.uncertainty`: shape, agreement with the leaderboard, variants, judges, words."""

from __future__ import annotations

import json

import pytest

from engine.assessment import IndividualJudgement, PointAssessment
from engine.comparison import read_comparison
from engine.comparison.weval import Comparison
from engine.scoring import CellScore
from engine.stats import (
    interval_words,
    pair_words,
    power_words,
    summary_lines,
    tied_ranks,
    uncertainty_of,
)

A = [0.2, 0.4, 0.6, 0.8, 1.0]
B = [0.1, 0.32, 0.5, 0.68, 0.9]


def cells(model: str, scores: list[float | None]) -> list[CellScore]:
    return [
        CellScore(prompt_id=f"p{i}", model_id=model, score=s)
        if s is not None
        else CellScore(prompt_id=f"p{i}", model_id=model, error="no answer")
        for i, s in enumerate(scores)
    ]


def comparison(all_cells: list[CellScore], weights: dict[str, float] | None = None) -> Comparison:
    grid: dict[str, dict[str, CellScore]] = {}
    for c in all_cells:
        grid.setdefault(c.prompt_id, {})[c.model_id] = c
    prompts = [
        {"id": p, **({"weight": weights[p]} if weights and p in weights else {})} for p in grid
    ]
    return Comparison(
        config_id="c",
        config_title="C",
        run_label="l",
        timestamp="t",
        config={"prompts": prompts},
        models=sorted({c.model_id for c in all_cells}),
        prompt_ids=list(grid),
        cells=grid,
    )


def test_the_comparison_json_carries_the_documented_block_without_nan():
    comp = comparison(cells("m:a", A) + cells("m:b", B) + cells("m:c", [0.1, None, 0.3, 0.2, 0.0]))
    data = json.loads(json.dumps(comp.to_weval(), allow_nan=False))
    block = data["blueprintStudio"]["uncertainty"]
    assert block["confidence"] == 0.95
    hybrid = data["evaluationResults"]["perModelHybridScores"]
    assert set(block["models"]) == set(hybrid)
    for model, entry in block["models"].items():
        assert {"mean", "low", "high", "prompts", "withinPromptSd"} <= set(entry)
        assert entry["mean"] == pytest.approx(hybrid[model]["average"])  # the shown score
        assert 0 <= entry["low"] <= entry["mean"] <= entry["high"] <= 1
    assert block["models"]["m:c"]["prompts"] == 4  # the failed prompt is left out
    pairs = {(p["a"], p["b"]): p for p in block["pairs"]}
    assert set(pairs) == {("m:a", "m:b"), ("m:a", "m:c"), ("m:b", "m:c")}
    ab = pairs[("m:a", "m:b")]
    assert {"difference", "low", "high", "separable", "minimumDetectable"} <= set(ab)
    assert ab["difference"] == pytest.approx(0.1)
    assert ab["separable"] is True
    assert ab["minimumDetectable"] == pytest.approx(2.8016 * 0.00632456, abs=1e-4)


def test_a_file_without_the_block_reads_and_gets_it_computed(tmp_path):
    comp = comparison(cells("m:a", A) + cells("m:b", B))
    data = comp.to_weval()
    del data["blueprintStudio"]["uncertainty"]
    back = read_comparison(data)
    again = back.to_weval()["blueprintStudio"]["uncertainty"]
    assert again == comp.to_weval()["blueprintStudio"]["uncertainty"]


def test_weighted_prompts_give_the_weighted_mean_shown_on_the_leaderboard():
    comp = comparison(cells("m:a", [1.0, 0.0, 0.5]), {"p0": 2})
    data = comp.to_weval()
    entry = data["blueprintStudio"]["uncertainty"]["models"]["m:a"]
    assert entry["mean"] == pytest.approx(0.625)
    assert entry["mean"] == pytest.approx(
        data["evaluationResults"]["perModelHybridScores"]["m:a"]["average"]
    )
    assert data["blueprintStudio"]["uncertainty"]["weighted"] is True


def test_one_prompt_and_identical_scores_have_no_interval_said_in_words():
    u = uncertainty_of(cells("m:a", [0.4]) + cells("m:b", [0.4]))
    entry = u.models["m:a"].to_json()
    assert (entry["low"], entry["high"], entry["prompts"]) == (None, None, 1)
    assert "one prompt" in interval_words(u.models["m:a"].estimate)
    pair = u.pairs[0]
    assert not pair.separable and pair.to_json()["minimumDetectable"] is None
    assert "too close to call" in pair_words("A", "B", pair.estimate)
    flat = uncertainty_of(cells("m:a", [0.5, 0.5, 0.5]))
    assert "same score" in interval_words(flat.models["m:a"].estimate)
    json.dumps(flat.to_json(), allow_nan=False)
    assert "nothing to plan from" in power_words(0.05, None, 3)


def test_answers_of_one_base_model_are_clustered_by_prompt():
    u = uncertainty_of(
        cells("m:a[temp:0]", [0.2, 0.6, 1.0]) + cells("m:a[temp:1]", [0.4, 0.6, 0.8])
    )
    assert {"m:a[temp:0]", "m:a[temp:1]", "m:a"} <= set(u.models)
    base = u.models["m:a"]
    # prompt means 0.3, 0.6, 0.9; within-prompt variances 0.02, 0, 0.02 → sd sqrt(0.04/3)
    assert base.estimate.n == 3
    assert base.estimate.mean == pytest.approx(0.6)
    assert base.within_prompt_sd == pytest.approx((0.04 / 3) ** 0.5)
    assert base.to_json()["answers"] == ["m:a[temp:0]", "m:a[temp:1]"]
    assert u.models["m:a[temp:0]"].within_prompt_sd is None


def judged(prompt: str, model: str, first: float, second: float) -> CellScore:
    point = PointAssessment(
        key_point_text="is kind",
        coverage_extent=(first + second) / 2,
        kind="text",
        individual_judgements=[
            IndividualJudgement(judge_model_id="j1", coverage_extent=first, reflection=""),
            IndividualJudgement(judge_model_id="j2", coverage_extent=second, reflection=""),
        ],
    )
    return CellScore(
        prompt_id=prompt, model_id=model, assessments=[point], score=(first + second) / 2
    )


def test_judges_disagreement_is_reported_as_a_share_of_the_interval():
    agree = [judged(f"p{i}", "m:a", s, s) for i, s in enumerate([0.2, 0.5, 0.9, 0.4])]
    assert uncertainty_of(agree).models["m:a"].judge_share == 0
    split = [judged(f"p{i}", "m:a", s - 0.1, s + 0.1) for i, s in enumerate([0.2, 0.5, 0.8, 0.3])]
    share = uncertainty_of(split).models["m:a"].judge_share
    # per prompt: judges 0.2 apart, sample variance 0.02, of their mean 0.01;
    # prompt means 0.2, 0.5, 0.8, 0.3: variance 0.07, se² = 0.07 / 4 = 0.0175;
    # judges' part of se² = 0.01 / 4 = 0.0025, a share of 0.142857
    assert share == pytest.approx(0.142857, abs=1e-5)
    assert uncertainty_of(cells("m:a", A)).models["m:a"].judge_share is None


def test_ranks_tie_where_neighbours_are_not_separable():
    apart = {("a", "b"): True, ("b", "c"): False, ("c", "d"): True}
    assert tied_ranks(["a", "b", "c", "d"], lambda x, y: apart[(x, y)]) == ["1", "2=", "2=", "4"]
    assert tied_ranks(["a", "b"], lambda x, y: True) == ["1", "2"]
    assert tied_ranks([], lambda x, y: True) == []


def test_pairs_and_power_in_words():
    u = uncertainty_of(cells("m:a", A) + cells("m:b", B))
    p = u.pairs[0]
    words = pair_words("A", "B", p.estimate)
    assert (
        words
        == "A scores higher than B, and the gap (0.10, from 0.08 to 0.12) is larger than chance."
    )
    close = uncertainty_of(cells("m:a", [0.5, 0.7, 0.3, 0.6]) + cells("m:b", [0.6, 0.5, 0.4, 0.5]))
    assert "too close to call with these 4 prompts" in pair_words("A", "B", close.pairs[0].estimate)
    needed = close.pairs[0].prompts_needed(0.05)
    assert needed is not None and needed > 4
    assert power_words(0.05, needed, 4) == (
        f"To tell apart differences of 0.05 you would need about {needed} prompts; you have 4."
    )
    lines = summary_lines(u)
    assert lines[1].startswith("  m:a: 0.60, likely between")
    assert any("larger than chance" in line for line in lines)
