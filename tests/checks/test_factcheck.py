"""`$factcheck` (spec §3.9): unverified without a service, the request, errors and cache."""

from __future__ import annotations

import json

import httpx
import pytest

from engine.checks import CheckEnv
from engine.settings import Settings
from tests.checks.conftest import assess, raw

CONFIGURED = Settings(factcheck_url="https://facts.internal/", factcheck_token="tok-1")


def env_with(handler, settings: Settings = CONFIGURED) -> CheckEnv:
    return CheckEnv(settings=settings, http=httpx.Client(transport=httpx.MockTransport(handler)))


def test_without_a_service_the_point_is_unverified_never_pass_or_fail():
    for args in (None, "focus on dates"):
        a = assess("factcheck", "Paris is in France.", args)
        assert a.status == "unverified" and a.coverage_extent is None and a.error is None
        assert "BLUEPRINT_FACTCHECK_URL" in (a.reflection or "")
        assert [f.code for f in a.findings] == ["not_configured"]


def test_argument_validation():
    message = (
        "Argument for 'factcheck' must be a string instruction (e.g., 'focus on city names "
        "only'), or omitted for general fact-checking"
    )
    assert raw("factcheck", "x", 5) == {"error": message}
    assert raw("factcheck", "x", ["a"]) == {"error": message}


def test_request_body_headers_and_result():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"score": 0.8, "explain": "## Truth Analysis"})

    env = env_with(handler)
    messages = [
        {"role": "user", "content": "Where is Paris?"},
        {"role": "assistant", "content": None},
        {"role": "assistant", "content": "In France."},
    ]
    result = raw(
        "factcheck",
        "In France.",
        "focus on places",
        env=env,
        messages=messages,
        generated_indices=[2],
    )
    assert result == {"score": 0.8, "explain": "## Truth Analysis"}
    request = seen[0]
    assert str(request.url) == "https://facts.internal/api/internal/factcheck"
    assert request.headers["X-Background-Function-Auth-Token"] == "tok-1"
    assert json.loads(request.content) == {
        "claim": "In France.",
        "instruction": "focus on places",
        "includeRaw": False,
        "messages": [
            {"role": "user", "content": "Where is Paris?", "generated": False},
            {"role": "assistant", "content": "", "generated": False},
            {"role": "assistant", "content": "In France.", "generated": True},
        ],
    }
    again = raw(
        "factcheck",
        "In France.",
        "focus on places",
        env=env,
        messages=messages,
        generated_indices=[2],
    )
    assert again == {"score": 0.8, "explain": "## Truth Analysis (cached)"}
    assert len(seen) == 1


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        (
            httpx.Response(200, json={"score": 0.5}),
            {"score": 0.5, "explain": "No explanation provided"},
        ),
        (httpx.Response(500, json={"error": "model down"}), {"error": "model down"}),
        (httpx.Response(502, text="bad gateway"), {"error": "Factcheck service returned HTTP 502"}),
        (
            httpx.Response(200, text="nope"),
            {"error": "Invalid response from factcheck service: no data"},
        ),
        (
            httpx.Response(200, json={"explain": "x"}),
            {"error": "Invalid response from factcheck service: missing or invalid score"},
        ),
        (
            httpx.Response(200, json={"score": 2}),
            {"error": "Invalid score from factcheck service: 2 (must be 0-1)"},
        ),
    ],
)
def test_service_outcomes(response, expected):
    assert raw("factcheck", "claim", None, env=env_with(lambda _r: response)) == expected


def test_network_failure():
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused")

    assert raw("factcheck", "claim", None, env=env_with(handler)) == {
        "error": "Factcheck failed: connection refused"
    }
