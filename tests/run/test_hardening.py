"""Runs hold up: totals survive a resume, local failures are retried, identical calls are shared."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from engine.run import RunOptions
from engine.run.service import prepare_resume, prepare_run, run_sync
from engine.store import open_store
from engine.store.sqlite import SQLiteStore

PROMPTS = 8


def blueprint(models: str = "[openai:fake-a, openai:fake-b]") -> str:
    lines = ["title: Hardening", f"models: {models}", "---"]
    for i in range(PROMPTS):
        lines += [f"- id: q{i}", f"  prompt: Question {i}", "  should:", "    - $contains: Q"]
    return "\n".join(lines) + "\n"


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def _totals(run):
    return (run.done_calls, run.cached_calls, run.input_tokens, run.output_tokens, run.cost_usd)


def stopped_then_resumed(store, prepared, after_cells):
    """Run until `after_cells` cells are done, stop, then resume to the end."""
    stop = threading.Event()

    def watch(progress):
        if progress.done_cells >= after_cells:
            stop.set()

    first = run_sync(
        prepared.run_id, prepared.plan, store, prepared.options, stop=stop, on_progress=watch
    )
    assert first.status == "stopped"
    resumed = prepare_resume(store, prepared.run_id)
    outcome = run_sync(prepared.run_id, resumed.plan, store, resumed.options)
    assert outcome.status == "completed"
    return outcome


def test_totals_after_stop_and_resume_equal_an_uninterrupted_run(env):
    store = open_store()
    options = RunOptions(judge=False, use_cache=False, concurrency=1)
    whole = prepare_run(store, blueprint(), source="bp.yml", options=options)
    run_sync(whole.run_id, whole.plan, store, whole.options)
    expected = _totals(store.get_run(whole.run_id))
    assert expected[0] == 2 * PROMPTS and expected[2] > 0

    prepared = prepare_run(store, blueprint(), source="bp.yml", options=options)
    outcome = stopped_then_resumed(store, prepared, PROMPTS // 2)
    run = store.get_run(prepared.run_id)
    assert _totals(run) == pytest.approx(expected)
    p = outcome.progress
    assert (p.done_calls, p.input_tokens, p.output_tokens) == (expected[0], *expected[2:4])


class _FullOnce(sqlite3.Connection):
    """A connection that cannot write the answer of one call: the disk is full for it.

    Armed, it picks the first call it is asked to write; that call's row fails every time
    after, alone or in a batch (the writer retries a failed batch item by item).
    """

    armed = True
    lost: object = None

    @staticmethod
    def _refuse(sql: str, rows: list[tuple[object, ...]]) -> None:
        if not sql.startswith("INSERT INTO calls("):
            return
        for row in rows:
            if _FullOnce.armed:
                _FullOnce.armed, _FullOnce.lost = False, row[1]  # (run_id, key, ...)
            if row[1] == _FullOnce.lost:
                raise sqlite3.OperationalError("database or disk is full")

    def execute(self, sql, parameters=(), /):  # type: ignore[override]
        self._refuse(sql, [parameters])
        return super().execute(sql, parameters)

    def executemany(self, sql, parameters, /):  # type: ignore[override]
        rows = list(parameters)
        self._refuse(sql, rows)
        return super().executemany(sql, rows)


def _connect_full_once(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(
        path, timeout=30, isolation_level=None, check_same_thread=False, factory=_FullOnce
    )
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def test_a_result_that_cannot_be_written_is_not_a_model_failure_and_is_retried(env):
    _FullOnce.armed = True
    home = Path(os.environ["BLUEPRINT_HOME"])
    store = SQLiteStore(home / "studio.db", connect=_connect_full_once)
    options = RunOptions(judge=False, concurrency=2)
    prepared = prepare_run(store, blueprint(), source="bp.yml", options=options)
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "failed"
    assert "could not be saved" in (outcome.error or "") and "disk is full" in (outcome.error or "")
    cells = store.cells(prepared.run_id)
    assert len(cells) == 2 * PROMPTS - 1  # the one cell whose answer was lost is not recorded
    assert not [c for c in cells if c.failed]  # and nothing was blamed on the model
    run = store.get_run(prepared.run_id)
    assert run.status == "failed" and run.resumable
    env.reset()
    healthy = SQLiteStore(home / "studio.db")  # the same file, its disk no longer full
    resumed = prepare_resume(healthy, prepared.run_id)
    outcome = run_sync(prepared.run_id, resumed.plan, healthy, resumed.options)
    assert outcome.status == "completed" and outcome.progress.failed_cells == 0
    assert len(env.calls) == 1  # only the lost answer is asked again
    assert len(healthy.cells(prepared.run_id)) == 2 * PROMPTS


def test_resume_exits_1_when_a_cell_failed_before_the_interruption(env, tmp_path):
    env.fail_when(lambda r: r.model == "fake-b" and r.messages[-1]["content"].endswith(" 0"), "401")
    store = open_store()
    options = RunOptions(judge=False, concurrency=1, out_dir=tmp_path)
    prepared = prepare_run(store, blueprint(), source="bp.yml", options=options)
    stop = threading.Event()

    def soon(progress):
        if progress.done_cells >= 4:
            stop.set()

    first = run_sync(
        prepared.run_id, prepared.plan, store, prepared.options, stop=stop, on_progress=soon
    )
    assert first.status == "stopped" and first.progress.failed_cells == 1
    env.reset()
    out = subprocess.run(
        [sys.executable, "-m", "engine", "run", "--resume", prepared.run_id],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
    )
    assert "completed:" in out.stdout, out.stderr
    assert out.returncode == 1  # a cell of the run failed, even if not in the resumed part


def test_identical_judge_calls_in_flight_are_sent_once_and_counted_cached(env):
    env.control({"latency_ms": 50})
    env.reply_with(lambda request: "Question answered, the same way by both")
    text = textwrap.dedent(
        """
        models: [openai:fake-a, openai:fake-b]
        ---
        - id: q
          prompt: Question?
          should:
            - It answers.
            - It is polite.
        """
    )
    store = open_store()
    options = RunOptions(judges=["openai:judge-1"], use_cache=True)
    prepared = prepare_run(store, text, source="bp.yml", options=options)
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    judge_requests = [c for c in env.calls if c.model == "judge-1"]
    # the two models answered alike, so each point's judge prompt is the same for both
    assert len(judge_requests) == 2
    assert outcome.progress.done_calls == 2 + 4 and outcome.progress.cached_calls == 2


def test_totals_survive_a_resume_when_models_share_judge_answers(env, tmp_path):
    env.reply_with(lambda request: "Question answered the same way")
    text = "models: [openai:fake-a, openai:fake-b]\n---\n" + "".join(
        f"- id: q{i}\n  prompt: Question {i}\n  should:\n    - It answers.\n    - It is kind.\n"
        for i in range(4)
    )
    options = RunOptions(judges=["openai:judge-1"], concurrency=1)

    whole_store = SQLiteStore(tmp_path / "whole.db")
    whole = prepare_run(whole_store, text, source="bp.yml", options=options)
    run_sync(whole.run_id, whole.plan, whole_store, whole.options)
    expected = _totals(whole_store.get_run(whole.run_id))
    assert expected[0] == 8 + 16 and expected[1] == 8  # each judge answer serves both models

    store = SQLiteStore(tmp_path / "split.db")
    prepared = prepare_run(store, text, source="bp.yml", options=options)
    stopped_then_resumed(store, prepared, 3)
    assert _totals(store.get_run(prepared.run_id)) == pytest.approx(expected)


def test_identical_calls_are_made_once_even_when_the_cache_is_slow_to_answer(env, tmp_path):
    # Under load a cache lookup may take longer than an identical call's round trip: the
    # second judge call must still follow the first instead of calling the provider again.
    env.reply_with(lambda request: "Question answered the same way")
    text = "models: [openai:fake-a, openai:fake-b]\n---\n" + "".join(
        f"- id: q{i}\n  prompt: Question {i}\n  should:\n    - It answers.\n    - It is kind.\n"
        for i in range(4)
    )
    store = SQLiteStore(tmp_path / "slow.db")
    lookup = store.cache_get

    def slow_lookup(key: str) -> Any:
        found = lookup(key)
        time.sleep(0.05)
        return found

    store.cache_get = slow_lookup  # type: ignore[method-assign]
    options = RunOptions(judges=["openai:judge-1"], concurrency=1)
    prepared = prepare_run(store, text, source="bp.yml", options=options)
    run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    judged = [c for c in env.calls if c.model == "judge-1"]
    assert len(judged) == 8  # 4 prompts x 2 points; the second model's are shared
    assert _totals(store.get_run(prepared.run_id))[:2] == (8 + 16, 8)
