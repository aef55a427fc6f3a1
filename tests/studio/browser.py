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
from typing import Any

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
ROOT = Path(__file__).resolve().parents[2]

# The studios these tests and the benches start run THIS checkout's code: a `blueprint`
# console script of an editable install elsewhere would otherwise import that other copy.
if os.environ.get("PYTHONPATH", "").split(os.pathsep)[0] != str(ROOT):
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
    )
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


def start_studio(
    home: Path, env_extra: dict[str, str], log: Path, port: int | None = None
) -> Studio:
    """Start `blueprint studio` on `port` (a free one by default) with its own BLUEPRINT_HOME."""
    port = port or free_port()
    env = visitor_env()
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


@contextmanager
def studio_server(
    tmp_path_factory: pytest.TempPathFactory, name: str, env_extra: dict[str, str] | None = None
) -> Iterator[Studio]:
    """A studio server with a fresh home named after `name` (for module-scoped fixtures)."""
    home = tmp_path_factory.mktemp(name)
    with running_studio(home, env_extra or {}) as server:
        yield server


@contextmanager
def new_page(
    browser: Any, width: int = 1400, height: int = 1600, timeout: int = 30_000, **options: Any
) -> Iterator[Any]:
    """A page in a fresh browser context (its own cookies), closed at the end."""
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    try:
        page = context.new_page()
        page.set_default_timeout(timeout)
        yield page
    finally:
        context.close()


# Streamlit marks a page busy with its status widget ("Running...") and every element of the
# previous run with data-stale="true" until the rerun has redrawn it. A click that lands in
# that window may be lost with the element it hit, so tests click on quiet pages only.
QUIET = """() => !document.querySelector('[data-testid="stStatusWidget"], [data-stale="true"]')"""


def wait_quiet(page: Any, timeout: int = 60_000) -> None:
    """Wait until no script run is in flight and nothing on the page is stale.

    Checked twice 200 ms apart: a rerun set off by the last action may start just after the
    first check.
    """
    for _ in range(2):
        page.wait_for_function(QUIET, timeout=timeout)
        page.wait_for_timeout(200)


def click_quiet(page: Any, locator: Any) -> None:
    """Click `locator` once the page is quiet (see `wait_quiet`)."""
    locator.wait_for()
    wait_quiet(page)
    locator.click()


def download(page: Any, button: Any, timeout: int = 30_000) -> Any:
    """Click a download button on a quiet page and return the download.

    A click lost to a redraw that began at the same moment is made once more.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    button.wait_for()
    for attempt in range(2):
        wait_quiet(page)
        try:
            with page.expect_download(timeout=timeout // 2 if attempt == 0 else timeout) as info:
                button.click()
            return info.value
        except PlaywrightTimeout:
            if attempt:
                raise
    raise AssertionError("unreachable")


EDITOR_FRAME = 'iframe[title="code_editor.code_editor"] >> visible=true'


def ace(page: Any) -> Any:
    """The Ace editor element inside the editor component's frame."""
    return page.frame_locator(EDITOR_FRAME).locator(".ace_editor")


def editor_text(page: Any) -> str:
    """The text the editor holds."""
    return str(ace(page).evaluate("el => el.env.editor.getValue()"))


def open_example(page: Any, url: str, title: str) -> None:
    """From the home page, open the example named `title` in the editor."""
    page.goto(url + "/")
    card = (
        page.get_by_test_id("stVerticalBlock")
        .filter(has_text=title)
        .filter(has=page.get_by_role("button", name="Start from this example"))
    )
    # the innermost block that names the example is its card (the outer blocks come first)
    click_quiet(page, card.last.get_by_role("button", name="Start from this example"))
    page.get_by_role("heading", name="Problems").wait_for()
    ace(page).wait_for()
    wait_quiet(page)


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


def visitor_env() -> dict[str, str]:
    """This process's environment without provider keys, endpoints or Streamlit settings."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.endswith(("_API_KEY", "_BASE_URL")) and not k.startswith("STREAMLIT_")
    }


@contextmanager
def team_studio(home: Path) -> Iterator[tuple[Studio, dict[str, str]]]:
    """`blueprint studio` in team mode on `home`'s store (login configured, no one logged in).

    Yields the server and the environment it runs in (for `blueprint` commands beside it).
    """
    from tests.test_host_check import AUTH

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    (home / ".streamlit").mkdir(exist_ok=True)
    (home / ".streamlit" / "secrets.toml").write_text(AUTH.format(base=base))
    env = visitor_env()
    env["BLUEPRINT_HOME"] = str(home)
    log = home / "studio.log"
    command = [*studio_command(port), "--host", "127.0.0.1", "--public-url", base]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, env=env, cwd=home, stdout=out, stderr=subprocess.STDOUT)
    server = Studio(base, home, proc, log)
    try:
        wait_healthy(base, proc)
        yield server, env
    finally:
        stop_studio(server)
