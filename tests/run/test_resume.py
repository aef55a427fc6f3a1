"""A real `blueprint run` process killed with SIGKILL (or stopped with Ctrl-C) resumes without repeats."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from engine.store import open_store

PROMPTS = 24


def blueprint_text() -> str:
    lines = ["title: Resume test", "models: [openai:slow-model]", "---"]
    for i in range(PROMPTS):
        lines += [
            f"- id: q{i:02d}",
            f"  prompt: Question number {i}",
            "  should:",
            "    - $contains: Question",
        ]
    return "\n".join(lines) + "\n"


def start(args, env):
    return subprocess.Popen(
        [sys.executable, "-m", "engine", "run", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def wait_for_calls(store, run_id, n, proc, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        finished = [c for c in store.run_calls(run_id).values() if c.error is None]
        if len(finished) >= n:
            return
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.02)
    raise AssertionError("the run made no progress")


@pytest.fixture
def setup(fake_llm, tmp_path):
    fake_llm.control({"latency_ms": 150})
    bp = tmp_path / "bp.yml"
    bp.write_text(blueprint_text())
    env = {**os.environ, **fake_llm.env()}
    return fake_llm, bp, env


def finished_prompts(store, run_id):
    return {c.prompt_id for c in store.run_calls(run_id).values() if c.error is None}


def requested_prompts(fake):
    out = set()
    for call in fake.calls:
        text = call.messages[-1]["content"]
        out.add(f"q{int(text.rsplit(' ', 1)[1]):02d}")
    return out


def test_sigkill_then_resume_repeats_no_finished_call(setup, tmp_path):
    fake, bp, env = setup
    store = open_store()
    proc = start([str(bp), "--concurrency", "2", "--out", str(tmp_path / "out")], env)
    first = proc.stdout.readline()
    assert first.startswith("run ")
    run_id = first.split()[1]
    wait_for_calls(store, run_id, 6, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    run = store.get_run(run_id)
    assert run.status == "running" and run.live_status == "interrupted" and run.resumable
    done_before = finished_prompts(store, run_id)
    assert 6 <= len(done_before) < PROMPTS
    fake.reset()
    fake.control({"latency_ms": 10})
    resumed = subprocess.run(
        [sys.executable, "-m", "engine", "run", "--resume", run_id],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[0].startswith(f"run {run_id}")
    asked_again = requested_prompts(fake)
    assert asked_again.isdisjoint(done_before)
    assert asked_again | done_before == {f"q{i:02d}" for i in range(PROMPTS)}
    run = store.get_run(run_id)
    assert run.status == "completed"
    assert len(store.cells(run_id)) == PROMPTS
    (written,) = (tmp_path / "out").glob("*_comparison.json")
    # the comparison has the cells of both processes: those read back and those just made
    comparison = json.loads(written.read_text())
    every = {f"q{i:02d}" for i in range(PROMPTS)}
    assert set(comparison["evaluationResults"]["llmCoverageScores"]) == every
    assert set(comparison["allFinalAssistantResponses"]) == every
    # the totals are those of the whole run, not of its resumed part
    cells = store.cells(run_id)
    assert run.done_calls == PROMPTS
    assert run.input_tokens == sum(c.input_tokens or 0 for c in cells) > 0
    assert run.output_tokens == sum(c.output_tokens or 0 for c in cells) > 0
    tokens = f"{run.input_tokens:,} tokens in, {run.output_tokens:,} out"
    assert tokens in resumed.stdout


def test_ctrl_c_stops_cleanly_and_resume_finishes(setup, tmp_path):
    fake, bp, env = setup
    store = open_store()
    proc = start([str(bp), "--concurrency", "2", "--no-cache"], env)
    run_id = proc.stdout.readline().split()[1]
    wait_for_calls(store, run_id, 4, proc)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert f"blueprint run --resume {run_id}" in err
    run = store.get_run(run_id)
    assert run.status == "stopped" and run.resumable
    fake.control({"latency_ms": 0})
    resumed = subprocess.run(
        [sys.executable, "-m", "engine", "run", "--resume", run_id],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert store.get_run(run_id).status == "completed"
