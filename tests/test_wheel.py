"""Installed from a wheel (not editable), the CLI and the studio are as good as in the project.

The wheel is built from this checkout and installed into a fresh virtual environment; the
commands then run from an empty folder, so nothing can come from the checkout itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.studio.browser import (
    Studio,
    browser,  # noqa: F401  (the module-scoped Chromium fixture)
    free_port,
    screenshot,
    stop_studio,
    wait_healthy,
)

REPO = Path(__file__).resolve().parents[1]
SCRATCH = (
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "artifacts",
)

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Installed:
    """A virtual environment with the wheel installed, and an empty folder to work in."""

    bindir: Path
    workdir: Path
    env: dict[str, str]

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bindir / "blueprint"), *args],
            cwd=self.workdir,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def python(self, code: str) -> str:
        done = subprocess.run(
            [str(self.bindir / "python"), "-c", code],
            cwd=self.workdir,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("wheel")
    dist = root / "dist"
    # Build from a clean copy: a `build/` folder left in the checkout would lend stale files.
    source = root / "source"
    shutil.copytree(REPO, source, symlinks=True, ignore=shutil.ignore_patterns(*SCRATCH))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(dist)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = dist.glob("blueprint_studio-*.whl")
    # The dependencies come from this interpreter's site-packages (no download); the project
    # itself only from the wheel: the test checks below that nothing resolves to the checkout.
    env_dir = root / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    bindir = env_dir / "bin"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "BLUEPRINT_EXAMPLES") and not k.endswith("_API_KEY")
    }
    # --ignore-installed: an editable install of the project may be visible to the venv.
    subprocess.run(
        [
            str(bindir / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--ignore-installed",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
        env=env,
    )
    workdir = root / "work"
    workdir.mkdir()
    env["BLUEPRINT_HOME"] = str(root / "home")
    return Installed(bindir, workdir, env)


def test_the_wheel_holds_the_packages_examples_and_settings(installed: Installed):
    site = installed.python(
        "import engine, studio, studio.core.gallery as g; "
        "print(engine.__file__); print(studio.__file__); "
        "print(len(g.load_examples())); print(g.examples_dir())"
    ).splitlines()
    venv_root = str(installed.bindir.parent)
    assert site[0].startswith(venv_root), site
    assert site[1].startswith(venv_root), site
    assert int(site[2]) >= 3
    assert site[3].startswith(venv_root)
    config = Path(site[1]).parent / "streamlit_config.toml"
    assert 'primaryColor = "#1f5fcc"' in config.read_text(encoding="utf-8")


def test_lint_runs_from_the_wheel_on_a_shipped_example(installed: Installed):
    folder = installed.python("import studio.core.gallery as g; print(g.examples_dir())")
    examples = sorted(Path(folder).glob("*.yml"))
    assert examples
    done = installed.run("lint", *map(str, examples))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    mistake = installed.workdir / "mistake.yml"
    mistake.write_text("titel: x\nprompts:\n  - prompt: hi\n    should: [polite]\n")
    done = installed.run("lint", str(mistake))
    assert "mistake.yml:1:1" in done.stdout


@pytest.fixture(scope="module")
def studio(installed: Installed) -> Iterator[Studio]:
    port = free_port()
    log = installed.workdir / "studio.log"
    out = log.open("wb")
    proc = subprocess.Popen(
        [str(installed.bindir / "blueprint"), "studio", "--port", str(port)],
        cwd=installed.workdir,
        env=installed.env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    server = Studio(f"http://127.0.0.1:{port}", installed.workdir, proc, log)
    try:
        wait_healthy(server.url, proc)
        yield server
    finally:
        stop_studio(server)
        out.close()


@pytest.mark.browser
def test_the_studio_from_the_wheel_opens_an_example(studio: Studio, browser: Any):  # noqa: F811
    context = browser.new_context(viewport={"width": 1400, "height": 1200})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(studio.url + "/")
        card = (
            page.get_by_test_id("stVerticalBlock")
            .filter(has_text="Two good ways to answer")
            .filter(has=page.get_by_role("button", name="Start from this example"))
        )
        card.get_by_role("button", name="Start from this example").last.click()
        page.get_by_role("heading", name="Problems").wait_for()
        frame = page.frame_locator('iframe[title="code_editor.code_editor"] >> visible=true')
        ace = frame.locator(".ace_editor")
        ace.wait_for()
        text = ace.evaluate("el => el.env.editor.getValue()")
        assert "Two good ways to answer" in text
        # The theme comes from the packaged Streamlit settings, not from a project folder:
        # the sidebar has the configured secondaryBackgroundColor (#f3f5f9).
        sidebar = page.get_by_test_id("stSidebar")
        colour = sidebar.evaluate("el => getComputedStyle(el).backgroundColor")
        screenshot(page, "wheel-studio-example")
        assert colour == "rgb(243, 245, 249)"
    finally:
        context.close()
