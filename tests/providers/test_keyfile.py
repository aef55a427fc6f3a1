"""Keys pasted in the studio: written to the secrets file privately, reported masked, tested."""

from __future__ import annotations

import asyncio
import stat
import tomllib
from pathlib import Path

import pytest

from engine.errors import ConfigError
from engine.providers import read_secrets
from engine.providers.keyfile import check_key, key_statuses, mask, save_key, variable_for
from tests.fakes.llm_server import FakeLLM

KEY = "sk-test-PASTED-4242"


def test_a_saved_key_is_read_back_by_the_engine_and_only_the_owner_can_read_the_file(
    tmp_path: Path,
):
    path = tmp_path / ".streamlit" / "secrets.toml"
    assert save_key(path, "openai", f"  {KEY}\n") == "OPENAI_API_KEY"
    assert read_secrets(path)["OPENAI_API_KEY"] == KEY
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not list(path.parent.glob(".*.tmp"))


def test_saving_keeps_every_other_line_and_replaces_an_old_key(tmp_path: Path):
    path = tmp_path / "secrets.toml"
    original = (
        "# my keys\n"
        'ANTHROPIC_API_KEY = "sk-ant-old"\n'
        'OPENAI_API_KEY = "sk-old"  # replace me\n'
        "\n"
        "[openrouter]\n"
        'api_key = "or-key"\n'
    )
    path.write_text(original)
    path.chmod(0o644)
    save_key(path, "openai", KEY)
    text = path.read_text()
    assert (
        text.replace(f'OPENAI_API_KEY = "{KEY}"\n', 'OPENAI_API_KEY = "sk-old"  # replace me\n')
        == original
    )
    save_key(path, "mistral", "ms-0123456789")
    data = tomllib.loads(path.read_text())
    assert data["MISTRAL_API_KEY"] == "ms-0123456789"
    assert data["openrouter"] == {"api_key": "or-key"}  # the new key did not land in a table
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("bad", ["", "   ", "two words", "line\nbreak", "x" * 2000, "bell\x07"])
def test_a_malformed_key_is_refused_and_never_quoted(tmp_path: Path, bad: str):
    path = tmp_path / "secrets.toml"
    with pytest.raises(ConfigError) as caught:
        save_key(path, "openai", bad)
    assert not path.exists()
    if bad.strip():
        assert bad.strip()[:5] not in str(caught.value)


def test_a_broken_secrets_file_is_left_alone(tmp_path: Path):
    path = tmp_path / "secrets.toml"
    path.write_text("not = [valid\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        save_key(path, "openai", KEY)
    assert path.read_text() == "not = [valid\n"


def test_statuses_say_where_each_key_comes_from_and_show_only_its_end(tmp_path: Path):
    path = tmp_path / "secrets.toml"
    save_key(path, "openai", KEY)
    save_key(path, "anthropic", "sk-ant-from-file-9999")
    save_key(path, "acme", "acme-key-000011112222")
    statuses = {s.provider: s for s in key_statuses(path, {"ANTHROPIC_API_KEY": "sk-ant-env-5555"})}
    assert statuses["openai"].source == "secrets file"
    assert statuses["openai"].masked == "••••4242"
    assert statuses["anthropic"].source == "environment"
    assert statuses["anthropic"].masked == "••••5555"
    assert statuses["anthropic"].shadowed
    assert statuses["mistral"].source is None
    assert statuses["acme"].variable == "ACME_API_KEY"
    assert "ollama" not in statuses  # needs no key
    assert mask("short") == "••••"


def test_provider_names_must_name_a_variable():
    assert variable_for("together") == "TOGETHER_API_KEY"
    assert variable_for("my-proxy") == "MY_PROXY_API_KEY"
    with pytest.raises(ConfigError):
        variable_for("bad name; rm")


def test_a_good_key_is_tested_with_one_tiny_call():
    with FakeLLM() as fake:
        fake.reply_with(lambda request: "OK")
        env = fake.env(key=KEY)
        result = asyncio.run(check_key("openai:gpt-4.1-mini", env))
        assert result.ok, result.message
        assert "works" in result.message
        assert len(fake.calls) == 1
        assert fake.calls[0].body.get("max_tokens") == 1  # one output token


def test_a_refused_key_says_so_without_showing_the_key():
    with FakeLLM() as fake:
        fake.fail_next(1, kind="401")  # the fake's 401 body echoes the presented key
        result = asyncio.run(check_key("openai:gpt-4.1-mini", fake.env(key=KEY)))
        assert not result.ok
        assert "401" in result.message or "key" in result.message.lower()
        assert KEY not in result.message
        assert len(fake.calls) == 1  # no retry


def test_a_model_id_without_a_provider_is_explained():
    result = asyncio.run(check_key("gpt-4.1-mini", {}))
    assert not result.ok
    assert "provider" in result.message
