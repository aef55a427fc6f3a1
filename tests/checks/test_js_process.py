"""Blueprint JavaScript in worker processes: killed past the deadline, recovered, never shared.

The hostile case is a repeat of 40 nested capturing groups, which QuickJS's regex engine runs
for seconds (8.5 s measured, more on a busy machine) past its 100 ms limit without reading its
clock: only killing the process that runs it stops it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.checks import CheckEnv
from engine.js import process as jsprocess
from tests.checks.conftest import assess, raw

PATTERN = "(" * 40 + "\\1" + ")" * 40 + "{20000,}?"
TIMEOUT = "Expression evaluation failed: Script execution timed out after 100ms"
WALL = 5.0  # the deadline is 1.1 s for the 100 ms limit; the rest is a busy machine's slack

# The same regex reached four ways; no scan of the source finds the last three.
HOSTILE = [
    f"/{PATTERN}/.test(r)",
    f"new RegExp({json.dumps(PATTERN)}).test(r)",
    f"!!r.match({json.dumps(PATTERN)})",
    f'const R = globalThis["Reg" + "Exp"]; R({json.dumps(PATTERN)}).test(r)',
]


def _timed(fn, *args, **kwargs):
    start = time.monotonic()
    result = fn(*args, **kwargs)
    return result, time.monotonic() - start


@pytest.fixture(autouse=True)
def warm_worker() -> None:
    """Start a worker first, so that a timing below is the evaluation's, not a start's."""
    assert raw("js", "x", "true") is True


@pytest.mark.parametrize("source", HOSTILE[:2])
def test_a_regex_quickjs_cannot_stop_is_a_timeout_within_two_seconds(source: str) -> None:
    assessment, elapsed = _timed(assess, "js", "hello", source)
    assert assessment.status == "errored" and assessment.coverage_extent is None
    assert assessment.error == TIMEOUT
    assert elapsed < WALL, elapsed


def test_the_same_regex_in_a_where_string_is_a_timeout_too() -> None:
    text = "TOOL_CALL " + json.dumps({"name": "search", "arguments": {"q": "hello"}})
    where = f"new RegExp({json.dumps(PATTERN)}).test(args.q)"
    assessment, elapsed = _timed(
        assess, "tool_args_match", text, {"name": "search", "where": where}
    )
    assert assessment.status == "errored"
    assert (
        assessment.error == "tool_args_match: the `where` expression did not finish within 100 ms"
    )
    assert elapsed < WALL, elapsed


def test_the_next_evaluation_after_a_kill_works() -> None:
    result, elapsed = _timed(raw, "js", "hello", HOSTILE[2])
    assert result == {"error": TIMEOUT}
    assert elapsed < WALL, elapsed
    assert raw("js", "hello", "r.length === 5") is True
    assert raw("js", "hello", "return { score: 0.5, explain: r };") == {
        "score": 0.5,
        "explain": "hello",
    }
    text = "TOOL_CALL " + json.dumps({"name": "s", "arguments": {"q": "ab"}})
    assert raw("tool_args_match", text, {"name": "s", "where": "args.q === 'ab'"}) is True


def test_a_blueprint_of_hostile_points_is_scored_in_bounded_time(tmp_path: Path) -> None:
    points = "\n".join(f"    - $js: {json.dumps(source)}" for source in HOSTILE)
    blueprint = tmp_path / "bp.yml"
    blueprint.write_text(
        f"title: hostile\n---\n- id: p\n  prompt: hi\n  should:\n    - $js: 'r.length > 2'\n"
        f"{points}\n",
        encoding="utf-8",
    )
    responses = tmp_path / "r.jsonl"
    responses.write_text(json.dumps({"prompt_id": "p", "model": "m", "response": "hello"}) + "\n")
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "engine", "score", str(blueprint), "--responses", str(responses)],
        capture_output=True,
        text=True,
        timeout=60,  # in-process QuickJS took more than that (8 s to 55 s a point)
    )
    elapsed = time.monotonic() - start
    assert result.returncode == 0, result.stderr
    cell = json.loads(result.stdout)["evaluationResults"]["llmCoverageScores"]["p"]["m"]
    assessments = cell["pointAssessments"]
    assert [a["status"] for a in assessments] == ["scored"] + ["errored"] * len(HOSTILE)
    assert {a["error"] for a in assessments[1:]} == {TIMEOUT}
    assert cell["avgCoverageExtent"] == 1
    assert elapsed < 4 * len(HOSTILE) + 10, elapsed


def test_two_threads_at_once_never_share_or_wait_for_a_worker() -> None:
    slow: list[object] = []
    thread = threading.Thread(target=lambda: slow.append(raw("js", "hello", HOSTILE[0])))
    thread.start()
    _wait_until(lambda: bool(jsprocess.busy_pids()))
    start = time.monotonic()
    quick = [raw("js", "x" * i, f"r.length === {i} ? 1 : 0") for i in range(20)]
    quick_elapsed = time.monotonic() - start
    busy_meanwhile = thread.is_alive()
    thread.join(timeout=10)
    assert quick == [1.0] * 20
    assert busy_meanwhile, "the quick evaluations waited for the slow one"
    assert quick_elapsed < WALL, quick_elapsed  # busy_meanwhile proves they did not wait
    assert slow == [{"error": TIMEOUT}]


def test_a_worker_killed_from_outside_is_errored_then_replaced() -> None:
    env = CheckEnv(js_time_limit_s=0.5)  # a 2.5 s deadline: the kill below comes first
    results: list[object] = []
    thread = threading.Thread(
        target=lambda: results.append(assess("js", "hi", HOSTILE[1], env=env))
    )
    thread.start()
    _wait_until(lambda: bool(jsprocess.busy_pids()))
    (pid,) = jsprocess.busy_pids()
    limits = Path(f"/proc/{pid}/limits").read_text(encoding="ascii")
    start = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    thread.join(timeout=10)
    assert time.monotonic() - start < 1.0
    (assessment,) = results
    assert assessment.status == "errored"  # type: ignore[attr-defined]
    assert assessment.error == (  # type: ignore[attr-defined]
        "Expression evaluation failed: the JavaScript process stopped (signal 9) before it answered"
    )
    assert raw("js", "hello", "r.length === 5") is True
    address_space = next(line for line in limits.splitlines() if "address space" in line)
    assert int(address_space.split()[3]) == (512 << 20) + 2 * (64 << 20)


@pytest.fixture
def fake_worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Workers replaced by a script (set with `_fake`); real ones again afterwards."""
    jsprocess.shutdown()
    yield
    monkeypatch.undo()
    jsprocess.shutdown()


