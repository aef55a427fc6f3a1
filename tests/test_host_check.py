"""Host checks (DNS rebinding) in both modes, the team-mode start, with raw HTTP requests."""

from __future__ import annotations

import http.client
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import cli
from engine.cli.studio_cmd import auth_problem, streamlit_command, studio_mode
from tests.studio.browser import Studio, free_port, start_studio, stop_studio, studio_command

AUTH = """[auth]
redirect_uri = "{base}/oauth2callback"
cookie_secret = "test-cookie-secret-0123456789abcdef"
client_id = "blueprint-studio"
client_secret = "any-secret"
server_metadata_url = "http://127.0.0.1:9/.well-known/openid-configuration"
"""


def status(url: str, path: str, host: str, *, upgrade: bool = False) -> int:
    """The HTTP status of GET `path` sent to the server of `url` with this Host header."""
    port = int(url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": host}
    if upgrade:
        headers |= {
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        }
    try:
        conn.request("GET", path, headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


PATHS = ["/", "/_stcore/health", "/_stcore/host-config", "/results?run=abc"]


@pytest.fixture(scope="module")
def personal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    home = tmp_path_factory.mktemp("home")
    studio = start_studio(home, {}, home / "studio.log")
    yield studio
    stop_studio(studio)


@pytest.mark.parametrize("path", PATHS)
def test_personal_mode_refuses_a_foreign_host(personal: Studio, path: str):
    port = personal.url.rsplit(":", 1)[1]
    assert status(personal.url, path, "evil.example") == 400
    assert status(personal.url, path, f"evil.example:{port}") == 400
    assert status(personal.url, path, f"127.0.0.1:{port}") == 200
    assert status(personal.url, path, f"localhost:{port}") == 200


def test_personal_mode_refuses_the_websocket_of_a_foreign_host(personal: Studio):
    assert status(personal.url, "/_stcore/stream", "evil.example", upgrade=True) == 400


def test_team_mode_serves_its_public_host_only(tmp_path: Path):
    port = free_port()
    base = "https://evals.example.org"
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(AUTH.format(base=base))
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    env["BLUEPRINT_HOME"] = str(tmp_path)
    command = [*studio_command(port), "--host", "127.0.0.1", "--public-url", base]
    log = (tmp_path / "studio.log").open("wb")
    proc = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
    studio = Studio(f"http://127.0.0.1:{port}", tmp_path, proc, tmp_path / "studio.log")
    try:
        from tests.studio.browser import wait_healthy

        wait_healthy(studio.url, proc)
        assert status(studio.url, "/", "evals.example.org") == 200
        assert status(studio.url, "/_stcore/health", "evals.example.org:443") == 200
        assert status(studio.url, "/", "evil.example") == 400
        assert status(studio.url, "/", "localhost") == 400
        assert status(studio.url, "/_stcore/stream", "evil.example", upgrade=True) == 400
    finally:
        stop_studio(studio)
    printed = (tmp_path / "studio.log").read_text()
    assert f"Blueprint Studio (team mode): {base}" in printed


def test_modes_and_their_hosts():
    personal = studio_mode(8501)
    assert not personal.team and personal.allowed_hosts == ("127.0.0.1", "localhost")
    assert personal.base_url == "http://127.0.0.1:8501"
    team = studio_mode(8501, "0.0.0.0", "https://evals.example.org/")
    assert team.team and team.allowed_hosts == ("evals.example.org",)
    assert team.base_url == "https://evals.example.org" and team.base_path == ""
    bound = studio_mode(8501, "10.0.0.5", "https://evals.example.org/studio")
    assert bound.allowed_hosts == ("evals.example.org", "10.0.0.5")
    assert bound.base_path == "studio"
    cmd = streamlit_command(8501, host=bound.host, base_path=bound.base_path)
    flags = dict(zip(cmd[5::2], cmd[6::2], strict=False))
    assert flags["--server.address"] == "10.0.0.5"
    assert flags["--server.baseUrlPath"] == "studio"
    assert flags["--server.enableXsrfProtection"] == "true"


def test_a_public_host_without_public_url_is_refused():
    result = CliRunner().invoke(cli, ["studio", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "--public-url" in result.output and "Traceback" not in result.output
    bad = CliRunner().invoke(cli, ["studio", "--host", "0.0.0.0", "--public-url", "evals"])
    assert bad.exit_code == 2 and "https://" in bad.output


def test_team_mode_without_login_is_refused_with_what_to_configure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    args = ["studio", "--host", "0.0.0.0", "--public-url", "https://evals.example.org"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "[auth]" in result.output and "secrets.toml" in result.output
    assert "redirect_uri" in result.output and "docs/deploy.md" in result.output
    assert "https://evals.example.org/oauth2callback" in result.output


def test_login_settings_must_name_the_public_callback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".streamlit").mkdir()
    secrets = tmp_path / ".streamlit" / "secrets.toml"
    mode = studio_mode(8501, "0.0.0.0", "https://evals.example.org")
    secrets.write_text(AUTH.format(base="http://127.0.0.1:8501"))
    problem = auth_problem(mode, tmp_path)
    assert problem is not None and "https://evals.example.org/oauth2callback" in problem
    secrets.write_text(AUTH.format(base="https://evals.example.org"))
    assert auth_problem(mode, tmp_path) is None
    secrets.write_text("[auth\n")
    broken = auth_problem(mode, tmp_path)
    assert broken is not None and "TOML" in broken


def test_xsrf_protection_is_on(personal: Studio):
    port = int(personal.url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("PUT", "/_stcore/upload_file/s/f", body=b"x", headers={"Host": "127.0.0.1"})
        answer = conn.getresponse()
        assert answer.status == 403 and b"XSRF" in answer.read()
    finally:
        conn.close()
