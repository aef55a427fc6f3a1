"""Runs end to end against the fake LLM server: matrix, judges, cache, errors, budget, CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from engine.run import RunOptions, call_key
from engine.run.service import prepare_run, run_sync
from engine.store import open_store
from tests.conftest import EXAMPLES

BLUEPRINT = textwrap.dedent(
    """
    title: Small run
    models: [openai:fake-a, anthropic:fake-b]
    ---
    - id: greet
      prompt: Say hello
      should:
        - $icontains: hello
        - Hello is said warmly.
    - id: chat
      messages:
        - user: first question
        - assistant: null
        - user: second question
      should:
        - $contains: question
    """
)


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def run(store, text=BLUEPRINT, *, judges=("openai:judge-1", "openai:judge-2"), options=None, **kw):
    options = replace(
        options or RunOptions(), judges=list(judges) if judges else None, judge=bool(judges)
    )
    prepared = prepare_run(store, text, source="bp.yml", options=options, **kw)
    assert prepared.problems == []
    return prepared, run_sync(prepared.run_id, prepared.plan, store, prepared.options)


def test_run_generates_judges_scores_and_stores(env, tmp_path):
    store = open_store()
    prepared, outcome = run(store, options=RunOptions(out_dir=tmp_path))
    assert outcome.status == "completed"
    # 2 models x (1 turn + 2 turns) generations, plus 2 judges x 1 text point x 2 models
    assert len(env.calls) == prepared.plan.total_calls == 6 + 4
    assert outcome.progress.done_calls == 10
    data = json.loads(outcome.path.read_text())
    assert data["effectiveModels"] == ["anthropic:fake-b[temp:0]", "openai:fake-a[temp:0]"]
    cell = data["evaluationResults"]["llmCoverageScores"]["greet"]["openai:fake-a[temp:0]"]
    assert [a["keyPointText"] for a in cell["pointAssessments"]] == [
        'Function: icontains("hello")',
        "Hello is said warmly.",
    ]
    judged = cell["pointAssessments"][1]
    assert judged["judgeModelId"] == "consensus(standard(openai:judge-1), standard(openai:judge-2))"
    assert judged["status"] == "scored"
    # the multi-turn cell: two generated turns, both in the subject text and the history
    history = data["fullConversationHistories"]["chat"]["openai:fake-a[temp:0]"]
    assert [m["role"] for m in history] == ["user", "assistant", "user", "assistant"]
    rows = store.cells(prepared.run_id)
    assert len(rows) == 4 and all(r.status == "scored" for r in rows)
    assert len(store.judgments(prepared.run_id, "greet", "openai:fake-a[temp:0]")) == 2
    run_row = store.get_run(prepared.run_id)
    assert run_row.status == "completed" and run_row.comparison_path == str(outcome.path)


def test_second_run_makes_zero_calls_and_plan_says_so(env):
    store = open_store()
    run(store)
    env.reset()
    prepared = prepare_run(
        store,
        BLUEPRINT,
        source="bp.yml",
        options=RunOptions(judges=["openai:judge-1", "openai:judge-2"]),
        record=False,
    )
    assert prepared.estimate.calls_to_make == 0
    assert prepared.estimate.generation_cached == 6 and prepared.estimate.judge_cached == 4
    _, outcome = run(store)
    assert len(env.calls) == 0
    assert outcome.progress.cached_calls == 10


def test_no_cache_calls_again_and_errors_are_never_cached(env):
    store = open_store()
    env.fail_when(lambda r: r.model == "fake-b", "500")
    prepared, outcome = run(store, judges=None, options=RunOptions())
    assert outcome.status == "completed" and outcome.progress.failed_cells == 2
    failed = [r for r in store.cells(prepared.run_id) if r.status == "failed"]
    assert {r.model_id for r in failed} == {"anthropic:fake-b[temp:0]"}
    assert all("500" in (r.error or "") for r in failed)
    # the good provider was not stopped by the bad one
    assert {r.model_id for r in store.cells(prepared.run_id) if r.status == "scored"} == {
        "openai:fake-a[temp:0]"
    }
    env.reset()
    run(store, judges=None, options=RunOptions(use_cache=False))
    assert len(env.calls) == 6  # everything asked again; fake-b's failures were not cached
    env.reset()
    _, _outcome = run(store, judges=None)
    assert len(env.calls) == 0


def test_prompt_no_cache_skips_the_cache_for_that_prompt(env):
    store = open_store()
    text = BLUEPRINT.replace("- id: greet\n", "- id: greet\n  noCache: true\n")
    run(store, text, judges=None)
    env.reset()
    run(store, text, judges=None)
    assert len(env.calls) == 2  # only `greet`, for both models


def test_repeat_index_is_part_of_the_cache_key():
    from engine.providers import ChatRequest

    request = ChatRequest(model_id="openai:x", messages=[{"role": "user", "content": "hi"}])
    assert call_key("generate", request, 0) != call_key("generate", request, 1)
    assert call_key("generate", request, 0) == call_key("generate", request, 0)
    changed = ChatRequest(
        model_id="openai:x", messages=[{"role": "user", "content": "hi"}], temperature=0.5
    )
    assert call_key("generate", request) != call_key("generate", changed)


def test_retry_after_429_still_completes(env):
    store = open_store()
    env.fail_next(2, "429", retry_after="0")
    _, outcome = run(store, judges=None)
    assert outcome.status == "completed" and outcome.progress.failed_calls == 0


def test_budget_refuses_a_plan_that_is_surely_too_expensive_and_stops_cleanly(env):
    home = Path(os.environ["BLUEPRINT_HOME"])
    (home / "settings.toml").write_text(
        '[prices]\n"openai:fake-a" = {input = 0, output = 1000}\n'
        '"anthropic:fake-b" = {input = 0, output = 1000}\n'
    )
    store = open_store()
    options = RunOptions(judge=False, max_cost_usd=0.0001, concurrency=1)
    prepared = prepare_run(store, BLUEPRINT, source="bp.yml", options=options, record=False)
    assert any("over the budget" in p for p in prepared.problems)
    # Long answers (about 1,000 output tokens each) cost more than the low estimate of 50 tokens
    # a call, so a budget just above that estimate passes the plan and is reached during the run.
    env.reply_with(lambda request: "word " * 1000)
    low = prepared.estimate.cost_low
    prepared = prepare_run(
        store,
        BLUEPRINT,
        source="bp.yml",
        options=RunOptions(judge=False, max_cost_usd=low * 1.01, concurrency=1),
    )
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "stopped"
    assert "budget" in (outcome.error or "")
    assert len(env.calls) < prepared.plan.generation_calls
    assert store.get_run(prepared.run_id).resumable


def test_missing_key_and_unknown_provider_are_explained(monkeypatch):
    store = open_store()
    prepared = prepare_run(
        store, BLUEPRINT, source="bp.yml", options=RunOptions(judge=False), record=False
    )
    assert any("OPENAI_API_KEY" in p for p in prepared.problems)
    assert any("ANTHROPIC_API_KEY" in p for p in prepared.problems)
    prepared = prepare_run(
        store,
        BLUEPRINT,
        source="bp.yml",
        options=RunOptions(models=["nosuch:model"], judge=False),
        record=False,
    )
    assert any("openrouter" in p and "NOSUCH_BASE_URL" in p for p in prepared.problems)


def test_ideal_model_needs_no_provider(tmp_path):
    store = open_store()
    text = (EXAMPLES / "functions.yml").read_text()
    prepared = prepare_run(
        store,
        text,
        source="functions.yml",
        options=RunOptions(models=["ideal"], judge=False, out_dir=tmp_path),
    )
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    summary = outcome.comparison.summaries()["ideal[temp:0]"]
    assert summary.average == 1.0  # the ideal answers satisfy every deterministic check


def cli(*args, env=None, **kw):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        **kw,
    )


def test_cli_run_prints_the_run_line_first_and_writes_the_comparison(env, tmp_path):
    bp = tmp_path / "bp.yml"
    bp.write_text(BLUEPRINT)
    out = cli("run", str(bp), "--judges", "openai:judge-1", "--out", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert first.startswith("run ") and "/results?run=" in first
    run_id = first.split()[1]
    assert first.endswith(f"/results?run={run_id}")
    assert len(list((tmp_path / "out").glob("*_comparison.json"))) == 1
    assert open_store().get_run(run_id).status == "completed"
    # the name every page shows, and the model's cost with its judging (issue 31)
    assert "openai:fake-a  (2 scored, 0 failed;" in out.stdout
    assert "[temp:0]" not in out.stdout.split("wrote ")[0]
    totals = open_store().model_totals(run_id)
    assert set(totals) == {"openai:fake-a[temp:0]", "anthropic:fake-b[temp:0]"}
    assert all(t.cells == 2 and t.input_tokens > 0 for t in totals.values())


def test_cli_plan_shows_calls_and_problems(env, tmp_path):
    bp = tmp_path / "bp.yml"
    bp.write_text(BLUEPRINT)
    out = cli("plan", str(bp), "--no-judge")
    assert out.returncode == 0, out.stderr
    assert "Generation calls: 6 (0 cached)" in out.stdout
    assert "Judges: none; 2 text point assessment(s) will be left unjudged" in out.stdout
    assert len(env.calls) == 0
    out = cli("plan", str(bp), "--no-judge", env={"OPENAI_API_KEY": ""})
    assert out.returncode == 2
    assert "OPENAI_API_KEY" in out.stderr


def test_repeats_are_real_calls_and_cached_per_repeat(env):
    store = open_store()
    prepared = prepare_run(
        store, BLUEPRINT, source="bp.yml", options=RunOptions(judge=False, repeats=3)
    )
    assert sorted({c.model_id for c in prepared.plan.cells if c.prompt.id == "greet"}) == [
        f"{m}[temp:0][rep:{k}]" for m in ("anthropic:fake-b", "openai:fake-a") for k in range(3)
    ]
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    assert len(env.calls) == 3 * 6  # every repeat reached the provider
    env.reset()
    again = prepare_run(
        store, BLUEPRINT, source="bp.yml", options=RunOptions(judge=False, repeats=3)
    )
    assert again.estimate.calls_to_make == 0
    run_sync(again.run_id, again.plan, store, again.options)
    assert len(env.calls) == 0
    more = prepare_run(
        store,
        BLUEPRINT,
        source="bp.yml",
        options=RunOptions(judge=False, repeats=4),
        record=False,
    )
    assert more.estimate.calls_to_make == 6  # only the 4th repeat is new


def test_a_cells_time_is_the_models_time_not_its_wait_for_a_free_slot(env):
    # At concurrency 1 a cell waits for the calls ahead of it; that wait is the run's, not the
    # model's, and the leaderboard's "Time (s)" must not count it.
    env.control({"latency_ms": 40})
    lines = ["models: [openai:fake-a]", "---"] + [
        f"- {{id: q{i:02d}, prompt: Question {i}, should: [$contains: Question]}}"
        for i in range(12)
    ]
    store = open_store()
    start = time.perf_counter()
    prepared, outcome = run(
        store, "\n".join(lines) + "\n", judges=(), options=RunOptions(concurrency=1)
    )
    wall_ms = (time.perf_counter() - start) * 1000
    assert outcome.status == "completed"
    calls = store.run_calls(prepared.run_id, kind="generate")
    by_prompt = {c.prompt_id: c.latency_ms for c in calls.values()}
    cells = store.cells(prepared.run_id)
    assert len(cells) == len(by_prompt) == 12
    for cell in cells:
        assert cell.latency_ms == pytest.approx(by_prompt[cell.prompt_id])
        assert cell.latency_ms >= 40
    # One call at a time: the calls' own times add up to less than the run took. Counting each
    # cell's wait for the calls ahead of it would add up to about 6.5 times as much.
    assert sum(cell.latency_ms for cell in cells) < wall_ms


def test_stop_lets_at_most_the_calls_in_flight_finish(env):
    import time

    from engine.run.service import run_in_thread, stop_run

    env.control({"latency_ms": 100})
    lines = ["models: [openai:fake-a]", "---"] + [
        f"- {{id: q{i:02d}, prompt: Question {i}}}" for i in range(40)
    ]
    store = open_store()
    prepared = prepare_run(
        store,
        "\n".join(lines) + "\n",
        source="bp.yml",
        options=RunOptions(judge=False, concurrency=4),
    )
    run_in_thread(prepared.run_id, prepared.plan, store, prepared.options)
    deadline = time.monotonic() + 10
    while len(env.calls) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    asked_at_stop = len(env.calls)
    assert stop_run(prepared.run_id)
    while store.get_run(prepared.run_id).status == "running" and time.monotonic() < deadline:
        time.sleep(0.02)
    run = store.get_run(prepared.run_id)
    assert run.status == "stopped"
    assert len(env.calls) <= asked_at_stop + 4  # only calls already past the stop check
    assert len(store.cells(prepared.run_id)) < 40


def test_the_written_comparison_is_the_one_assembled_from_the_stored_cells(env, tmp_path):
    # At its end a run uses the scores it computed instead of reading them back from the
    # store: the file must be exactly what the stored cells give (as the studio reads them).
    from engine.blueprint import parse_blueprint
    from engine.run import stored_comparison

    text = BLUEPRINT + textwrap.dedent(
        """
        - id: varied
          prompt: Say hello twice
          citation: {title: A source, url: "https://example.org"}
          should:
            - $matches: "hel+o"
            - {text: "Says hello.", multiplier: 2.5}
            - [$contains: hello, $contains: hi]
            - $word_count_between: [1, 2]
            - $matches: "("
          should_not:
            - $contains: goodbye
        """
    )
    store = open_store()
    prepared, outcome = run(store, text, options=RunOptions(out_dir=tmp_path))
    assert outcome.status == "completed" and outcome.path is not None
    written = json.loads(outcome.path.read_text())
    blueprint = parse_blueprint(text, source="bp.yml")
    stored = json.loads(stored_comparison(store, prepared.run_id, blueprint).to_json())
    assert written.pop("timestamp") and stored.pop("timestamp")
    assert written == stored
    scores = written["evaluationResults"]["llmCoverageScores"]
    statuses = {
        a["status"] for row in scores.values() for c in row.values() for a in c["pointAssessments"]
    }
    assert statuses == {"scored", "errored"}


def test_a_comparison_that_cannot_be_written_leaves_the_run_resumable(env, tmp_path):
    from engine.output import OutputError
    from engine.run.service import prepare_resume

    (tmp_path / "afile").write_text("x")
    store = open_store()
    bad = RunOptions(out_dir=tmp_path / "afile" / "out", judge=False)
    prepared = prepare_run(store, BLUEPRINT, source="bp.yml", options=bad)
    with pytest.raises(OutputError, match="is not a folder"):
        run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    stored = store.get_run(prepared.run_id)
    assert stored.status == "failed" and stored.summary is None
    asked = len(env.calls)
    assert asked > 0 and stored.done_calls == asked  # its counters were kept
    resumed = prepare_resume(store, prepared.run_id, out_dir=tmp_path / "good")
    outcome = run_sync(prepared.run_id, resumed.plan, store, resumed.options)
    assert outcome.status == "completed" and outcome.path is not None and outcome.path.exists()
    assert len(env.calls) == asked  # nothing asked again
    stored = store.get_run(prepared.run_id)
    assert stored.status == "completed" and stored.done_calls == asked and stored.summary
