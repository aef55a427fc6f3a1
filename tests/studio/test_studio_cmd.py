"""`blueprint studio`: the Streamlit command it runs (no server started here)."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import cli
from engine.cli.studio_cmd import app_path, serve_path, streamlit_command
from tests.test_host_check import AUTH


def test_the_app_is_found_through_the_studio_package():
    app = app_path()
    assert app.name == "app.py" and app.parent.name == "studio" and app.is_file()


def test_command_serves_on_loopback_headless_without_telemetry(tmp_path: Path):
    cmd = streamlit_command(8123, cwd=tmp_path)
    assert cmd[:5] == [sys.executable, "-m", "streamlit", "run", str(serve_path())]
    flags = dict(zip(cmd[5::2], cmd[6::2], strict=False))
    assert flags["--server.port"] == "8123"
    assert flags["--server.address"] == "127.0.0.1"
    assert flags["--server.headless"] == "true"
    assert flags["--browser.gatherUsageStats"] == "false"
    assert flags["--server.fileWatcherType"] == "none"
    # started outside the project, the project's theme still applies
    assert flags["--theme.primaryColor"].startswith("#")


def test_project_settings_are_not_repeated_inside_the_project():
    cmd = streamlit_command(8123, cwd=app_path().parent.parent)
    assert not any(part.startswith("--theme.") for part in cmd)


def test_help_and_port_validation():
    runner = CliRunner()
    result = runner.invoke(cli, ["studio", "--help"])
    assert result.exit_code == 0 and "--port" in result.output
    bad = runner.invoke(cli, ["studio", "--port", "0"])
    assert bad.exit_code == 2


def test_a_streamlit_that_cannot_start_is_said_in_plain_words(monkeypatch, tmp_path: Path):
    import subprocess

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setenv("BLUEPRINT_HOME", str(tmp_path))
    result = CliRunner().invoke(cli, ["studio", "--port", "8123"])
    assert result.exit_code == 1
    assert f"Cannot start Streamlit with {sys.executable} (Permission denied)" in result.output
    assert "pip install -e ." in result.output
    assert "Errno" not in result.output and "Traceback" not in result.output


def test_the_engine_does_not_import_streamlit_for_the_command():
    import subprocess

    code = "import sys, engine.cli.studio_cmd; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_error_details_never_reach_the_browser(tmp_path: Path):
    for cwd in (tmp_path, app_path().parent.parent):
        cmd = streamlit_command(8123, cwd=cwd)
        assert cmd.count("--client.showErrorDetails") == 1
        assert cmd[cmd.index("--client.showErrorDetails") + 1] == "none"


def test_a_weak_cookie_secret_is_refused_with_how_to_make_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from engine.cli.studio_cmd import MAKE_SECRET, secret_problem

    good = secrets.token_urlsafe(32)
    assert secret_problem(good) is None and secret_problem(secrets.token_hex(32)) is None
    assert "at least 32" in (secret_problem("x") or "")
    assert secret_problem("a" * 64) is not None
    assert secret_problem("abcdefgh" * 8) is not None  # one block repeated
    assert secret_problem("aabbccdd" * 5) is not None  # a few characters

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.streamlit/secrets.toml of the machine
    (tmp_path / ".streamlit").mkdir()
    secrets_file = tmp_path / ".streamlit" / "secrets.toml"
    secrets_file.write_text(
        AUTH.format(base="https://evals.example.org").replace(
            'cookie_secret = "test-cookie-secret-0123456789abcdef"', 'cookie_secret = "x"'
        )
    )
    args = ["studio", "--host", "0.0.0.0", "--public-url", "https://evals.example.org"]
    refused = CliRunner().invoke(cli, args)
    assert refused.exit_code == 2
    assert "cookie_secret is too weak" in refused.output and MAKE_SECRET in refused.output
