"""The Settings page: a pasted key is saved privately, shown masked, kept out of the session, tested."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from engine.providers import read_secrets
from engine.store import open_store
from tests.fakes.llm_server import FakeLLM
from tests.studio.helpers import app, buttons, texts

KEY = "sk-studio-PASTED-KEY-8080"


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)  # the studio reads ./.streamlit/secrets.toml
    at = app()
    at.switch_page("views/settings/settings.py").run()
    assert not at.exception
    return at


def everything_shown(at) -> str:
    kinds = ("markdown", "caption", "success", "error", "info", "text", "warning", "code")
    shown = " ".join(" ".join(texts(at, kind)) for kind in kinds)
    return shown + " ".join(str(df.value) for df in at.dataframe)


def test_a_pasted_key_is_saved_privately_and_shown_masked(settings, tmp_path: Path):
    at = settings
    at.selectbox[0].select("openai")
    at.text_input[0].input(KEY)
    buttons(at, "Save key")[0].click().run()
    assert not at.exception
    path = tmp_path / ".streamlit" / "secrets.toml"
    assert read_secrets(path)["OPENAI_API_KEY"] == KEY
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert any("Saved OPENAI_API_KEY" in s for s in texts(at, "success"))
    table = at.dataframe[0].value
    row = table[table["Provider"] == "openai"].iloc[0]
    assert row["Key"] == "••••8080"
    assert row["From"] == "secrets file"
    # the key is on disk only: not on the page, not in the session, not in the store
    assert KEY not in everything_shown(at)
    assert at.session_state["settings_api_key"] == ""  # the form cleared it after saving
    assert KEY not in repr(at.session_state.to_dict())
    store_file = Path(open_store().location)
    assert not store_file.exists() or KEY.encode() not in store_file.read_bytes()


def test_a_malformed_key_is_refused_with_a_plain_message(settings, tmp_path: Path):
    at = settings
    at.text_input[0].input("two words")
    buttons(at, "Save key")[0].click().run()
    assert any("does not look like an API key" in e for e in texts(at, "error"))
    assert not (tmp_path / ".streamlit" / "secrets.toml").exists()


def test_test_this_key_makes_one_tiny_call_and_reports_a_refusal_without_the_key(
    settings, monkeypatch: pytest.MonkeyPatch
):
    with FakeLLM() as fake:
        fake.reply_with(lambda request: "OK")
        for name, value in fake.env(key=KEY).items():
            monkeypatch.setenv(name, value)
        at = settings
        at.run()
        buttons(at, "Test this key")[0].click().run()
        assert not at.exception
        assert any("The key works" in s for s in texts(at, "success"))
        assert len(fake.calls) == 1
        fake.fail_next(1, kind="401")  # the fake echoes the presented key in its 401 body
        buttons(at, "Test this key")[0].click().run()
        assert texts(at, "error")
        assert len(fake.calls) == 2
        assert KEY not in everything_shown(at)
