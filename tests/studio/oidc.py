"""A team-mode studio behind a real OpenID Connect login (oidc-provider-mock), for browser tests.

`team_studio` starts the identity provider and `blueprint studio --host --public-url` with
an `[auth]` section pointing at it; `login` logs a fresh browser context in through the
provider's form, with the claims the test asks for (`email_verified` true by default).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.studio.browser import Studio, free_port, stop_studio, studio_command, wait_healthy
from tests.test_host_check import AUTH

LOOPBACK_ONLY = re.compile(r"^https?://(?!(127\.0\.0\.1|localhost)[:/])")


@dataclass
class TeamStudio(Studio):
    """A running team-mode studio and the address of its identity provider."""

    idp: str = ""


def wait_listening(port: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Wait until the identity provider answers its discovery URL."""
    deadline = time.monotonic() + timeout
    url = f"http://127.0.0.1:{port}/.well-known/openid-configuration"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"oidc-provider-mock exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("oidc-provider-mock did not start in time")


@contextmanager
def team_studio(home: Path, env_extra: dict[str, str]) -> Iterator[TeamStudio]:
    """An identity provider and a team-mode studio (its store in `home`), stopped at the end."""
    # In a process of its own: its deprecation warnings must not meet pytest's "error" filter.
    idp_port = free_port()
    idp = subprocess.Popen(
        [sys.executable, "-m", "oidc_provider_mock", "--port", str(idp_port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_listening(idp_port, idp)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        metadata = f"http://127.0.0.1:{idp_port}/.well-known/openid-configuration"
        (home / ".streamlit").mkdir(exist_ok=True)
        auth = AUTH.format(base=base).replace(
            "http://127.0.0.1:9/.well-known/openid-configuration", metadata
        )
        (home / ".streamlit" / "secrets.toml").write_text(auth)
        env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
        env |= {
            "BLUEPRINT_HOME": str(home),
            "AUTHLIB_INSECURE_TRANSPORT": "1",  # the local identity provider speaks plain http
            **env_extra,
        }
        log = home / "studio.log"
        command = [*studio_command(port), "--host", "127.0.0.1", "--public-url", base]
        with log.open("wb") as out:
            proc = subprocess.Popen(
                command, env=env, cwd=home, stdout=out, stderr=subprocess.STDOUT
            )
        server = TeamStudio(base, home, proc, log, idp=f"http://127.0.0.1:{idp_port}")
        try:
            wait_healthy(base, proc)
            yield server
        finally:
            stop_studio(server)
    finally:
        idp.terminate()
        idp.wait(10)


def set_claims(studio: TeamStudio, email: str, *, verified: bool = True) -> None:
    """Make the identity provider log `email` in with these claims (its `PUT /users/SUB`)."""
    claims = {"email": email, "email_verified": verified, "name": email.split("@")[0].title()}
    httpx.put(f"{studio.idp}/users/{email}", json=claims, timeout=10).raise_for_status()


def login(browser: Any, studio: TeamStudio, email: str, *, verified: bool = True) -> Any:
    """A fresh context logged in as `email` (e-mail verified unless told); returns its page."""
    if studio.idp:
        set_claims(studio, email, verified=verified)
    context = browser.new_context(viewport={"width": 1400, "height": 1200})
    context.route(LOOPBACK_ONLY, lambda route: route.abort())
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{studio.url}/")
    log_in_again(page, studio, email)
    return page


def log_in_again(page: Any, studio: Studio, email: str) -> None:
    """On the login page: Log in, authorize `email` at the provider, back at the studio."""
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/oauth2/authorize"))
    page.fill("input[name=sub]", email)
    page.get_by_role("button", name="Authorize").click()
    page.wait_for_url(re.compile(re.escape(studio.url)))
