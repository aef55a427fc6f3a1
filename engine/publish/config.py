"""Where `blueprint publish` sends a blueprint: the `[publish]` settings and the forge's token."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast, get_args

from engine.errors import ConfigError
from engine.providers.endpoints import SECRETS_PATH
from engine.settings import settings_path

__all__ = [
    "DEFAULT_FOLDER",
    "FORGE_API_URLS",
    "TOKEN_VARIABLE",
    "Forge",
    "ForgeKind",
    "PublishSettings",
    "load_publish_settings",
]

ForgeKind = Literal["github", "gitlab", "gitea"]
"""The forges whose pull (merge) request API `blueprint publish` speaks."""

DEFAULT_FOLDER = "blueprints/"
"""The repository folder a blueprint is written to (Weval's configs repository's)."""

TOKEN_VARIABLE = "BLUEPRINT_PUBLISH_TOKEN"
"""The environment variable (or secrets-file name) holding the forge's token."""

FORGE_API_URLS: dict[str, str] = {
    "github": "https://api.github.com",
    "gitlab": "https://gitlab.com/api/v4",
}
"""The API of each public forge; a Gitea (or a self-hosted forge) needs `api_url`."""


@dataclass(frozen=True)
class Forge:
    """A forge to open a pull request on, once the branch is pushed.

    Attributes:
        kind: `github`, `gitlab` or `gitea`.
        api_url: The API's base URL (`https://api.github.com`, `https://gitlab.com/api/v4`,
            `https://gitea.example.org/api/v1`).
        project: The repository on the forge: `owner/name` (GitLab: the project's path or
            numeric id).
        token: The token sent to the forge; never printed, logged or put in a message.
    """

    kind: ForgeKind
    api_url: str
    project: str
    token: str

    def __repr__(self) -> str:  # the token stays out of tracebacks and logs
        return f"Forge(kind={self.kind!r}, api_url={self.api_url!r}, project={self.project!r})"


@dataclass(frozen=True)
class PublishSettings:
    """The `[publish]` table of `settings.toml`, with the token from the secrets.

    Attributes:
        repository: The git repository to push to (a URL or a path) when none is given.
        folder: The folder of the repository the blueprint is written to.
        base: The branch a pull request asks to merge into; None: the repository's default.
        forge: The forge to open a pull request on; None: push the branch only.
    """

    repository: str | None = None
    folder: str = DEFAULT_FOLDER
    base: str | None = None
    forge: Forge | None = None


def _text(table: Mapping[str, Any], key: str, where: Path) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{where}: [publish] {key} must be a text.")
    return value.strip() or None


def _token(table: Mapping[str, Any], environ: Mapping[str, str], secrets: Path | None) -> str:
    """The forge's token: the environment, then the secrets file, then settings.toml."""
    found = environ.get(TOKEN_VARIABLE, "").strip()
    if found:
        return found
    if secrets is not None and secrets.is_file():
        import tomllib

        try:
            data = tomllib.loads(secrets.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            raise ConfigError(f"{secrets}: not valid TOML. Fix or delete the file.") from None
        section = data.get("publish")
        nested = section.get("token") if isinstance(section, dict) else None
        for value in (data.get(TOKEN_VARIABLE), nested):
            if isinstance(value, str) and value.strip():
                return value.strip()
    value = table.get("token")
    return value.strip() if isinstance(value, str) else ""


def _forge(
    table: Mapping[str, Any], where: Path, environ: Mapping[str, str], secrets: Path | None
) -> Forge | None:
    kind = _text(table, "forge", where)
    if kind is None:
        return None
    kind = kind.lower()
    if kind not in get_args(ForgeKind):
        raise ConfigError(
            f"{where}: [publish] forge must be github, gitlab or gitea, not {kind!r}."
        )
    api_url = _text(table, "api_url", where) or FORGE_API_URLS.get(kind)
    if api_url is None:
        raise ConfigError(
            f"{where}: [publish] forge = {kind!r} needs api_url, such as "
            '"https://gitea.example.org/api/v1".'
        )
    if not api_url.startswith(("https://", "http://")):
        raise ConfigError(f"{where}: [publish] api_url must start with https://.")
    project = _text(table, "project", where)
    if project is None:
        raise ConfigError(
            f"{where}: [publish] forge needs project, the repository on the forge "
            '(such as "owner/name").'
        )
    token = _token(table, environ, secrets)
    if not token:
        raise ConfigError(
            f"[publish] forge = {kind!r} needs a token: set {TOKEN_VARIABLE}, or put "
            f"{TOKEN_VARIABLE} (or token under [publish]) in .streamlit/secrets.toml."
        )
    return Forge(cast(ForgeKind, kind), api_url.rstrip("/"), project, token)


def load_publish_settings(
    path: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    secrets: Path | None = SECRETS_PATH,
) -> PublishSettings:
    """Read `[publish]` from `$BLUEPRINT_HOME/settings.toml` (nothing there: the defaults).

    ```toml
    [publish]
    repository = "git@github.com:me/configs.git"  # the default of --to
    folder = "blueprints/"                         # where in the repository
    base = "main"                                  # what a pull request merges into
    forge = "github"                               # github | gitlab | gitea
    api_url = "https://api.github.com"             # needed for gitea
    project = "me/configs"                         # the repository on the forge
    ```

    The token comes from `BLUEPRINT_PUBLISH_TOKEN`, else the secrets file (that name, or
    `token` under `[publish]`), else `token` under `[publish]` here.

    Args:
        path: The settings file (default `$BLUEPRINT_HOME/settings.toml`).
        environ: The environment (default `os.environ`).
        secrets: Streamlit's secrets file; None skips it.

    Raises:
        ConfigError: The file is not valid TOML, or `[publish]` is incomplete or wrong.
    """
    path = path or settings_path()
    environ = os.environ if environ is None else environ
    if not path.is_file():
        return PublishSettings()
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}). Fix or delete the file.") from None
    table = data.get("publish", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [publish] must be a table.")
    return PublishSettings(
        repository=_text(table, "repository", path),
        folder=_text(table, "folder", path) or DEFAULT_FOLDER,
        base=_text(table, "base", path),
        forge=_forge(table, path, environ, secrets),
    )
