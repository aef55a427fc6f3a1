"""`$call`: refusals before any request, the request contract, retries, cache (spec §3.8)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from engine.blueprint.models import Blueprint, Prompt
from engine.checks import CheckEnv, TTLCache
from engine.checks.call import check_secrets
from engine.errors import ConfigError
from engine.net import call_host_refusal
from engine.net.guard import resolve_refusal
from engine.net.headers import ENV_HELP
from engine.settings import Settings, load_settings
from tests.checks.conftest import assess, raw

ALLOW = Settings(
    call_allow=("example.com", "*.example.org", "127.0.0.1"),
    call_env=("TEST_API_KEY", "CUSTOM_TOKEN"),
)
BLUEPRINT = Blueprint(
    external_services={
        "test-service": {
            "url": "https://example.com/evaluate",
            "headers": {"Authorization": "Bearer ${TEST_API_KEY}"},
            "timeout_ms": 5000,
        },
        "another-service": {"url": "https://api.example.org/check", "method": "POST"},
    }
)
PROMPT = Prompt(id="test-prompt")


class Recorder:
    """An httpx.MockTransport handler that replays responses and records requests."""

    def __init__(self, *responses: httpx.Response | Exception) -> None:
        self.responses = list(responses)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        item = self.responses.pop(0) if len(self.responses) > 1 else self.responses[0]
        if isinstance(item, Exception):
            raise item
        return item

    def body(self, index: int = 0) -> dict[str, object]:
        return json.loads(self.requests[index].content)


def make_env(handler: Callable[[httpx.Request], httpx.Response], **kw: object) -> CheckEnv:
    kw.setdefault("settings", ALLOW)
    return CheckEnv(
        http=httpx.Client(transport=httpx.MockTransport(handler)),
        sleep=lambda _s: None,
        resolve=lambda host: ["93.184.216.34"],
        environ={"TEST_API_KEY": "secret-key-123", "CUSTOM_TOKEN": "inline-token"},
        **kw,  # type: ignore[arg-type]
    )


def call(args: object, env: CheckEnv, text: str = "test response") -> object:
    return raw("call", text, args, env=env, blueprint=BLUEPRINT, prompt=PROMPT)


def ok(payload: object, status: int = 200) -> httpx.Response:
    return httpx.Response(status, json=payload)


def test_argument_validation():
    env = make_env(Recorder(ok({"score": 1})))
    assert call("invalid args", env) == {"error": "Argument for 'call' must be an object"}
    assert call(None, env) == {"error": "Argument for 'call' must be an object"}
    assert call({}, env) == {
        "error": "External service call failed: Must provide either 'service' (named service) or 'url' (inline service)"
    }
    missing = call({"service": "nonexistent-service"}, env)
    assert missing == {
        "error": "External service call failed: External service 'nonexistent-service' not found "
        "in config. Available services: test-service, another-service"
    }


def test_named_service_call_body_and_headers():
    rec = Recorder(ok({"score": 0.95, "explain": "Excellent response"}))
    env = make_env(rec)
    result = call(
        {"service": "test-service", "claim": "Paris is capital"},
        env,
        "Paris is the capital of France",
    )
    assert result == {"score": 0.95, "explain": "Excellent response"}
    request = rec.requests[0]
    assert str(request.url) == "https://example.com/evaluate" and request.method == "POST"
    assert request.headers["Authorization"] == "Bearer secret-key-123"
    assert request.headers["Content-Type"] == "application/json"
    assert rec.body() == {
        "response": "Paris is the capital of France",
        "modelId": "test-model",
        "promptId": "test-prompt",
        "claim": "Paris is capital",
    }


def test_templates_and_config_keys():
    rec = Recorder(ok({"score": 1.0}))
    env = make_env(rec)
    args = {
        "service": "test-service",
        "url": "should-be-ignored",
        "method": "should-be-ignored",
        "timeout_ms": "should-be-ignored",
        "responseText": "{response}",
        "model": "{modelId}",
        "prompt": "{promptId}",
        "history": "{messages}",
        "embedded": "Model {modelId} said: {response}",
        "nested": [{"m": "{messages}"}, "{promptText}", "x {messages} y"],
        "response": "overridden",
    }
    messages = [{"role": "user", "content": "Hi"}]
    assert raw(
        "call",
        "Model response text",
        args,
        env=env,
        blueprint=BLUEPRINT,
        prompt=PROMPT,
        messages=messages,
    ) == {"score": 1.0}
    body = rec.body()
    assert body["responseText"] == "Model response text"
    assert body["model"] == "test-model" and body["prompt"] == "test-prompt"
    assert body["history"] == messages
    assert body["embedded"] == "Model test-model said: Model response text"
    assert body["nested"] == [{"m": messages}, None, 'x [{"role":"user","content":"Hi"}] y']
    assert body["response"] == "overridden"
    for key in ("url", "method", "timeout_ms", "service"):
        assert key not in body


def test_inline_url_headers_and_timeout():
    rec = Recorder(ok({"score": 0.9}))
    env = make_env(rec)
    args = {
        "url": "https://custom.example.org/check",
        "headers": {"X-Custom-Header": "Bearer ${CUSTOM_TOKEN}"},
        "timeout_ms": 60000,
        "method": "put",
    }
    assert call(args, env) == {"score": 0.9}
    request = rec.requests[0]
    assert request.headers["X-Custom-Header"] == "Bearer inline-token"
    assert request.method == "PUT"
    assert request.extensions["timeout"]["read"] == 60.0


@pytest.mark.parametrize(
    ("response", "error"),
    [
        (
            ok({"error": "Service temporarily unavailable"}),
            "External service error: Service temporarily unavailable",
        ),
        (httpx.Response(404, text="Not here"), "External service call failed: HTTP 404: Not here"),
        (
            ok({"invalid": "response"}),
            "External service call failed: Invalid service response: score must be a number, got undefined",
        ),
        (
            ok({"score": 1.5}),
            "External service call failed: Invalid service response: score must be between 0 and 1, got 1.5",
        ),
        (
            ok({"score": "0.5"}),
            "External service call failed: Invalid service response: score must be a number, got string",
        ),
        (
            ok([1]),
            "External service call failed: Invalid service response: score must be a number, got undefined",
        ),
        (
            ok("text"),
            "External service call failed: Invalid service response: Response must be an object",
        ),
        (
            httpx.Response(200, text="not json"),
            "External service call failed: Invalid service response: the body is not JSON",
        ),
    ],
)
def test_service_errors(response, error):
    env = make_env(Recorder(response))
    assert call({"service": "test-service"}, env) == {"error": error}


def test_missing_env_var():
    env = make_env(Recorder(ok({"score": 1})))
    env.environ = {}
    assert call({"service": "test-service"}, env) == {
        "error": "External service call failed: Failed to substitute env var in header "
        "'Authorization': Environment variable TEST_API_KEY is not defined"
    }


@pytest.mark.parametrize("environ", [{"OPENAI_API_KEY": "sk-host-secret-1"}, {}])
def test_a_variable_the_operator_did_not_allow_is_never_read(environ):
    rec = Recorder(ok({"score": 1}))
    env = make_env(rec)
    env.environ = environ
    args = {"url": "https://example.com/x", "headers": {"X-Key": "${OPENAI_API_KEY}"}}
    result = call(args, env)
    assert result == {
        "error": "External service call failed: Failed to substitute env var in header 'X-Key': "
        "Environment variable OPENAI_API_KEY is not allowed. " + ENV_HELP
    }
    assert rec.requests == []


def test_allowed_variables_come_from_the_environment_and_settings_file(tmp_path, monkeypatch):
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text('[call]\nenv = ["FROM_FILE"]\n')
    monkeypatch.setenv("BLUEPRINT_CALL_ENV", "A_KEY, B_KEY")
    assert load_settings(settings_file).call_env == ("A_KEY", "B_KEY", "FROM_FILE")
    settings_file.write_text('[call]\nenv = "FROM_FILE"\n')
    with pytest.raises(ConfigError, match="env must be a list"):
        load_settings(settings_file)


SECRET = "secret-key-123"


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        (
            ok({"score": 1, "explain": f"you sent Bearer {SECRET}"}),
            {"score": 1, "explain": "you sent Bearer ***"},
        ),
        (ok({"error": f"bad key {SECRET}"}), {"error": "External service error: bad key ***"}),
        (
            httpx.Response(401, text="x" * 190 + SECRET),
            {"error": "External service call failed: HTTP 401: " + "x" * 190 + "***"},
        ),
        (
            ok({"score": 1, "explain": "provider key sk-provider-99"}),
            {"score": 1, "explain": "provider key ***"},
        ),
    ],
)
def test_secrets_echoed_by_the_service_are_redacted(response, expected):
    env = make_env(Recorder(response))
    env.environ = {**env.environ, "OPENAI_API_KEY": "sk-provider-99"}
    assert call({"service": "test-service"}, env) == expected
    cached = call({"service": "test-service"}, env)
    assert SECRET not in json.dumps(cached) and "sk-provider-99" not in json.dumps(cached)


def test_short_values_are_not_redacted():
    env = make_env(Recorder(ok({"score": 1, "explain": "abc is fine"})))
    env.environ = {"TEST_API_KEY": "abc"}
    assert check_secrets(env) == ()
    assert call({"service": "test-service"}, env) == {"score": 1, "explain": "abc is fine"}


def test_retries_on_5xx_and_network_errors_with_backoff():
    waits: list[float] = []
    rec = Recorder(
        httpx.Response(500, text="Internal Server Error"),
        httpx.ConnectError("Connection refused"),
        ok({"score": 0.5}),
    )
    env = make_env(rec)
    env.sleep = waits.append
    assert call({"url": "https://example.com/x", "retry_backoff_ms": 10}, env) == {"score": 0.5}
    assert len(rec.requests) == 3
    assert waits == [0.01, 0.02]


def test_retries_are_bounded_and_4xx_is_not_retried():
    rec = Recorder(httpx.Response(503, text="busy"))
    env = make_env(rec)
    assert call({"url": "https://example.com/x", "max_retries": 1}, env) == {
        "error": "External service call failed: HTTP 503: busy"
    }
    assert len(rec.requests) == 2
    rec4 = Recorder(httpx.Response(400, text="bad"))
    assert call({"url": "https://example.com/x"}, make_env(rec4)) == {
        "error": "External service call failed: HTTP 400: bad"
    }
    assert len(rec4.requests) == 1
    net = Recorder(httpx.ConnectError("Network connection failed"))
    result = call({"service": "test-service"}, make_env(net))
    assert "Network connection failed" in result["error"] and len(net.requests) == 3  # type: ignore[index]
    slow = Recorder(httpx.ReadTimeout("slow"))
    result = call(
        {"url": "https://example.com/x", "timeout_ms": 50, "max_retries": 0}, make_env(slow)
    )
    assert result == {"error": "External service call failed: The request timed out after 50 ms"}


def test_cache_hit_appends_cached_and_skips_the_request():
    now = [0.0]
    rec = Recorder(ok({"score": 0.75, "explain": "Fresh result"}))
    env = make_env(rec, cache=TTLCache(clock=lambda: now[0]))
    assert call({"service": "test-service"}, env) == {"score": 0.75, "explain": "Fresh result"}
    assert call({"service": "test-service"}, env) == {
        "score": 0.75,
        "explain": "Fresh result (cached)",
    }
    assert len(rec.requests) == 1
    now[0] = 24 * 3600 + 1  # expired after 24 h
    assert call({"service": "test-service"}, env) == {"score": 0.75, "explain": "Fresh result"}
    assert len(rec.requests) == 2
    # `cache` in the arguments only configures inline calls; a named service uses its own config
    assert (
        call({"service": "test-service", "cache": False}, env)["explain"] == "Fresh result (cached)"
    )  # type: ignore[index]
    inline = {"url": "https://example.com/evaluate", "cache": False}
    assert call(inline, env) == {"score": 0.75, "explain": "Fresh result"}
    assert call(inline, env) == {"score": 0.75, "explain": "Fresh result"}
    assert len(rec.requests) == 4


def test_scores_zero_one_and_missing_explain():
    for score in (0, 1):
        env = make_env(Recorder(ok({"score": score})))
        assessment = assess(
            "call", "t", {"service": "test-service"}, env=env, blueprint=BLUEPRINT, prompt=PROMPT
        )
        assert assessment.coverage_extent == score
        found = (
            "Passes your service's check, as required"
            if score
            else "Fails your service's check, but it should"
        )
        assert assessment.reflection == f"{found}: score {score}.00."
    assert call({"service": "test-service"}, make_env(Recorder(ok({"score": 0.5})))) == {
        "score": 0.5
    }


@pytest.mark.parametrize(
    ("url", "allow", "fragment"),
    [
        ("https://evil.test/x", ("example.com",), "not in the $call allow-list"),
        (
            "http://169.254.169.254/latest/meta-data",
            ("169.254.169.254.nip.io", "*.254"),
            "not in the $call allow-list",
        ),
        ("http://10.0.0.5/x", ("*.0.0.5",), "not in the $call allow-list"),
        (
            "http://localhost:8080/x",
            ("*.localhost", "localhost.example"),
            "not in the $call allow-list",
        ),
        ("ftp://example.com/x", ("example.com",), "only http:// and https://"),
        ("https://example.org/x", ("*.example.org",), "not in the $call allow-list"),
    ],
)
def test_static_refusals(url, allow, fragment):
    message = call_host_refusal(url, Settings(call_allow=allow))
    assert message is not None and fragment in message
    if "allow-list" in fragment:
        assert "BLUEPRINT_CALL_ALLOW" in message and "[call] allow" in message


def test_private_addresses_need_a_literal_listing():
    wildcard = Settings(call_allow=("*.internal.example",))
    refusal = call_host_refusal("http://x.internal.example/", wildcard)
    assert refusal is None  # a name: checked after resolution
    for host, _kind in [
        ("127.0.0.1", "loopback"),
        ("10.1.2.3", "private"),
        ("169.254.169.254", "link-local"),
        ("0.0.0.0", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("[::1]", "loopback"),
        ("[::ffff:127.0.0.1]", "loopback"),
        ("2130706433", "loopback"),
    ]:
        settings = Settings(call_allow=(host.strip("[]"),))
        assert call_host_refusal(f"http://{host}/", settings) is None  # listed literally: opt-in
        env = make_env(Recorder(ok({"score": 1})), settings=Settings(call_allow=("*",)))
        address = host.strip("[]")
        env.resolve = lambda _h, ip=address: [ip]
        result = call({"url": "http://service.example.com/"}, env)
        assert result["error"].startswith("External service call refused: ")  # type: ignore[index]
    env = make_env(Recorder(ok({"score": 1})), settings=Settings(call_allow=("*.example.com",)))
    env.resolve = lambda _h: ["93.184.216.34", "192.168.1.10"]
    result = call({"url": "https://api.example.com/x"}, env)
    assert "private address (192.168.1.10)" in result["error"]  # type: ignore[index]


EMBEDDED = [
    # (IPv6 address, kind of the IPv4 address it carries, or None when that one is public)
    ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1
    ("2002:a9fe:a9fe::1", "link-local"),  # 6to4 of the metadata service
    ("2002:c0a8:101:1::5", "private"),  # 6to4 of 192.168.1.1
    ("2002:a00:1::", "private"),  # 6to4 of 10.0.0.1
    ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
    ("::ffff:a9fe:a9fe", "link-local"),
    ("::127.0.0.1", "loopback"),  # IPv4-compatible
    ("::a9fe:a9fe", "link-local"),
    ("::ffff:0:7f00:1", "loopback"),  # IPv4-translated (SIIT)
    ("64:ff9b::7f00:1", "loopback"),  # NAT64
    ("64:ff9b::a9fe:a9fe", "link-local"),
    ("64:ff9b:1::a00:1", "private"),  # local-use NAT64
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"),  # Teredo, client 127.0.0.1
    ("2001:0:a9fe:a9fe::1", "link-local"),  # Teredo, server 169.254.169.254
    ("2600::5efe:7f00:1", "loopback"),  # ISATAP in a public prefix
    ("2600::200:5efe:a9fe:a9fe", "link-local"),
    ("2600::5efe:a00:1", "private"),
    ("2002:808:808::1", None),  # 6to4 of 8.8.8.8
    ("2600::5efe:808:808", None),  # ISATAP of 8.8.8.8
    ("::ffff:8.8.8.8", None),
    ("2606:4700::6810:84e5", None),  # plain public IPv6
]


@pytest.mark.parametrize(("address", "kind"), EMBEDDED)
def test_ipv4_inside_ipv6_is_as_public_as_the_ipv4(address, kind):
    anywhere = Settings(call_allow=("*",))
    literal = call_host_refusal(f"http://[{address}]/", anywhere)
    resolved = resolve_refusal("http://svc.example.com/", anywhere, lambda _h: [address])
    for refusal in (literal, resolved):
        if kind is None:
            assert refusal is None
        else:
            assert refusal is not None and f"it is a {kind} address" in refusal
    if kind is not None:  # still an explicit opt-in when listed literally
        assert call_host_refusal(f"http://[{address}]/", Settings(call_allow=(address,))) is None


def test_a_name_that_does_not_resolve_is_said_without_python_wording():
    def unknown(_host: str) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    refusal = resolve_refusal("https://nowhere.example.com/", Settings(call_allow=("*",)), unknown)
    assert refusal == (
        "Refusing to call 'nowhere.example.com': its name does not resolve "
        "(Name or service not known)."
    )


def test_refusals_happen_before_any_request():
    rec = Recorder(ok({"score": 1}))
    env = make_env(rec, settings=Settings(call_allow=("example.com",)))
    for url in (
        "http://169.254.169.254/latest/meta-data",
        "http://127.0.0.1:9/x",
        "https://unlisted.test/",
        "http://10.0.0.1/",
    ):
        assessment = assess("call", "t", {"url": url}, env=env, blueprint=BLUEPRINT, prompt=PROMPT)
        assert assessment.status == "errored" and assessment.coverage_extent is None
        assert (assessment.error or "").startswith(
            "External service call refused: Refusing to call"
        )
    assert rec.requests == []


@contextlib.contextmanager
def json_service(
    reply: Callable[[dict[str, str], dict[str, object]], object],
) -> Iterator[str]:
    """A real local HTTP service answering each POST with `reply(headers, body)` as JSON."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            payload = json.dumps(reply(dict(self.headers), body)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/score"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def local_server() -> Iterator[tuple[str, list[dict[str, object]]]]:
    seen: list[dict[str, object]] = []

    def reply(_headers: dict[str, str], body: dict[str, object]) -> object:
        seen.append(body)
        return {"score": 0.25 if "bad" in str(body["response"]) else 1, "explain": "ok"}

    with json_service(reply) as url:
        yield url, seen


def test_a_real_local_service_listed_literally(local_server):
    url, seen = local_server
    env = CheckEnv(settings=Settings(call_allow=("127.0.0.1",)))
    try:
        good = assess("call", "fine answer", {"url": url, "cache": False}, env=env, prompt=PROMPT)
        bad = assess(
            "call",
            "bad answer",
            {"url": url, "cache": False},
            env=env,
            prompt=PROMPT,
            inverted=True,
        )
    finally:
        env.client().close()
    assert (good.status, good.coverage_extent, good.reflection) == ("scored", 1.0, "ok")
    assert (bad.coverage_extent, bad.is_inverted) == (0.75, True)
    assert [b["response"] for b in seen] == ["fine answer", "bad answer"]
    refused = assess("call", "x", {"url": url}, env=CheckEnv(settings=Settings(call_allow=("*",))))
    assert refused.status == "errored" and "loopback" in (refused.error or "")
