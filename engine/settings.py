"""Where the engine keeps its data, and the user's settings (`$BLUEPRINT_HOME/settings.toml`).

Settings come from, in order of precedence: explicit arguments, environment variables,
`$BLUEPRINT_HOME/settings.toml`. Secrets (API keys) are never read from or written to this
file's results; see `engine.providers` for key lookup.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import ConfigError

__all__ = [
    "DEFAULT_MAX_INPUT_MB",
    "DEFAULT_SESSION_IDLE_HOURS",
    "DEFAULT_VERSION_PAUSE_S",
    "Settings",
    "home_dir",
    "load_settings",
    "settings_path",
]

DEFAULT_HOME = Path("~/.blueprint-studio")
DEFAULT_MAX_INPUT_MB = 32.0
DEFAULT_VERSION_PAUSE_S = 30.0
"""Seconds without an edit after which the next edit of a draft starts a new version."""
DEFAULT_SESSION_IDLE_HOURS = 8.0
"""Hours without a request after which a team member's login session ends."""


def _home_path() -> Path:
    raw = os.environ.get("BLUEPRINT_HOME")
    return Path(raw).expanduser() if raw else DEFAULT_HOME.expanduser()


def settings_path() -> Path:
    """Return `$BLUEPRINT_HOME/settings.toml` (it may not exist; nothing is created)."""
    return _home_path() / "settings.toml"


def home_dir() -> Path:
    """Return `$BLUEPRINT_HOME` (default `~/.blueprint-studio`), creating it if needed.

    Raises:
        ConfigError: The folder cannot be created (a read-only disk, a file in its path).
    """
    path = _home_path()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"{path}: cannot create Blueprint Studio's folder ({exc.strerror or 'refused'}). "
            "Set BLUEPRINT_HOME to a folder you can write."
        ) from None
    return path


def _split(value: str) -> list[str]:
    return [part.strip() for part in value.replace(";", ",").split(",") if part.strip()]


@dataclass(frozen=True)
class Settings:
    """The user's settings.

    Attributes:
        call_allow: Hosts `$call` may reach (`api.example.org`, `*.example.org`). Loopback,
            private and link-local addresses are refused unless listed here literally.
        call_env: Environment variables a blueprint's `$call` headers may use as `${NAME}`;
            their values are redacted from everything stored or shown.
        factcheck_url: Base URL of a fact-check service for `$factcheck`; None disables it.
        factcheck_token: The token sent to that service, if any.
        prices: Extra per-model prices, `{model_id: {"input": usd_per_mtok, "output": ...}}`.
        source: The settings file that was read, if any.
        max_input_mb: The largest blueprint read, in megabytes of 1,048,576 bytes
            (`BLUEPRINT_MAX_INPUT_MB`, or `max_mb` under `[input]`); larger text is refused
            with a message instead of being parsed.
        version_pause_s: Seconds of editing pause after which the next edit of a draft
            starts a new version (`BLUEPRINT_VERSION_PAUSE_S`, or `version_pause_s` under
            `[editor]`); see `engine.store.versions`.
        team_domains: E-mail domains whose members may log in to a team studio
            (`allowed_domains` under `[team]`, added to `BLUEPRINT_ALLOWED_DOMAINS`; none: any).
        team_admins: E-mails that are made admins at every login when the identity provider
            says the e-mail is verified (`admins` under `[team]`, added to `BLUEPRINT_ADMINS`).
        session_idle_hours: Hours without a request after which a team member's login ends
            on the server (`BLUEPRINT_SESSION_IDLE_HOURS`, or `session_idle_hours` under
            `[team]`; default 8).
        model_allow: Hosts a blueprint's custom model objects may reach (`BLUEPRINT_MODEL_ALLOW`
            or `[models] allow`), the same syntax and rules as `call_allow`.
        collections: Model collections (`CORE = ["openai:gpt-4.1-mini", ...]` under
            `[collections]`); they replace the shipped ones of the same name.
    """

    call_allow: tuple[str, ...] = ()
    call_env: tuple[str, ...] = ()
    factcheck_url: str | None = None
    factcheck_token: str | None = None
    prices: dict[str, dict[str, float]] = field(default_factory=dict)
    source: Path | None = None
    max_input_mb: float = DEFAULT_MAX_INPUT_MB
    version_pause_s: float = DEFAULT_VERSION_PAUSE_S
    model_allow: tuple[str, ...] = ()
    collections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    team_domains: tuple[str, ...] = ()
    team_admins: tuple[str, ...] = ()
    session_idle_hours: float = DEFAULT_SESSION_IDLE_HOURS


