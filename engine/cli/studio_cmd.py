"""`blueprint studio`: start the browser studio (Streamlit), personal or team mode.

The engine never imports Streamlit: the studio runs in a child process,
`python -m streamlit run <studio/serve.py>` (the studio wrapped in a Host check), found with
`importlib.util.find_spec("studio")`. Personal mode serves 127.0.0.1 with no login; team mode
(`--host H --public-url URL`) requires login settings and puts the public URL in every link.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import click

__all__ = [
    "StudioMode",
    "allowed_hosts",
    "app_path",
    "auth_problem",
    "secret_problem",
    "streamlit_command",
    "studio",
]

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


_ALWAYS = ("client.showErrorDetails",)
"""Settings `streamlit_command` always gives as flags (never repeated from the project's file)."""


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
            if f"{section}.{key}" in _ALWAYS:
                continue
            if isinstance(value, str | int | float | bool):
                shown = str(value).lower() if isinstance(value, bool) else str(value)
                flags += [f"--{section}.{key}", shown]
    return flags


def serve_path() -> Path:
    """The script Streamlit serves: `studio/serve.py`, the studio behind a Host check."""
    return app_path().parent / "serve.py"


LOOPBACK = ("127.0.0.1", "localhost")
"""The names personal mode answers to."""

_WILDCARDS = ("0.0.0.0", "::", "[::]", "")


@dataclass(frozen=True)
class StudioMode:
    """How the studio is served.

    Attributes:
        team: True for team mode (login required, links use the public URL).
        host: The address the server binds.
        base_url: The URL every link starts with (no trailing slash).
        allowed_hosts: The Host names requests may carry; any other is refused.
    """

    team: bool
    host: str
    base_url: str
    allowed_hosts: tuple[str, ...]

    @property
    def base_path(self) -> str:
        """The path of the public URL (`studio` for `https://x.org/studio`), or ''."""
        return urlsplit(self.base_url).path.strip("/")


def studio_mode(port: int, host: str | None = None, public_url: str | None = None) -> StudioMode:
    """Decide the mode from `--host` and `--public-url`.

    Raises:
        click.UsageError: The options do not make a usable studio (a public host without a
            public URL, a public URL that is not an http(s) address).
    """
    bind = host if host is not None else "127.0.0.1"
    if public_url is None:
        if bind not in LOOPBACK:
            raise click.UsageError(
                f"--host {bind} lets other computers reach the studio, which is team mode: "
                "also give --public-url with the address people will open (see docs/deploy.md)."
            )
        return StudioMode(False, bind, f"http://{bind}:{port}", LOOPBACK)
    parts = urlsplit(public_url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise click.UsageError(
            "--public-url must be the address people open, like https://evals.example.org "
            "(http or https, a host name, no query)."
        )
    hosts = [parts.hostname]
    if bind not in _WILDCARDS and bind not in hosts:
        hosts.append(bind)
    base = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"
    return StudioMode(True, bind, base, tuple(hosts))


def allowed_hosts(port: int, host: str | None = None, public_url: str | None = None) -> list[str]:
    """The Host names the studio answers to (see `studio_mode`)."""
    return list(studio_mode(port, host, public_url).allowed_hosts)


AUTH_KEYS = ("redirect_uri", "cookie_secret", "client_id", "client_secret", "server_metadata_url")
"""The `[auth]` keys `st.login()` needs."""


MIN_SECRET_CHARS = 32
"""The shortest `cookie_secret` accepted (`secrets.token_urlsafe(32)` gives 43 characters)."""

MAKE_SECRET = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'
"""The command that prints a good `cookie_secret`."""


def secret_problem(secret: str) -> str | None:
    """Why `secret` is too weak to sign login cookies, or None when it will do.

    At least 32 characters, at least 8 different ones, and not one short block repeated
    (`abcabcabc...`): a secret someone can guess lets them forge any member's login.
    """
    text = secret.strip()
    if len(text) < MIN_SECRET_CHARS:
        return f"it has {len(text)} characters; it needs at least {MIN_SECRET_CHARS}"
    if len(set(text)) < 8:
        return "it repeats a few characters; it must be random"
    for size in range(1, len(text) // 2 + 1):
        if len(text) % size == 0 and text[:size] * (len(text) // size) == text:
            return "it repeats one short block; it must be random"
    return None


def _secrets_files(cwd: Path) -> list[Path]:
    """Where Streamlit reads `secrets.toml`, in order (later files replace earlier tables)."""
    return [
        Path("~/.streamlit/secrets.toml").expanduser(),
        cwd / ".streamlit" / "secrets.toml",
        app_path().parent / ".streamlit" / "secrets.toml",
    ]


def auth_problem(mode: StudioMode, cwd: Path) -> str | None:
    """What is missing for team-mode login, as a message; None when login is configured."""
    auth: dict[str, object] = {}
    where = cwd / ".streamlit" / "secrets.toml"
    for path in _secrets_files(cwd):
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8")).get("auth")
        except OSError:
            continue
        except tomllib.TOMLDecodeError as exc:
            return f"{path}: cannot be read as TOML ({exc}). Fix the file, then start again."
        if isinstance(table, dict):
            auth, where = table, path
    missing = [key for key in AUTH_KEYS if not isinstance(auth.get(key), str) or not auth[key]]
    if missing:
        return (
            "Team mode needs login: add an [auth] section to "
            f"{where} with {', '.join(missing)} (your identity provider's settings; "
            f'redirect_uri = "{mode.base_url}/oauth2callback"). See docs/deploy.md.'
        )
    weak = secret_problem(str(auth["cookie_secret"]))
    if weak is not None:
        return (
            f"{where}: [auth] cookie_secret is too weak to sign logins ({weak}). Make one "
            f"with `{MAKE_SECRET}` (32 random bytes), put it in cookie_secret on every "
            "replica, and start again."
        )
    expected = f"{mode.base_url}/oauth2callback"
    if str(auth["redirect_uri"]).rstrip("/") != expected:
        return (
            f"{where}: [auth] redirect_uri must be {expected} (the public URL), "
            "or logins fail. Change it, and register the same address with your identity provider."
        )
    return None


def streamlit_command(
    port: int, cwd: Path | None = None, *, host: str = "127.0.0.1", base_path: str = ""
) -> list[str]:
    """The command that serves the studio (behind its Host check) on `host`:`port`."""
    app = app_path()
    extra = ["--server.baseUrlPath", base_path] if base_path else []
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(serve_path()),
        "--server.port",
        str(port),
        "--server.address",
        host,
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        "--server.enableXsrfProtection",
        "true",
        "--server.enableCORS",
        "true",
        "--client.showErrorDetails",
        "none",
        *extra,
        *_project_flags(app, cwd or Path.cwd()),
    ]


def _warn_without_admin() -> None:
    """Team mode: say at start when the team has no admin, and how to give it one."""
    from engine.errors import EngineError
    from engine.login import FIX_NO_ADMIN, has_admin
    from engine.settings import load_settings
    from engine.store import open_store
    from engine.store.users import first_admins

    try:
        if has_admin(open_store().users()):
            return
        listed = sorted(first_admins(os.environ, load_settings().team_admins))
    except EngineError:
        return  # the studio says what is wrong with the store or the settings on its pages
    later = (
        f"{', '.join(listed)} become admin at their next login (with an e-mail the identity "
        "provider marks verified), or run"
        if listed
        else "run"
    )
    click.echo(
        f"warning: this team has no admin yet: {later} `{FIX_NO_ADMIN}` "
        "(with the studio's BLUEPRINT_DATABASE_URL).",
        err=True,
    )


@click.command("studio")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="The port to serve the studio on.",
)
@click.option(
    "--host",
    default=None,
    help="The address to bind (default 127.0.0.1). Another address is team mode.",
)
@click.option(
    "--public-url",
    default=None,
    help="Team mode: the address people open (https://evals.example.org); links use it.",
)
def studio(port: int, host: str | None, public_url: str | None) -> None:
    """Start the studio in the browser: write, try, run, compare and share blueprints.

    Personal mode (the default) serves on http://127.0.0.1:PORT with no login, stores
    everything in $BLUEPRINT_HOME (default ~/.blueprint-studio) and starts with the example
    blueprints. Team mode (--host H --public-url URL) requires login ([auth] in
    .streamlit/secrets.toml, see docs/deploy.md). Stop it with Ctrl-C.
    """
    mode = studio_mode(port, host, public_url)
    if mode.team:
        problem = auth_problem(mode, Path.cwd())
        if problem is not None:
            raise click.UsageError(problem)
    if mode.team:
        _warn_without_admin()
    env = dict(os.environ)
    if mode.team:
        env["BLUEPRINT_STUDIO_URL"] = mode.base_url
    else:
        env.setdefault("BLUEPRINT_STUDIO_URL", mode.base_url)
    env["BLUEPRINT_MODE"] = "team" if mode.team else "personal"
    env["BLUEPRINT_ALLOWED_HOSTS"] = ",".join(mode.allowed_hosts)
    command = streamlit_command(port, host=mode.host, base_path=mode.base_path)
    url = mode.base_url
    if mode.team:
        click.echo(f"Blueprint Studio (team mode): {url}  serving {mode.host}:{port}")
    else:
        click.echo(f"Blueprint Studio: {url}  (Ctrl-C to stop)")
    sys.stdout.flush()
    try:
        child = subprocess.Popen(command, env=env)
    except OSError as exc:
        raise click.ClickException(
            f"Cannot start Streamlit with {command[0]} ({exc.strerror or type(exc).__name__}). "
            "Check that this Python can run (and reinstall Blueprint Studio in it: "
            "pip install -e .)."
        ) from None

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
