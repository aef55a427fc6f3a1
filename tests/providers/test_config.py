"""Model ids, keys and endpoints: readiness checks, error messages, secrets files."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from engine.errors import ConfigError, MissingKeyError, UnknownProviderError
from engine.providers import ChatRequest, ProviderPool, load_environ, read_secrets
from tests.providers.helpers import ask


def check(environ: dict[str, str], model_id: str) -> str | None:
    return ProviderPool(environ=environ).check(model_id)  # no client is made: nothing to close


def chat_error(environ: dict[str, str], model_id: str) -> BaseException:
    async def main() -> BaseException:
        async with ProviderPool(environ=environ) as pool:
            try:
                await pool.chat(ask(model_id))
            except Exception as exc:
                return exc
        raise AssertionError("the call should have failed")

    return asyncio.run(main())


def test_missing_key_names_the_provider_and_the_variable() -> None:
    error = chat_error({}, "openrouter:openai/gpt-4.1-mini")
    assert isinstance(error, MissingKeyError)
    assert "'openrouter'" in str(error)
    assert "set OPENROUTER_API_KEY" in str(error)
    assert check({}, "anthropic:claude-haiku-4.5") == str(
        chat_error({}, "anthropic:claude-haiku-4.5")
    )
    assert "ANTHROPIC_API_KEY" in str(check({}, "anthropic:claude-haiku-4.5"))


def test_unknown_prefix_lists_the_known_providers_and_the_base_url_way() -> None:
    error = chat_error({}, "vllm:my-model")
    assert isinstance(error, UnknownProviderError)
    message = str(error)
    for known in ("anthropic", "ollama", "openai", "openrouter"):
        assert known in message
    assert "set VLLM_BASE_URL" in message
    assert "did you mean" not in message.lower()


def test_a_near_miss_gets_a_suggestion() -> None:
    assert "Did you mean 'openai'?" in str(check({}, "openia:gpt-4.1"))


def test_a_model_id_without_prefix_is_explained() -> None:
    message = str(check({}, "gpt-4.1-mini"))
    assert "no provider prefix" in message
    assert "openai:gpt-4.1-mini" in message


def test_checks_that_pass_and_the_offline_models() -> None:
    env = {"OPENAI_API_KEY": "k", "MYLAB_BASE_URL": "http://10.0.0.2:8000/v1"}
    assert check(env, "openai:gpt-4.1-mini") is None
    assert check({}, "ollama:llama3.2") is None  # no key needed
    assert check(env, "mylab:model") is None
    assert check({}, "OpenAI:gpt-4.1") is not None  # case-insensitive prefix, still a key
    assert check({"OPENAI_API_KEY": "k"}, "OpenAI:gpt-4.1") is None
    for offline in ("ideal", "replay:answers.jsonl"):
        assert "answered offline" in str(check({}, offline))
    assert isinstance(chat_error({}, "ideal"), ConfigError)


def test_bad_base_urls_and_empty_models() -> None:
    assert "OPENAI_BASE_URL must be an http:// or https:// URL" in str(
        check({"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "localhost:8000"}, "openai:x")
    )
    assert "names no model" in str(check({"OPENAI_API_KEY": "k"}, "openai:"))


def test_secrets_file_shapes(tmp_path: Path) -> None:
    path = tmp_path / "secrets.toml"
    path.write_text(
        'OPENAI_API_KEY = "flat"\n'
        'title = "ignored"\n'
        "[keys]\n"
        'ANTHROPIC_API_KEY = "from-table"\n'
        "[openrouter]\n"
        'api_key = "per-provider"\n'
        'base_url = "https://example.org/v1"\n'
        "[my-lab]\n"
        'base_url = "http://lab:8000/v1"\n',
        encoding="utf-8",
    )
    assert read_secrets(path) == {
        "OPENAI_API_KEY": "flat",
        "ANTHROPIC_API_KEY": "from-table",
        "OPENROUTER_API_KEY": "per-provider",
        "OPENROUTER_BASE_URL": "https://example.org/v1",
        "MY_LAB_BASE_URL": "http://lab:8000/v1",
    }
    merged = load_environ(path, base={"OPENAI_API_KEY": "from-env", "HOME": "/root"})
    assert merged["OPENAI_API_KEY"] == "from-env"  # the environment wins
    assert merged["ANTHROPIC_API_KEY"] == "from-table"
    assert check(merged, "my-lab:model") is None
    assert load_environ(tmp_path / "missing.toml", base={}) == {}
    assert load_environ(None, base={"A_API_KEY": "x"}) == {"A_API_KEY": "x"}


def test_an_invalid_secrets_file_is_a_config_error_that_quotes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "secrets.toml"
    path.write_text('OPENAI_API_KEY = "sk-secret-value\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML") as info:
        read_secrets(path)
    assert "sk-secret-value" not in str(info.value)


def test_a_closed_pool_refuses_calls() -> None:
    async def main() -> None:
        pool = ProviderPool(environ={"OPENAI_API_KEY": "k"})
        await pool.aclose()  # never used: nothing was opened
        with pytest.raises(RuntimeError, match="closed"):
            await pool.chat(ask("openai:gpt-4.1-mini"))

    asyncio.run(main())


@pytest.mark.parametrize(
    ("variables", "proxied"),
    [
        ({}, None),
        ({"NO_PROXY": "localhost"}, None),
        ({"HTTPS_PROXY": "http://proxy:3128"}, {"https"}),
        ({"http_proxy": "http://p:1", "ALL_PROXY": "socks5://s:2"}, {"http", "https"}),
        ({"FTP_PROXY": "http://p:1"}, None),
        ({"HTTPS_PROXY": ""}, None),
    ],
)
def test_the_proxies_are_those_the_environment_sets(monkeypatch, variables, proxied):
    # read as urllib.request.getproxies reads them; without a *_proxy variable, not even imported
    from engine.net.proxies import proxy_routes

    for name in [n for n in os.environ if n.lower().endswith("_proxy")]:
        monkeypatch.delenv(name)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    routes = proxy_routes()
    if proxied is None:
        assert routes is None
    else:
        assert routes is not None
        sent = {s for s in ("http", "https") if routes.proxied(f"{s}://llm.example/v1")}
        assert sent == proxied


_NO_PROXY = [
    "",
    "*",
    "127.0.0.1",
    "localhost",
    "example.com",
    ".example.com",
    "example.com:8080",
    "http://example.com",
    "https://api.example.com:8443",
    "::1",
    "10.0.0.0/8",
    "other.org, example.com ,, ",
    "xample.com",
]
_URLS = [
    "http://127.0.0.1:8000/v1/chat/completions",
    "http://localhost:1234/v1",
    "https://example.com/v1",
    "http://example.com:8080/v1",
    "https://example.com:8080/v1",
    "https://api.example.com:8443/v1",
    "https://api.example.com/v1",
    "http://wwwexample.com/v1",
    "http://[::1]:9000/v1",
    "https://10.1.2.3/v1",
    "https://EXAMPLE.com:443/v1",
]


@pytest.mark.parametrize("no_proxy", _NO_PROXY)
def test_which_urls_go_through_the_proxy_agrees_with_httpx(monkeypatch, no_proxy):
    # The pool sends a bypassing URL itself and leaves a proxied one to httpx: the two must
    # agree on every URL. httpx's own pick (its client's transport for a URL) is the reference.
    import httpx

    from engine.net.proxies import proxy_routes

    for name in [n for n in os.environ if n.lower().endswith("_proxy")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.test:3128")
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.test:3128")
    monkeypatch.setenv("NO_PROXY", no_proxy)
    routes = proxy_routes()
    assert routes is not None
    client = httpx.Client(trust_env=True)
    try:
        for url in _URLS:
            by_httpx = client._transport_for_url(httpx.URL(url)) is not client._transport
            assert routes.proxied(url) is by_httpx, (no_proxy, url)
    finally:
        client.close()


def test_a_key_with_a_line_break_is_refused_by_name_and_a_pasted_line_end_is_dropped():
    # Sent as it is, the break would end the header line: a malformed or injected request
    environ = {"OPENAI_API_KEY": "sk-secret\nX-Injected: 1"}
    message = check(environ, "openai:gpt-4.1-mini")
    assert message is not None and "OPENAI_API_KEY" in message and "line break" in message
    assert "sk-secret" not in message
    assert check({"OPENAI_API_KEY": "sk-caf\u00e9"}, "openai:m") is not None
    assert check({"OPENAI_API_KEY": "sk-pasted\r\n"}, "openai:gpt-4.1-mini") is None
    assert "needs an API key" in (check({"OPENAI_API_KEY": " \n"}, "openai:m") or "")


def test_a_pasted_line_end_never_reaches_the_wire() -> None:
    import json

    from tests.providers.test_transport import RawServer, ok, serve

    chat = {"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]}

    async def body(server: RawServer) -> None:
        environ = {"OPENAI_API_KEY": "sk-pasted\n", "OPENAI_BASE_URL": f"{server.url}/v1"}
        async with ProviderPool(environ=environ) as pool:
            reply = await pool.chat(
                ChatRequest(model_id="openai:m", messages=[{"role": "user", "content": "q"}])
            )
            assert reply.text == "hi"

    server = serve([ok(json.dumps(chat).encode())], body)
    assert b"\r\nAuthorization: Bearer sk-pasted\r\n" in server.requests[0][0]
