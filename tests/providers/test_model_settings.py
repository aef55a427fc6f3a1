"""`[models] allow` / `BLUEPRINT_MODEL_ALLOW` and `[collections]` in settings.toml."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError
from engine.net.guard import call_host_refusal
from engine.settings import load_settings


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("BLUEPRINT_HOME", str(tmp_path))
    return tmp_path


def test_model_allow_list_from_file_and_environment(home, monkeypatch):
    (home / "settings.toml").write_text('[models]\nallow = ["llm.example.org"]\n')
    monkeypatch.setenv("BLUEPRINT_MODEL_ALLOW", "127.0.0.1, *.corp.example")
    settings = load_settings()
    assert settings.model_allow == ("127.0.0.1", "*.corp.example", "llm.example.org")
    assert settings.call_allow == ()
    url = "http://127.0.0.1:8000/v1/chat/completions"
    assert call_host_refusal(url, settings, "model") is None
    assert "not in the $call allow-list" in (call_host_refusal(url, settings) or "")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("models = 1\n", "[models] must be a table"),
        ("[models]\nallow = 'x'\n", "[models] allow must be a list of host names"),
        ("collections = 3\n", "[collections] must be a table"),
        ("[collections]\nQUICK = [1]\n", "[collections] QUICK must be a list of model ids"),
    ],
)
def test_wrong_shapes_are_clear_errors(home, text, needle):
    (home / "settings.toml").write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert needle in str(caught.value) and "settings.toml" in str(caught.value)
