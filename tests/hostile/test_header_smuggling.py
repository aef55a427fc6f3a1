"""Blueprints cannot set routing or framing headers, nor huge or odd ones (issue 32, item 2)."""

from __future__ import annotations

import httpx
import pytest

from engine.checks import CheckEnv
from engine.providers.custom import custom_endpoints, custom_models
from engine.settings import Settings
from tests.checks.conftest import raw
from tests.checks.test_call import BLUEPRINT, PROMPT, Recorder, ok
from tests.lint.helpers import lint_strict

SETTINGS = Settings(model_allow=("127.0.0.1",), call_allow=("example.com",), call_env=("TOK",))
REFUSED = [
    "Host",
    "content-length",
    "Transfer-Encoding",
    "CONNECTION",
    "Upgrade",
    "TE",
    "Trailer",
    "Keep-Alive",
    "Proxy-Authorization",
]


def _custom_reason(headers: dict[str, object], environ: dict[str, str] | None = None) -> object:
    entry = {"id": "mine", "url": "http://127.0.0.1:9/v1", "modelName": "m", "inherit": "openai"}
    models = custom_models([{**entry, "headers": headers}])
    (reason,) = custom_endpoints(models, environ or {"TOK": "token-value"}, SETTINGS).values()
    return reason


@pytest.mark.parametrize("name", REFUSED)
def test_a_custom_model_cannot_set_routing_or_framing_headers(name: str) -> None:
    reason = _custom_reason({name: "2"})
    assert isinstance(reason, str) and "set by the HTTP client itself" in reason


@pytest.mark.parametrize(
    ("headers", "needle"),
    [
        ({"X-Key": ["a", "b"]}, "not a list or a mapping"),
        ({"X-Key": {"a": 1}}, "not a list or a mapping"),
        ({"X-Key": "v" * 1_000_000}, "more than the 8,192"),
        ({"X-Key": "Bearer ${TOK"}, "without a closing"),
        ({f"X-{i}": "v" for i in range(51)}, "51 headers are set, more than the 50"),
    ],
)
def test_custom_model_headers_are_bounded_text(headers: dict[str, object], needle: str) -> None:
    reason = _custom_reason(headers)
    assert isinstance(reason, str) and needle in reason


def test_ordinary_custom_model_headers_still_pass() -> None:
    endpoint = _custom_reason({"Authorization": "Bearer ${TOK}", "X-Version": 2})
    assert not isinstance(endpoint, str)
    assert dict(endpoint.headers) == {"Authorization": "Bearer token-value", "X-Version": "2"}


def _call_env(recorder: Recorder) -> CheckEnv:
    return CheckEnv(
        http=httpx.Client(transport=httpx.MockTransport(recorder)),
        sleep=lambda _s: None,
        resolve=lambda host: ["93.184.216.34"],
        environ={},
        settings=SETTINGS,
    )


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Length": "2", "Transfer-Encoding": "chunked"},
        {"host": "internal.example.net"},
        {"X-List": ["a", "b"]},
        {"X-Open": "${TOK"},
    ],
)
def test_call_refuses_such_headers_before_any_request(headers: dict[str, object]) -> None:
    recorder = Recorder(ok({"score": 1}))
    args = {"url": "https://example.com/score", "headers": headers}
    result = raw("call", "text", args, env=_call_env(recorder), blueprint=BLUEPRINT, prompt=PROMPT)
    assert isinstance(result, dict) and "The headers cannot be sent" in result["error"]
    assert recorder.requests == []


CALL_BLUEPRINT = """\
title: Headers
externalServices:
  scorer:
    url: https://example.com/score
    headers:
      X-Team: evals
      Host: internal.example.net
---
- id: p1
  prompt: Hi
  should:
    - $call:
        url: https://example.com/score
        headers:
          X-Ok: fine
          Transfer-Encoding: chunked
          X-Secret: ${OPENAI_API_KEY}
"""


def test_lint_reports_each_refused_header_at_its_line() -> None:
    found = [d for d in lint_strict(CALL_BLUEPRINT, settings=SETTINGS) if d.code == "call-header"]
    errors = sorted((d.line, d.severity) for d in found)
    assert errors == [(7, "error"), (16, "error"), (17, "warning")]
    by_line = {d.line: d.message for d in found}
    assert "`Host`" in by_line[7] or '"Host"' in by_line[7]
    assert "remove it" in by_line[16]
    assert "OPENAI_API_KEY" in by_line[17] and "BLUEPRINT_CALL_ENV" in by_line[17]


def test_lint_reports_a_custom_models_refused_header_at_its_line() -> None:
    text = (
        "title: M\nmodels:\n  - id: mine\n    url: http://127.0.0.1:9/v1\n    modelName: m\n"
        "    inherit: openai\n    headers:\n      Content-Length: '0'\n---\n- prompt: Hi\n"
        "  should: [x]\n"
    )
    (diagnostic,) = [d for d in lint_strict(text, settings=SETTINGS) if d.code == "custom-model"]
    assert diagnostic.line == 8 and diagnostic.severity == "error"
    assert "set by the HTTP client itself" in diagnostic.message
