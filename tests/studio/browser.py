"""Browser-test plumbing: a real `blueprint studio` server, a fake LLM, headless Chromium.

One studio server per test module (fixture scope="module") and one Chromium per module keep
the suite fast. Chromium is Debian's `/usr/bin/chromium` (never `playwright install`); the
tests skip with a clear reason when it is missing, and fail instead when `CI` is set.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
LOOPBACK = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:", "file:")


def require_chromium() -> None:
    """Skip (or fail under CI) when Debian's Chromium is not installed."""
    if CHROMIUM.exists():
        return
    reason = f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests"
    if os.environ.get("CI"):
        pytest.fail(reason + " (CI is set, so this is a failure, not a skip)")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def studio_command(port: int) -> list[str]:
    """`blueprint studio --port N` (the console script, or `python -m engine` without it)."""
    script = shutil.which("blueprint")
    base = [script] if script else [sys.executable, "-m", "engine"]
    return [*base, "studio", "--port", str(port)]


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> float:
    """Poll `/_stcore/health` until it answers `ok`; return the seconds it took."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"the studio exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as answer:
                if answer.read() == b"ok":
                    return time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the studio did not become healthy in time")


@dataclass
class Studio:
    """A running studio server."""

    url: str
    home: Path
    proc: subprocess.Popen[bytes]
    log: Path


def start_studio(home: Path, env_extra: dict[str, str], log: Path) -> Studio:
    """Start `blueprint studio` on a free port with its own BLUEPRINT_HOME."""
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith(("_API_KEY", "_BASE_URL")) and not k.startswith("STREAMLIT_")
    }
    env.update(env_extra)
    env["BLUEPRINT_HOME"] = str(home)
    out = log.open("wb")
    proc = subprocess.Popen(
        studio_command(port),
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        cwd=home,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
    except RuntimeError:
        stop_studio(Studio(url, home, proc, log))
        raise
    return Studio(url, home, proc, log)


def stop_studio(studio: Studio) -> None:
    """Stop the server (SIGTERM, forwarded to Streamlit), and wait for it."""
    if studio.proc.poll() is None:
        studio.proc.terminate()
        try:
            studio.proc.wait(10)
        except subprocess.TimeoutExpired:
            studio.proc.kill()
            studio.proc.wait(5)


@contextmanager
def running_studio(home: Path, env_extra: dict[str, str]) -> Iterator[Studio]:
    """A studio server for the length of a `with` block (its log in `home/studio.log`)."""
    server = start_studio(home, env_extra, home / "studio.log")
    try:
        yield server
    finally:
        stop_studio(server)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium for the whole module."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def screenshot(page: object, name: str) -> Path:
    """Save a screenshot of the page under tests/artifacts/ (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    return path


def element_screenshot(locator: object, name: str) -> Path:
    """Save a screenshot of one element under tests/artifacts/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    locator.screenshot(path=str(path))  # type: ignore[attr-defined]
    return path


def external_requests(page: object) -> list[str]:
    """Start recording requests that leave the machine; returns the (live) list."""
    seen: list[str] = []
    page.on(  # type: ignore[attr-defined]
        "request", lambda r: seen.append(r.url) if not r.url.startswith(LOOPBACK) else None
    )
    return seen
