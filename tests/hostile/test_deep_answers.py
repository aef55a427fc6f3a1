"""A JSON answer nested 100,000 levels deep fails that call, never the run (issue 32, item 3)."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engine.jsonbound import MAX_DEPTH, BoundError, loads_bounded
from engine.providers import wire
from tests.checks.conftest import raw
from tests.checks.test_call import Recorder, call, make_env
from tests.checks.test_factcheck import env_with
from tests.conftest import REPO

DEPTH = 100_000
DEEP = "[" * DEPTH + "]" * DEPTH
PLAIN_ANSWER = {
    "choices": [{"message": {"role": "assistant", "content": "Paris"}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 3, "completion_tokens": 1},
}


def _deep_answer() -> bytes:
    head = '{"choices":[{"message":{"role":"assistant","content":"x"},"x":'
    return (head + DEEP + '}],"usage":{"prompt_tokens":1,"completion_tokens":1}}').encode()


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        deep = b"deep" in body
        self.server.calls += deep  # type: ignore[attr-defined]
        answer = _deep_answer() if deep else json.dumps(PLAIN_ANSWER).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def deep_server() -> Iterator[http.server.ThreadingHTTPServer]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.calls = 0  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


BLUEPRINT = """\
title: Deep answers
models: [openai:m]
---
- id: plain
  prompt: What is the capital of France?
  should: [{$contains: Paris}]
- id: deep
  prompt: Answer deep.
  should: [{$contains: x}]
"""


def test_a_deep_answer_fails_its_call_and_the_run_writes_its_comparison(
    deep_server: http.server.ThreadingHTTPServer, tmp_path: Path
) -> None:
    source = tmp_path / "deep.yml"
    source.write_text(BLUEPRINT)
    env = dict(os.environ, PYTHONPATH=str(REPO), OPENAI_API_KEY="k")
    out = str(tmp_path / "out")
    env["OPENAI_BASE_URL"] = f"http://127.0.0.1:{deep_server.server_address[1]}/v1"
    done = subprocess.run(
        [sys.executable, "-m", "engine", "run", str(source), "--no-judge", "--out", out],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert done.returncode == 1, done.stderr  # one cell failed; the run itself completed
    assert f"more than {MAX_DEPTH} levels deep" in done.stdout + done.stderr
    assert deep_server.calls > 1  # type: ignore[attr-defined]  # retried as a provider fault
    (written,) = (tmp_path / "out").glob("*_comparison.json")
    scores = json.loads(written.read_text())["evaluationResults"]["llmCoverageScores"]
    assert scores["plain"]["openai:m[temp:0]"]["avgCoverageExtent"] == 1


@pytest.mark.parametrize(
    "body", [DEEP, DEEP.encode(), '{"a":' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}"]
)
def test_bounded_reading_refuses_deep_json_with_a_value_error(body: str | bytes) -> None:
    with pytest.raises(BoundError, match="levels deep"):
        loads_bounded(body)


def test_bounded_reading_keeps_ordinary_json_and_refuses_oversized_bodies() -> None:
    assert loads_bounded(b'{"a": [[1], "[[["]}') == {"a": [[1], "[[["]}
    assert loads_bounded("[" * MAX_DEPTH + "]" * MAX_DEPTH) == loads_bounded(
        "[" * MAX_DEPTH + "]" * MAX_DEPTH
    )
    with pytest.raises(BoundError, match="MB"):
        loads_bounded(b"[" + b"1," * 600 + b"1]", max_bytes=1000)


def test_deep_tool_call_arguments_are_kept_as_text_not_a_crash() -> None:
    call = wire._call("lookup", DEEP, "c1")
    assert call.arguments == DEEP


@pytest.mark.parametrize("depth", [900, 5000])
def test_a_call_service_answering_deep_json_errs_the_point(depth: int) -> None:
    body = '{"score": 1, "explain": ' + "[" * depth + "]" * depth + "}"
    env = make_env(Recorder(httpx.Response(200, content=body.encode())))
    result = call({"url": "https://example.com/score"}, env)
    assert isinstance(result, dict) and f"more than {MAX_DEPTH} levels deep" in result["error"]


def test_a_factcheck_service_answering_deep_json_errs_the_point() -> None:
    body = '{"score": 1, "explain": ' + "[" * 900 + "]" * 900 + "}"
    answer = httpx.Response(200, content=body.encode())
    result = raw("factcheck", "claim", None, env=env_with(lambda _r: answer))
    assert isinstance(result, dict) and f"more than {MAX_DEPTH} levels deep" in result["error"]
