"""Executive summaries of runs against the fake server: fields, anonymity, cache, CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store
from tests.fakes.scripted import SUMMARY_ANSWER, answer_as
from tests.run.test_run import BLUEPRINT

SUMMARIZER = "openai:summarizer"


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    fake_llm.reply_with(answer_as("summarizer", SUMMARY_ANSWER))
    return fake_llm


def _run(store, out: Path, summary_model: str | None = SUMMARIZER):
    options = RunOptions(judges=["openai:judge-1"], out_dir=out, summary_model=summary_model)
    prepared = prepare_run(store, BLUEPRINT, source="bp.yml", options=options)
    assert prepared.problems == []
    return prepared, run_sync(prepared.run_id, prepared.plan, store, prepared.options)


def _summary_calls(fake):
    return [c for c in fake.calls if c.model == "summarizer"]


def test_a_run_with_a_summary_stores_weval_executive_summary(env, tmp_path):
    store = open_store()
    prepared, outcome = _run(store, tmp_path)
    assert outcome.status == "completed" and outcome.summary_error is None
    data = json.loads(outcome.path.read_text())
    summary = data["executiveSummary"]
    assert summary == store.executive_summary(prepared.run_id)
    assert summary["modelId"] == SUMMARIZER and summary["isStructured"] is True
    s = summary["structured"]
    # named after the call: the labels became the run's model ids, variants keep their suffix
    assert s["keyFindings"][0] == "anthropic:fake-b answered greet warmly; openai:fake-a did not."
    assert s["strengths"] == ["anthropic:fake-b[temp:0] repeated the question as asked."]
    assert s["weaknesses"] == ["openai:fake-a missed the greeting."]
    assert s["autoTags"] == ["Greetings"]
    grades = {g["modelId"]: g for g in s["grades"]}
    assert set(grades) == {"anthropic:fake-b", "openai:fake-a"}  # Model Q is no model of the run
    assert grades["anthropic:fake-b"]["grades"]["adherence"] == 8
    assert grades["anthropic:fake-b"]["grades"]["empathy"] is None
    assert grades["openai:fake-a"]["grades"]["adherence"] == 4
    assert len(grades["openai:fake-a"]["grades"]) == 13
    assert "Model A" not in summary["content"] and "anthropic:fake-b" in summary["content"]


def test_the_summary_model_never_sees_a_model_name(env, tmp_path):
    _run(open_store(), tmp_path)
    [call] = _summary_calls(env)
    sent = json.dumps(call.body)
    for name in ("fake-a", "fake-b", "openai:", "anthropic:", "judge-1"):
        assert name not in sent
    assert "Model A" in sent and "Model B" in sent
    assert call.body["temperature"] == 0.1
    # the report is the run: the prompts and the answers are there
    assert "Say hello" in call.last_user and "second question" in call.last_user


def test_a_rerun_takes_the_summary_from_the_cache(env, tmp_path):
    store = open_store()
    _run(store, tmp_path / "one")
    assert len(_summary_calls(env)) == 1
    prepared, _ = _run(store, tmp_path / "two")
    assert len(_summary_calls(env)) == 1
    assert store.executive_summary(prepared.run_id)["modelId"] == SUMMARIZER


def test_no_summary_unless_asked(env, tmp_path):
    store = open_store()
    prepared, outcome = _run(store, tmp_path, summary_model=None)
    assert _summary_calls(env) == []
    assert "executiveSummary" not in json.loads(outcome.path.read_text())
    assert store.executive_summary(prepared.run_id) is None


def test_a_failed_summary_leaves_the_run_completed(env, tmp_path):
    env.fail_when(lambda r: r.model == "summarizer", "400")
    store = open_store()
    _, outcome = _run(store, tmp_path)
    assert outcome.status == "completed"
    assert outcome.summary_error and "summarizer" in outcome.summary_error
    assert "executiveSummary" not in json.loads(outcome.path.read_text())


def _cli(*args: str, env_vars: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env_vars, "PYTHONPATH": os.getcwd()},
        timeout=120,
    )


def test_plan_run_and_summarize_on_the_command_line(env, tmp_path):
    bp = tmp_path / "bp.yml"
    bp.write_text(BLUEPRINT)
    plan = _cli("plan", str(bp), "--summary-model", SUMMARIZER, env_vars=env.env())
    assert plan.returncode == 0, plan.stderr
    assert f"Executive summary: 1 call to {SUMMARIZER}" in plan.stdout
    out = tmp_path / "out"
    run = _cli("run", str(bp), "--judges", "openai:judge-1", "--out", str(out), env_vars=env.env())
    assert run.returncode == 0, run.stderr
    run_id = run.stdout.split()[1]
    assert _summary_calls(env) == []
    done = _cli("summarize", run_id, "--model", SUMMARIZER, env_vars=env.env())
    assert done.returncode == 0, done.stderr
    assert "written by the model openai:summarizer" in done.stdout
    assert "openai:fake-a missed the greeting." in done.stdout
    [written] = out.glob("*_comparison.json")
    assert json.loads(written.read_text())["executiveSummary"]["modelId"] == SUMMARIZER
    missing = _cli("summarize", "no-such-run", env_vars=env.env())
    assert missing.returncode == 2 and "There is no run 'no-such-run'" in missing.stderr


def test_a_resumed_run_still_writes_its_summary(env, tmp_path):
    from engine.run.service import prepare_resume

    store = open_store()
    options = RunOptions(judges=["openai:judge-1"], out_dir=tmp_path, summary_model=SUMMARIZER)
    prepared = prepare_run(store, BLUEPRINT, source="bp.yml", options=options)
    resumed = prepare_resume(store, prepared.run_id)
    assert resumed.options.summary_model == SUMMARIZER
    outcome = run_sync(resumed.run_id, resumed.plan, store, resumed.options)
    assert outcome.status == "completed"
    assert store.executive_summary(prepared.run_id)["modelId"] == SUMMARIZER
    # the summary call is one of the run's calls: counted in its progress
    assert outcome.progress.done_calls == len(env.calls)


def test_the_plan_counts_the_summary_call_and_its_cost_is_in_the_total(env, tmp_path):
    home = os.environ["BLUEPRINT_HOME"]  # a fresh folder per test (tests/conftest.py)
    with open(os.path.join(home, "settings.toml"), "w") as f:
        f.write("[prices]\n")
        for model in ("openai:fake-a", "anthropic:fake-b", "openai:judge-1", SUMMARIZER):
            f.write(f'"{model}" = {{ input = 1.0, output = 2.0 }}\n')
    store = open_store()
    prepared, outcome = _run(store, tmp_path)
    p = outcome.progress
    # never "11 of 10 calls made": the summary's call is planned as it is counted (issue 31)
    assert p.done_calls == p.total_calls == len(env.calls)
    assert store.get_run(prepared.run_id).total_calls == p.total_calls
    cost = json.loads(outcome.path.read_text())["blueprintStudio"]["cost"]
    [summary] = [c for c in store.run_calls(prepared.run_id).values() if c.kind == "summary"]
    assert summary.cost_usd > 0 and cost["other"] == pytest.approx(summary.cost_usd)
    assert cost["total"] == pytest.approx(sum(cost["perModel"].values()) + cost["other"])
    assert cost["total"] == pytest.approx(store.get_run(prepared.run_id).cost_usd)