def _number(
    data: dict[str, Any], path: Path, table: str, key: str, env_name: str, default: float
) -> tuple[float, str]:
    """A number setting from `env_name`, else `key` under `[table]`; NaN when not a number."""
    section = data.get(table, {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [{table}] must be a table.")
    raw: Any = section.get(key, default)
    where = f"{path}: [{table}] {key}"
    env = os.environ.get(env_name, "").strip()
    if env:
        raw, where = env, env_name
    try:
        return (float(raw) if not isinstance(raw, bool) else math.nan), where
    except (TypeError, ValueError):
        return math.nan, where


def _max_input_mb(data: dict[str, Any], path: Path) -> float:
    """The input size limit from `BLUEPRINT_MAX_INPUT_MB` or `[input] max_mb` (a positive number)."""
    value, where = _number(
        data, path, "input", "max_mb", "BLUEPRINT_MAX_INPUT_MB", DEFAULT_MAX_INPUT_MB
    )
    if not 0 < value < math.inf:
        raise ConfigError(f"{where} must be a number of megabytes above 0, such as 64.")
    return value


def _version_pause_s(data: dict[str, Any], path: Path) -> float:
    """The editing pause that starts a new draft version (`BLUEPRINT_VERSION_PAUSE_S`, `[editor]`)."""
    value, where = _number(
        data,
        path,
        "editor",
        "version_pause_s",
        "BLUEPRINT_VERSION_PAUSE_S",
        DEFAULT_VERSION_PAUSE_S,
    )
    if not 0 <= value < math.inf:
        raise ConfigError(f"{where} must be a number of seconds, 0 or more, such as 30.")
    return value


def _session_idle_hours(data: dict[str, Any], path: Path) -> float:
    """The idle time that ends a login (`BLUEPRINT_SESSION_IDLE_HOURS`, `[team]`), in hours."""
    value, where = _number(
        data,
        path,
        "team",
        "session_idle_hours",
        "BLUEPRINT_SESSION_IDLE_HOURS",
        DEFAULT_SESSION_IDLE_HOURS,
    )
    if not 0 < value < math.inf:
        raise ConfigError(f"{where} must be a number of hours above 0, such as 8.")
    return value


def _call_env(path: Path, call: dict[str, Any]) -> tuple[str, ...]:
    names = call.get("env", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"{path}: [call] env must be a list of environment variable names.")
    return tuple(_split(os.environ.get("BLUEPRINT_CALL_ENV", ""))) + tuple(names)


def _team_list(path: Path, data: dict[str, Any], key: str, what: str) -> tuple[str, ...]:
    """A list of names under `[team]` (login settings of a team studio)."""
    section = data.get("team", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [team] must be a table.")
    names = section.get(key, [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"{path}: [team] {key} must be a list of {what}.")
    return tuple(n.strip().lower() for n in names if n.strip())


def _model_allow(path: Path, data: dict[str, Any]) -> tuple[str, ...]:
    section = data.get("models", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [models] must be a table.")
    allow = section.get("allow", [])
    if not isinstance(allow, list) or not all(isinstance(h, str) for h in allow):
        raise ConfigError(f"{path}: [models] allow must be a list of host names.")
    return tuple(_split(os.environ.get("BLUEPRINT_MODEL_ALLOW", ""))) + tuple(allow)


def _collections(path: Path, data: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    section = data.get("collections", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [collections] must be a table of NAME = [model ids].")
    out: dict[str, tuple[str, ...]] = {}
    for name, ids in section.items():
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ConfigError(
                f"{path}: [collections] {name} must be a list of model ids, such as "
                f'{name} = ["openai:gpt-4.1-mini"].'
            )
        out[str(name)] = tuple(i.strip() for i in ids if i.strip())
    return out


def load_settings(path: Path | None = None) -> Settings:
    """Read settings from the environment and `$BLUEPRINT_HOME/settings.toml`.

    Environment: `BLUEPRINT_CALL_ALLOW` (comma-separated hosts), `BLUEPRINT_CALL_ENV`
    (comma-separated variable names), `BLUEPRINT_FACTCHECK_URL`, `BLUEPRINT_FACTCHECK_TOKEN`,
    `BLUEPRINT_MODEL_ALLOW` (comma-separated hosts for custom model objects).

    Raises:
        ConfigError: The settings file exists but is not valid TOML or has wrong types.
    """
    path = path or settings_path()  # reading needs no folder
    data: dict[str, Any] = {}
    if path.is_file():
        import tomllib  # only when there is a file to read (most runs have none)

        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc}). Fix or delete the file.") from None
    call = data.get("call", {})
    factcheck = data.get("factcheck", {})
    prices = data.get("prices", {})
    if (
        not isinstance(call, dict)
        or not isinstance(factcheck, dict)
        or not isinstance(prices, dict)
    ):
        raise ConfigError(f"{path}: [call], [factcheck] and [prices] must be tables.")
    allow = list(call.get("allow", []))
    if not all(isinstance(h, str) for h in allow):
        raise ConfigError(f"{path}: [call] allow must be a list of host names.")
    env_allow = os.environ.get("BLUEPRINT_CALL_ALLOW")
    if env_allow is not None:
        allow = _split(env_allow) + allow
    return Settings(
        call_allow=tuple(allow),
        call_env=_call_env(path, call),
        factcheck_url=os.environ.get("BLUEPRINT_FACTCHECK_URL") or factcheck.get("url"),
        factcheck_token=os.environ.get("BLUEPRINT_FACTCHECK_TOKEN") or factcheck.get("token"),
        prices={str(k): dict(v) for k, v in prices.items() if isinstance(v, dict)},
        source=path if path.is_file() else None,
        max_input_mb=_max_input_mb(data, path),
        version_pause_s=_version_pause_s(data, path),
        model_allow=_model_allow(path, data),
        collections=_collections(path, data),
        team_domains=_team_list(path, data, "allowed_domains", "e-mail domains"),
        team_admins=_team_list(path, data, "admins", "e-mail addresses"),
        session_idle_hours=_session_idle_hours(data, path),
    )
