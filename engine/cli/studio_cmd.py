"""`blueprint studio`: start the browser studio (Streamlit) on the embedded defaults.

The engine never imports Streamlit: the studio runs in a child process,
`python -m streamlit run <studio/app.py>`, found with `importlib.util.find_spec("studio")`.
It uses the SQLite store in `$BLUEPRINT_HOME` and the example blueprints.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import click

__all__ = ["app_path", "streamlit_command", "studio"]

DEFAULT_PORT = 8501


def app_path() -> Path:
    """The studio's entry script, `studio/app.py`.

    Raises:
        click.ClickException: The `studio` package is not installed.
    """
    spec = importlib.util.find_spec("studio")
    folders: list[str] = []
    if spec is not None:
        if spec.origin and Path(spec.origin).is_file():
            folders.append(str(Path(spec.origin).parent))
        folders += list(spec.submodule_search_locations or [])
    for folder in folders:
        app = Path(folder).resolve() / "app.py"
        if app.is_file():
            return app
    raise click.ClickException(
        "The studio is not installed. Install the project with `pip install -e .`."
    )


def _project_flags(app: Path, cwd: Path) -> list[str]:
    """The studio's Streamlit settings (`studio/streamlit_config.toml`) as flags.

    Streamlit reads `.streamlit/config.toml` from the current folder only (in the project,
    that file is a link to the studio's own); started from another folder, or installed from
    a wheel, the studio still gets its theme and client settings this way. The server and
    browser settings are always given as flags.
    """
    project = app.parent / "streamlit_config.toml"
    if not project.is_file() or (cwd / ".streamlit" / "config.toml").is_file():
        return []
    try:
        config = tomllib.loads(project.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    flags: list[str] = []
    for section, table in config.items():
        if section in ("server", "browser") or not isinstance(table, dict):
            continue
        for key, value in table.items():
            if isinstance(value, str | int | float | bool):
                shown = str(value).lower() if isinstance(value, bool) else str(value)
                flags += [f"--{section}.{key}", shown]
    return flags


def streamlit_command(port: int, cwd: Path | None = None) -> list[str]:
    """The command that serves the studio on 127.0.0.1:`port`."""
    app = app_path()
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app),
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        *_project_flags(app, cwd or Path.cwd()),
    ]


@click.command("studio")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="The port to serve the studio on (on 127.0.0.1 only).",
)
def studio(port: int) -> None:
    """Start the studio in the browser: write, try, run, compare and share blueprints.

    It serves on http://127.0.0.1:PORT, stores everything in $BLUEPRINT_HOME
    (default ~/.blueprint-studio) and starts with the example blueprints. Stop it with Ctrl-C.
    """
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    env.setdefault("BLUEPRINT_STUDIO_URL", url)
    command = streamlit_command(port)
    click.echo(f"Blueprint Studio: {url}  (Ctrl-C to stop)")
    sys.stdout.flush()
    try:
        child = subprocess.Popen(command, env=env)
    except OSError as exc:
        raise click.ClickException(f"Cannot start Streamlit: {exc}") from None

    def forward(signum: int, frame: object) -> None:
        child.send_signal(signum)

    previous = signal.signal(signal.SIGTERM, forward)
    try:
        code = child.wait()
    except KeyboardInterrupt:
        # Ctrl-C reaches the whole process group; make sure the child got it, then wait.
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
        try:
            code = child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.terminate()
            code = child.wait()
        click.echo("Studio stopped.")
    finally:
        signal.signal(signal.SIGTERM, previous)
    sys.exit(0 if code in (0, -signal.SIGINT, -signal.SIGTERM) else code)
