"""One cost model for a run: the comparison JSON's `blueprintStudio.cost` (issue 31, item 3)."""

from __future__ import annotations

import csv
import io
import json
import os
import textwrap
from dataclasses import replace

import pytest

from engine.comparison import read_comparison
from engine.comparison.cost import RunCost, money_text
from engine.report import comparison_csv
from engine.run import RunOptions
from engine.run.assemble import stored_comparison
from engine.run.service import prepare_run, run_sync
from engine.store import CallCost, open_store

BLUEPRINT = textwrap.dedent(
    """
    title: Priced run
    models: [openai:fake-a, openai:fake-b]
    ---
    - id: greet
      prompt: Say hello
      should:
        - Hello is said warmly.
    - id: thanks
      prompt: Say thanks
      should:
        - Thanks are given.
    """
)


def _prices(*models: str) -> None:
    home = os.environ["BLUEPRINT_HOME"]  # a fresh folder per test (tests/conftest.py)
    lines = "".join(f'"{m}" = {{ input = 1.0, output = 2.0 }}\n' for m in models)
    with open(os.path.join(home, "settings.toml"), "w") as f:
        f.write("[prices]\n" + lines)


def test_a_models_cost_is_its_answers_plus_their_judging_and_the_rest_is_other():
    calls = [
        CallCost("generate", "openai:a", "openai:a[temp:0]", 0.010),
        CallCost("judge", "openai:j", "openai:a[temp:0]", 0.002),
        CallCost("generate", "openai:b", "openai:b[temp:0]", 0.020),
        CallCost("judge", "openai:j", "openai:b[temp:0]", 0.003),
        CallCost("extract", "openai:j", None, 0.0004),
        CallCost("embed", "openai:e", "openai:a[temp:0]", 0.0001),
        CallCost("summary", "openai:s", None, 0.0005),
    ]
    cost = RunCost.from_calls(calls, ["openai:a[temp:0]", "openai:b[temp:0]", "ideal[temp:0]"])
    assert cost.per_model == {
        "openai:a[temp:0]": pytest.approx(0.012),
        "openai:b[temp:0]": pytest.approx(0.023),
        "ideal[temp:0]": 0.0,
    }
    assert cost.judging == pytest.approx(0.005)
    assert cost.other == pytest.approx(0.001)
    assert cost.total == pytest.approx(0.036)
    assert money_text(cost.total) == "$0.0360"
    data = cost.to_json()
    assert set(data) == {"total", "perModel", "judging", "other"}
    assert RunCost.from_json(json.loads(json.dumps(data))) == cost


def test_an_unknown_price_makes_its_figures_unknown_never_zero():
    calls = [
        CallCost("generate", "openai:a", "openai:a[temp:0]", 0.010),
        CallCost("generate", "x:free?", "x:free?[temp:0]", 0.0, unpriced=2),
        CallCost("judge", "openai:j", "openai:a[temp:0]", 0.002),
    ]
    cost = RunCost.from_calls(calls)
    assert cost.per_model["x:free?[temp:0]"] is None
    assert cost.per_model["openai:a[temp:0]"] == pytest.approx(0.012)
    assert cost.total is None and cost.judging == pytest.approx(0.002)
    assert cost.unpriced == ("x:free?",)
    assert money_text(cost.total) == "cost unknown"
    assert cost.to_json()["total"] is None and cost.to_json()["unpriced"] == ["x:free?"]
    assert cost.model_text("x:free?[temp:0]") == "cost unknown"


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def _run(store, tmp_path):
    options = RunOptions(out_dir=tmp_path, judges=["openai:judge-1"], judge=True)
    prepared = prepare_run(store, BLUEPRINT, source="bp.yml", options=options)
    assert prepared.problems == []
    return prepared, run_sync(prepared.run_id, prepared.plan, store, prepared.options)


def test_the_written_cost_is_every_paid_call_and_each_model_gets_its_judging(env, tmp_path):
    _prices("openai:fake-a", "openai:fake-b", "openai:judge-1")
    store = open_store()
    prepared, outcome = _run(store, tmp_path)
    assert outcome.status == "completed"
    cost = json.loads(outcome.path.read_text())["blueprintStudio"]["cost"]
    calls = store.run_calls(prepared.run_id).values()
    paid = [c for c in calls if not c.cached and c.error is None]
    assert {c.kind for c in paid} == {"generate", "judge"}
    # the same figure as the run's own total (what the CLI and the run page said)
    record = store.get_run(prepared.run_id)
    assert cost["total"] == pytest.approx(record.cost_usd) and cost["total"] > 0
    assert cost["total"] == pytest.approx(sum(c.cost_usd for c in paid))
    for model in ("openai:fake-a[temp:0]", "openai:fake-b[temp:0]"):
        mine = [c for c in paid if c.cell_model == model]
        assert {c.kind for c in mine} == {"generate", "judge"}  # its judging is in it
        assert cost["perModel"][model] == pytest.approx(sum(c.cost_usd for c in mine))
    assert cost["judging"] == pytest.approx(sum(c.cost_usd for c in paid if c.kind == "judge"))
    assert cost["other"] == 0
    # the studio's reading of the stored run and a reading of the file say the same
    stored = stored_comparison(store, prepared.run_id, prepared.plan.blueprint)
    assert stored.cost is not None and stored.cost.to_json() == cost
    assert read_comparison(outcome.path).cost == stored.cost
    # the CSV carries the same per-model figure, beside the name every page shows
    rows = list(csv.DictReader(io.StringIO(comparison_csv(stored))))
    for row in rows:
        assert row["model"] == row["model_id"].removesuffix("[temp:0]")
        assert float(row["model_cost_usd"]) == pytest.approx(cost["perModel"][row["model_id"]])


def test_a_cached_rerun_paid_nothing_and_an_unpriced_judge_is_unknown(env, tmp_path):
    _prices("openai:fake-a", "openai:fake-b")  # no price for the judge
    store = open_store()
    _run(store, tmp_path / "first")
    prepared, outcome = _run(store, tmp_path)
    cost = json.loads(outcome.path.read_text())["blueprintStudio"]["cost"]
    assert cost["total"] == 0 and cost["judging"] == 0  # every call came from the cache
    fresh = replace(prepared.options, use_cache=False, out_dir=tmp_path / "fresh")
    again = prepare_run(store, BLUEPRINT, source="bp.yml", options=fresh)
    done = run_sync(again.run_id, again.plan, store, again.options)
    cost = json.loads(done.path.read_text())["blueprintStudio"]["cost"]
    assert cost["total"] is None and cost["judging"] is None
    assert cost["perModel"] == {"openai:fake-a[temp:0]": None, "openai:fake-b[temp:0]": None}
    assert cost["unpriced"] == ["openai:judge-1"]
    back = read_comparison(done.path)
    assert {r["model_cost_usd"] for r in csv.DictReader(io.StringIO(comparison_csv(back)))} == {
        "unknown"
    }
