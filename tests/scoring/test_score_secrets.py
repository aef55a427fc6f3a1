"""`blueprint score` with a `$call` service that echoes its headers: no secret reaches the output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.checks.test_call import json_service

SECRET = "operator-secret-4242"


@pytest.fixture
def echo_service() -> Iterator[str]:
    """A local `$call` service that repeats the Authorization header it received."""
    with json_service(
        lambda headers, _body: {"score": 1, "explain": f"you sent {headers.get('Authorization')}"}
    ) as url:
        yield url


def score(tmp_path, url: str, variable: str, **environ: str) -> tuple[int, str, str]:
    bp = tmp_path / "bp.yml"
    bp.write_text(
        "---\n- id: p\n  prompt: Hi\n  should:\n"
        f"    - $call: {{url: '{url}', headers: {{Authorization: 'Bearer ${{{variable}}}'}}}}\n"
    )
    rows = tmp_path / "r.jsonl"
    rows.write_text('{"prompt_id": "p", "model": "m", "response": "hello"}\n')
    out = tmp_path / "out.json"
    env = {**os.environ, "BLUEPRINT_CALL_ALLOW": "127.0.0.1", **environ}
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score", bp, "--responses", rows, "--out", out],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    point = json.loads(out.read_text())["evaluationResults"]["llmCoverageScores"]["p"]["m"]
    return point.get("avgCoverageExtent"), out.read_text(), json.dumps(point["pointAssessments"])


def test_an_allowed_secret_is_sent_but_never_written(tmp_path, echo_service):
    extent, text, points = score(
        tmp_path, echo_service, "MY_TOKEN", MY_TOKEN=SECRET, BLUEPRINT_CALL_ENV="MY_TOKEN"
    )
    assert extent == 1
    assert "you sent Bearer ***" in points
    assert SECRET not in text


def test_a_host_key_the_operator_did_not_allow_is_never_sent(tmp_path, echo_service):
    extent, text, points = score(tmp_path, echo_service, "OPENAI_API_KEY", OPENAI_API_KEY=SECRET)
    assert extent is None
    assert "Environment variable OPENAI_API_KEY is not allowed" in points
    assert SECRET not in text
