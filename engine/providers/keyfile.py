"""API keys saved by the user: where each key comes from, writing one to the secrets file, testing it."""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.errors import ConfigError, EngineError
from engine.modelids import PROVIDERS
from engine.providers.endpoints import read_secrets

__all__ = [
    "KeyCheck",
    "KeyStatus",
    "check_key",
    "key_statuses",
    "mask",
    "save_key",
    "variable_for",
]

_VARIABLE = re.compile(r"[A-Z][A-Z0-9_]*_API_KEY")
_HEADER = re.compile(r"\s*\[")
_MAX_KEY = 1000

KeySource = Literal["environment", "secrets file"]


@dataclass(frozen=True)
class KeyStatus:
    """Whether a provider has a key, where it comes from, and its last characters.

    Attributes:
        provider: The provider prefix (`openai`).
        variable: The variable that holds its key (`OPENAI_API_KEY`).
        source: Where the key in use comes from, or None when there is none.
        masked: The key with all but its last four characters hidden ('' when none).
        shadowed: A key is saved in the secrets file but the environment's is used.
    """

    provider: str
    variable: str
    source: KeySource | None
    masked: str
    shadowed: bool = False


@dataclass(frozen=True)
class KeyCheck:
    """The result of one tiny call made with a key."""

    ok: bool
    message: str


def mask(value: str) -> str:
    """The key with everything but its last four characters hidden (all of a short key)."""
    return "••••" + value[-4:] if len(value) >= 12 else "••••"


def variable_for(provider: str) -> str:
    """The variable holding `provider`'s key (`openai` → `OPENAI_API_KEY`).

    Raises:
        ConfigError: The provider name cannot name a variable.
    """
    info = PROVIDERS.get(provider.lower())
    variable = info.key_env if info else f"{provider.upper().replace('-', '_')}_API_KEY"
    if not _VARIABLE.fullmatch(variable):
        raise ConfigError(f"'{provider[:40]}' is not a provider name (letters, digits, '_').")
    return variable


def key_statuses(secrets_path: Path, environ: Mapping[str, str]) -> list[KeyStatus]:
    """The key status of every provider that needs one (and of any other key in the file).

    Raises:
        ConfigError: The secrets file is not valid TOML.
    """
    saved = read_secrets(secrets_path)
    providers = [p.name for p in PROVIDERS.values() if p.needs_key and p.api != "offline"]
    extra = sorted(
        v.removesuffix("_API_KEY").lower()
        for v in saved
        if v.endswith("_API_KEY") and v.removesuffix("_API_KEY").lower() not in PROVIDERS
    )
    out = []
    for provider in [*providers, *extra]:
        variable = variable_for(provider)
        env, file = environ.get(variable), saved.get(variable)
        if env:
            out.append(KeyStatus(provider, variable, "environment", mask(env), bool(file)))
        elif file:
            out.append(KeyStatus(provider, variable, "secrets file", mask(file)))
        else:
            out.append(KeyStatus(provider, variable, None, ""))
    return out


def _set_top_level(text: str, variable: str, value: str) -> str:
    """Set `variable = "value"` among the file's top-level keys, keeping every other line."""
    line = f"{variable} = {json.dumps(value, ensure_ascii=False)}\n"
    lines = text.splitlines(keepends=True)
    assign = re.compile(rf"\s*{re.escape(variable)}\s*=")
    end = len(lines)
    for i, current in enumerate(lines):
        if _HEADER.match(current):
            end = i
            break
        if assign.match(current):
            lines[i] = line
            return "".join(lines)
    if end and not lines[end - 1].endswith("\n"):
        lines[end - 1] += "\n"
    lines.insert(end, line)
    return "".join(lines)


def save_key(secrets_path: Path, provider: str, key: str) -> str:
    """Write `provider`'s key into the secrets file (mode 0600); return the variable's name.

    The file keeps every other line; it is replaced atomically, so a failure leaves the old
    file whole. The key is never part of an error message.

    Raises:
        ConfigError: The key is empty or malformed, or the file cannot be read or written.
    """
    variable = variable_for(provider)
    key = key.strip()
    if not key:
        raise ConfigError("The key is empty: paste the key your provider gave you.")
    if len(key) > _MAX_KEY or not key.isprintable() or any(c.isspace() for c in key):
        raise ConfigError(
            "This does not look like an API key (it has spaces, line breaks or is very long): "
            "copy the key alone."
        )
    try:
        old = secrets_path.read_text(encoding="utf-8") if secrets_path.is_file() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"{secrets_path}: cannot read the secrets file ({_reason(exc)})."
        ) from None
    new = _set_top_level(old, variable, key)
    try:
        if tomllib.loads(new).get(variable) != key:
            raise ConfigError(
                f"{secrets_path}: the key could not be placed in this file; set {variable} there by hand."
            )
    except tomllib.TOMLDecodeError:
        raise ConfigError(
            f"{secrets_path}: not valid TOML. Fix or delete the file first."
        ) from None
    _write_private(secrets_path, new)
    return variable


def _reason(exc: Exception) -> str:
    return str(getattr(exc, "strerror", None) or type(exc).__name__)


def _write_private(path: Path, text: str) -> None:
    """Replace `path` with `text`, readable by its owner only (0600)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ConfigError(f"{path}: cannot write the secrets file ({_reason(exc)}).") from None


async def check_key(model_id: str, environ: Mapping[str, str]) -> KeyCheck:
    """Make one tiny call (one output token, no retry) to `model_id` with the key in `environ`.

    The message says whether the provider accepted the key; it never contains the key.
    """
    from engine.providers.pool import ProviderPool
    from engine.providers.types import ChatRequest

    secrets = [v for k, v in environ.items() if k.endswith("_API_KEY") and v]
    try:
        request = ChatRequest(
            model_id=model_id,
            messages=[{"role": "user", "content": "Reply with OK."}],
            max_tokens=1,
            timeout_s=20,
        )
        async with ProviderPool(environ=environ, max_attempts=1, global_limit=1) as pool:
            await pool.chat(request)
    except EngineError as exc:
        message = str(exc)
        for secret in secrets:
            message = message.replace(secret, mask(secret))
        return KeyCheck(False, message)
    except ValueError:
        return KeyCheck(False, f"'{model_id[:80]}' is not a model id: write provider:model.")
    return KeyCheck(True, f"The key works: {model_id} answered.")
