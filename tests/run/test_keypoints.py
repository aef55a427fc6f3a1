"""Key points from an ideal (spec §5.9) in runs against the fake server: extraction, judging,
the model order, failure, cache, resume and the plan."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from dataclasses import replace

import pytest

from engine.comparison import read_comparison
from engine.report import render_html
from engine.run import RunOptions, logged_key_points, run_key_points
from engine.run.service import prepare_resume, prepare_run, run_sync
from engine.store import open_store

BLUEPRINT = textwrap.dedent(
    """
    title: Ideal only
    models: [openai:fake-a]
    ---
    - id: tea
      prompt: How hot should the water be for green tea?
      ideal: Water at about 80 degrees. Steep it for two minutes.
    - id: plain
      prompt: Say hello
      should:
        - $icontains: hello
    """
)
POINTS = ["Water at about 80 degrees.", "Steep it for two minutes."]
JUDGES = ["openai:judge-1"]


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def prepare(store, text=BLUEPRINT, **options):
    opts = RunOptions(judges=JUDGES, **options)
    prepared = prepare_run(store, text, source="bp.yml", options=opts)
    assert prepared.problems == []
    return prepared


def run(store, tmp_path, text=BLUEPRINT, **options):
    prepared = prepare(store, text, out_dir=tmp_path, **options)
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed", outcome.error
    return prepared, outcome, json.loads(outcome.path.read_text())


def extract_requests(fake):
    return [c for c in fake.calls if "<IDEAL_RESPONSE>" in c.last_user]


def test_points_are_extracted_judged_and_recorded_as_weval_does(env, tmp_path):
    store = open_store()
    prepared, outcome, data = run(store, tmp_path)
    [request] = extract_requests(env)
    assert request.model == "gpt-4o-mini"
    cap = request.body.get("max_completion_tokens", request.body.get("max_tokens"))
    assert request.body["temperature"] == 0.1 and cap == 2000
    assert "Water at about 80 degrees." in request.last_user  # the ideal is what is read
    assert data["extractedKeyPoints"] == {"tea": POINTS}
    cell = data["evaluationResults"]["llmCoverageScores"]["tea"]["openai:fake-a[temp:0]"]
    assert [a["keyPointText"] for a in cell["pointAssessments"]] == POINTS
    # the fake judge finds "Water" in the echoed prompt but not "Steep"
    assert [a["coverageExtent"] for a in cell["pointAssessments"]] == [1, 0]
    assert cell["avgCoverageExtent"] == 0.5
    assert data["blueprintStudio"]["keyPointExtraction"] == {"tea": {"model": "openai:gpt-4o-mini"}}
    # one extraction, one generation per prompt, one judge call per extracted point
    assert len(env.calls) == outcome.progress.done_calls == 1 + 2 + 2
    assert outcome.progress.total_calls == 5  # the plan's guess replaced once points are known
    assert (
        logged_key_points(prepared.plan.blueprint, store.run_calls(prepared.run_id))["tea"].points
        == POINTS
    )


def test_a_failing_first_model_falls_back_to_the_next(env, tmp_path):
    env.fail_when(lambda r: r.model == "gpt-4o-mini", "400")
    store = open_store()
    _, _, data = run(store, tmp_path)
    assert [r.model for r in extract_requests(env)] == [
        "gpt-4o-mini",
        "google/gemini-1.5-flash-latest",
    ]
    assert data["extractedKeyPoints"]["tea"] == POINTS
    note = data["blueprintStudio"]["keyPointExtraction"]["tea"]
    assert note["model"] == "openrouter:google/gemini-1.5-flash-latest"


def test_judge_models_of_the_blueprint_come_first_and_alone(env, tmp_path):
    text = BLUEPRINT.replace(
        "models: [openai:fake-a]",
        "models: [openai:fake-a]\nevaluationConfig:\n  llm-coverage:\n"
        "    judgeModels: [openai:kp-1, openai:kp-2]",
    )
    env.fail_when(lambda r: r.model == "kp-1", "400")
    store = open_store()
    _, _, data = run(store, tmp_path, text=text)
    assert [r.model for r in extract_requests(env)] == ["kp-1", "kp-2"]
    assert data["blueprintStudio"]["keyPointExtraction"]["tea"]["model"] == "openai:kp-2"


def test_when_every_model_fails_the_prompt_is_skipped_with_the_reason(env, tmp_path):
    hostile = "<script>alert(1)</script> no items here <key_point>   </key_point>"
    env.reply_with(lambda r: hostile if "<IDEAL_RESPONSE>" in r.last_user else "hello there")
    store = open_store()
    _, outcome, data = run(store, tmp_path)
    assert len(extract_requests(env)) == 2  # both models answered, neither with a point
    scores = data["evaluationResults"]["llmCoverageScores"]
    assert scores["tea"] == {}
    assert scores["plain"]["openai:fake-a[temp:0]"]["avgCoverageExtent"] == 1
    assert data["extractedKeyPoints"] == {}  # Weval writes the empty object too
    error = data["blueprintStudio"]["keyPointExtraction"]["tea"]["error"]
    assert "openai:gpt-4o-mini" in error and "gemini" in error and "<key_point>" in error
    assert "script" not in error  # the model's answer is never shown
    # the answer is kept, and the prompt counts for no model's average
    assert data["allFinalAssistantResponses"]["tea"]["openai:fake-a[temp:0]"] == "hello there"
    summary = outcome.summaries["openai:fake-a[temp:0]"]
    assert summary.scored_prompts == 1 and summary.average == 1
    # the file reads back, and its HTML report renders; the hostile answer is nowhere
    back = read_comparison(outcome.path)
    assert back.cells["tea"] == {} and back.key_point_extraction["tea"]["error"] == error
    html = render_html(back)
    assert "tea" in html and "alert(1)" not in html


def test_a_second_run_reuses_the_extraction_and_the_plan_knows_the_points(env, tmp_path):
    store = open_store()
    plan_before = prepare_run(
        store, BLUEPRINT, source="bp.yml", options=RunOptions(judges=JUDGES), record=False
    )
    assert plan_before.estimate.extraction_calls == 1
    assert plan_before.estimate.guessed_prompts == 1  # 5 points assumed until extracted
    assert plan_before.estimate.judge_calls == 5
    run(store, tmp_path)
    env.reset()
    plan_after = prepare_run(
        store, BLUEPRINT, source="bp.yml", options=RunOptions(judges=JUDGES), record=False
    )
    est = plan_after.estimate
    assert est.extraction_cached == 1 and est.guessed_prompts == 0
    assert est.judge_calls == est.judge_cached == 2 and est.calls_to_make == 0
    _, outcome, data = run(store, tmp_path)
    assert env.calls == [] and outcome.progress.cached_calls == 5
    assert data["extractedKeyPoints"] == {"tea": POINTS}


def test_a_resumed_run_does_not_extract_again(env, tmp_path):
    store = open_store()
    prepared = prepare(store, out_dir=tmp_path)
    stop = threading.Event()

    def after_first_call(progress):
        if progress.done_calls >= 1:
            stop.set()

    outcome = run_sync(
        prepared.run_id,
        prepared.plan,
        store,
        prepared.options,
        stop=stop,
        on_progress=after_first_call,
    )
    assert outcome.status == "stopped"
    assert len(extract_requests(env)) == 1
    env.reset()
    env.fail_when(lambda r: "<IDEAL_RESPONSE>" in r.last_user, "400")  # would fail if asked
    resumed = prepare_resume(store, prepared.run_id)
    outcome = run_sync(resumed.run_id, resumed.plan, store, resumed.options)
    assert outcome.status == "completed"
    assert extract_requests(env) == []
    data = json.loads(outcome.path.read_text())
    assert data["extractedKeyPoints"] == {"tea": POINTS}
    cell = data["evaluationResults"]["llmCoverageScores"]["tea"]["openai:fake-a[temp:0]"]
    assert cell["keyPointsCount"] == 2


def test_without_judging_nothing_is_extracted_and_the_plan_says_why(env, tmp_path):
    store = open_store()
    prepared = prepare_run(
        store,
        BLUEPRINT,
        source="bp.yml",
        options=replace(RunOptions(), judge=False, out_dir=tmp_path),
    )
    assert any("extracted" in w for w in prepared.plan.warnings)
    assert prepared.estimate.extraction_calls == 0
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed" and extract_requests(env) == []


def test_the_cli_plans_the_extraction_and_says_when_a_prompt_is_not_scored(env, tmp_path):
    bp = tmp_path / "bp.yml"
    bp.write_text(BLUEPRINT)
    base = [sys.executable, "-m", "engine"]
    run_env = {**os.environ, **env.env()}
    plan = subprocess.run(
        [*base, "plan", str(bp), "--judges", "openai:judge-1"],
        capture_output=True,
        text=True,
        env=run_env,
    )
    assert plan.returncode == 0, plan.stderr
    assert "Key-point extraction calls: 1 (0 cached)" in plan.stdout
    assert "openai:gpt-4o-mini then openrouter:google/gemini-1.5-flash-latest" in plan.stdout
    assert "Judge calls: 5 (0 cached), an estimate" in plan.stdout
    env.fail_when(lambda r: "<IDEAL_RESPONSE>" in r.last_user, "400")
    out = subprocess.run(
        [*base, "run", str(bp), "--judges", "openai:judge-1", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=run_env,
    )
    assert out.returncode == 0, out.stderr
    assert "warning: prompt 'tea' is not scored: Key points could not be extracted" in out.stderr


def test_a_run_that_reuses_another_runs_extraction_judges_the_same_points(env, tmp_path):
    # what a re-score does: the first run got its points from the fallback model
    env.fail_when(lambda r: r.model == "gpt-4o-mini", "400")
    store = open_store()
    first, _, _ = run(store, tmp_path / "a")
    env.reset()
    env.fail_when(lambda r: "<IDEAL_RESPONSE>" in r.last_user, "400")  # would fail if asked
    again, outcome, data = run(store, tmp_path / "b", key_points_from=first.run_id)
    assert extract_requests(env) == []
    assert data["extractedKeyPoints"] == {"tea": POINTS}
    assert data["blueprintStudio"]["keyPointExtraction"]["tea"]["model"] == (
        "openrouter:google/gemini-1.5-flash-latest"
    )
    # the stored run reads the same back (the studio's and `compare`'s view of it)
    found = run_key_points(store, again.run_id, again.plan.blueprint)
    assert found["tea"].points == POINTS and found["tea"].attempts[0].startswith(
        "openai:gpt-4o-mini:"
    )
    assert outcome.key_points["tea"].points == POINTS


def test_the_summary_is_told_an_unextracted_prompt_was_not_scored_and_sees_its_answers(
    env, tmp_path
):
    from tests.fakes.scripted import SUMMARY_ANSWER

    def reply(r):
        if r.model == "summarizer":
            return SUMMARY_ANSWER
        return "no items" if "<IDEAL_RESPONSE>" in r.last_user else "Use water at 80 degrees."

    env.reply_with(reply)
    store = open_store()
    *_, data = run(store, tmp_path, summary_model="openai:summarizer")
    assert data["evaluationResults"]["llmCoverageScores"]["tea"] == {}
    [call] = [c for c in env.calls if c.model == "summarizer"]
    report = call.last_user
    tea = report.split("## Prompt tea", 1)[1].split("## Prompt", 1)[0]
    # issue 31: the rubric's gap is said as such, never as a failed call, and the answer is there
    assert "NOT SCORED" in tea and "not a failure of the models" in tea
    assert "the call failed" not in tea
    assert "Model A" in tea and "Use water at 80 degrees." in tea
    for leak in ("gpt-4o-mini", "gemini", "fake-a", "Key points could not be extracted"):
        assert leak not in tea  # no model id or error text reaches the summary model
    # a scored prompt is still described with its score
    assert "Score: 0.00" in report.split("## Prompt plain", 1)[1].split("## Prompt", 1)[0]