def _fake(monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    jsprocess.shutdown()
    monkeypatch.setattr(jsprocess, "_COMMAND", (sys.executable, "-c", script))


READY = "import sys; w = sys.stdout; w.write('{\"ready\":1}\\n'); w.flush(); "


@pytest.mark.usefixtures("fake_worker")
def test_a_worker_that_speaks_out_of_protocol_is_errored_never_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = [
        (READY + "sys.stdin.readline(); w.write('garbage\\n'); w.flush(); sys.stdin.read()",
         "the JavaScript process sent an unreadable answer"),
        (READY + "sys.stdin.readline(); w.write('{\"ok\": true, \"x\": 1}\\n'); w.flush()",
         "the JavaScript process sent an unreadable answer"),
        (READY + "sys.stdin.readline(); sys.exit(3)",
         "the JavaScript process stopped (exit code 3) before it answered"),
        ("import sys; sys.exit(1)", "the JavaScript process did not start"),
        ("raise SystemExit('no quickjs here')", "the JavaScript process did not start"),
    ]  # fmt: skip
    for script, message in cases:
        _fake(monkeypatch, script)
        assessment = assess("js", "hello", "true")
        assert assessment.status == "errored", script
        assert assessment.error == f"Expression evaluation failed: {message}", script
        text = "TOOL_CALL " + json.dumps({"name": "s", "arguments": {}})
        where = raw("tool_args_match", text, {"name": "s", "where": "true"})
        assert where == {"error": f"tool_args_match: the `where` expression stopped: {message}"}


def _wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.005)
