"""Unknown prices show "cost unknown" with how to set a price, never "$0" (issue 14)."""

from __future__ import annotations

import os

from engine.comparison import read_comparison
from engine.report import render_html
from engine.report.costs import PRICE_HOWTO, UNKNOWN, cost_text, run_cost_text, unpriced


def test_cost_text_never_shows_zero_for_an_unknown_price():
    assert cost_text(0.0, unknown=True) == "cost unknown"
    assert cost_text(0.0123, unknown=True) == "$0.0123 + cost unknown"
    assert cost_text(0.0123) == "$0.0123" and cost_text(0.0) == "$0.0000"
    assert cost_text(None) == "—" and cost_text(None, unknown=True) == UNKNOWN
    assert "[prices]" in PRICE_HOWTO and "$BLUEPRINT_HOME/settings.toml" in PRICE_HOWTO


def test_unpriced_models_and_a_price_set_in_settings(tmp_path):
    models = ["openai:gpt-4o-mini[temp:0]", "ideal", "ollama:llama3.2", "openai:my-model"]
    assert unpriced(models) == ["openai:my-model"]
    home = os.environ["BLUEPRINT_HOME"]  # a fresh folder per test (tests/conftest.py)
    with open(os.path.join(home, "settings.toml"), "w") as f:
        f.write('[prices]\n"openai:my-model" = { input = 0.4, output = 1.6 }\n')
    assert unpriced(models) == []


def test_a_run_with_an_unpriced_judge_or_model_is_cost_unknown():
    assert run_cost_text(0.0, {"models": ["openai:my-model"]}) == UNKNOWN
    assert run_cost_text(0.5, {"models": ["openai:gpt-4o"], "judges": ["x:judge"]}) == (
        "$0.5000 + cost unknown"
    )
    assert run_cost_text(0.5, {"models": ["openai:gpt-4o"]}) == "$0.5000"


def test_html_report_says_cost_unknown_and_how_to_set_a_price():
    point = {"keyPointText": "Is kind", "coverageExtent": 1}
    cell = {"keyPointsCount": 1, "avgCoverageExtent": 1, "pointAssessments": [point]}
    comparison = read_comparison(
        {
            "configId": "c",
            "promptIds": ["p1"],
            "effectiveModels": ["openai:my-model"],
            "evaluationResults": {"llmCoverageScores": {"p1": {"openai:my-model": cell}}},
        }
    )
    usage = {("p1", "openai:my-model"): {"latency_ms": 1000, "cost_usd": 0.0}}
    doc = render_html(comparison, usage=usage, unpriced=["openai:my-model"])
    assert "$0.0" not in doc
    assert "1.00 s · cost unknown" in doc
    assert "settings.toml" in doc
    priced = render_html(comparison, usage=usage)
    assert "answer $0.0000" in priced  # a known price of zero is still shown as dollars
