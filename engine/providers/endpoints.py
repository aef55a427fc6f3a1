"""Where a model id is sent: the provider, its base URL and key, from the environment or secrets."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from engine.errors import ConfigError, MissingKeyError, UnknownProviderError
from engine.modelids import PROVIDERS, ProviderInfo, split_model_id
from engine.net.headers import HEADER_VALUE
from engine.net.urls import display_url

__all__ = [
    "SECRETS_PATH",
    "Endpoint",
    "load_environ",
    "read_secrets",
    "resolve",
]

SECRETS_PATH = Path(".streamlit/secrets.toml")
"""Streamlit's secrets file, read relative to the current directory."""

WireApi = Literal["openai", "anthropic", "ollama", "completions"]
_SETTING = re.compile(r"[A-Z][A-Z0-9_]*_(?:API_KEY|BASE_URL)")


def read_secrets(path: Path) -> dict[str, str]:
    """Read provider keys and base URLs from a Streamlit secrets file.

    Three shapes are accepted, and may be mixed:

    ```toml
    OPENAI_API_KEY = "sk-..."        # flat: any <PROVIDER>_API_KEY or <PROVIDER>_BASE_URL
    [keys]                           # the same names inside any table ([keys], [env], ...)
    ANTHROPIC_API_KEY = "..."
    [openrouter]                     # a per-provider table with api_key / base_url
    api_key = "..."
    base_url = "https://openrouter.ai/api/v1"
    ```

    Returns:
        `{VARIABLE: value}`; empty when the file does not exist.

    Raises:
        ConfigError: The file exists but is not valid TOML (the message never quotes it).
    """
    if not path.is_file():
        return {}
    import tomllib  # only when there is a file to read (most runs have none)

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}). Fix or delete the file.") from None
    out: dict[str, str] = {}
    for name, value in data.items():
        if isinstance(value, str) and _SETTING.fullmatch(name):
            out[name] = value
        elif isinstance(value, dict):
            prefix = name.upper().replace("-", "_")
            for key, inner in value.items():
                if not isinstance(inner, str):
                    continue
                if _SETTING.fullmatch(key):
                    out.setdefault(key, inner)
                elif key.lower() in ("api_key", "base_url"):
                    out.setdefault(f"{prefix}_{key.upper()}", inner)
    return out


def load_environ(
    secrets_path: Path | None = SECRETS_PATH, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Return the settings a `ProviderPool` reads by default.

    Args:
        secrets_path: A Streamlit secrets file (default `.streamlit/secrets.toml` in the
            current directory); None skips it.
        base: The environment (default `os.environ`); its values win over the file's.
    """
    merged = read_secrets(secrets_path) if secrets_path is not None else {}
    merged.update(os.environ if base is None else base)
    return merged


@dataclass(frozen=True)
class Endpoint:
    """A resolved model id: where to send it and how to authenticate.

    Attributes:
        model_id: The id as given.
        provider: The provider prefix, lower-cased.
        model: The model name sent on the wire.
        api: The wire protocol.
        base_url: The endpoint, without a trailing slash.
        key_env: The variable that holds the key (named in messages; the key never is).
        url_env: The variable that overrides the endpoint.
        key: The API key, if any; left out of the repr.
        url: The full request URL of a custom model (posted to as is); None for providers.
        headers: Extra request headers of a custom model (left out of the repr).
        header_secrets: Values taken from variables into `headers` (redacted everywhere).
        prompt_format: For the completions format: `raw`, or None for Weval's
            `User: ... Assistant:` conversation.
    """

    model_id: str
    provider: str
    model: str
    api: WireApi
    base_url: str
    key_env: str
    url_env: str
    key: str | None = field(default=None, repr=False)
    url: str | None = None
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    header_secrets: tuple[str, ...] = field(default=(), repr=False)
    prompt_format: str | None = None

    @property
    def custom(self) -> bool:
        """True for a blueprint's custom model object (posted to `url` as Weval does)."""
        return self.url is not None

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values that must never appear in messages."""
        return ((self.key,) if self.key else ()) + self.header_secrets


def _known_list() -> str:
    return ", ".join(sorted(n for n, p in PROVIDERS.items() if p.api != "offline"))


def _unknown(model_id: str, provider: str, info: ProviderInfo) -> UnknownProviderError:
    close = difflib.get_close_matches(provider, list(PROVIDERS), n=1, cutoff=0.75)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    return UnknownProviderError(
        f"Unknown provider '{provider}' in model id '{model_id}'.{hint} Known providers: "
        f"{_known_list()}. Any OpenAI-compatible endpoint works too: set {info.url_env} to its "
        f"base URL (and {info.key_env} if it needs a key)."
    )


def resolve(model_id: str, environ: Mapping[str, str]) -> Endpoint:
    """Resolve `model_id` against the known providers and the settings in `environ`.

    Raises:
        UnknownProviderError: No prefix, or an unknown prefix without `<PREFIX>_BASE_URL`.
        MissingKeyError: The provider needs a key and `<PROVIDER>_API_KEY` is not set.
        ConfigError: The model name is empty, the base URL is not http(s), or the provider
            is answered offline (`ideal`, `replay`).
    """
    parts = split_model_id(model_id)
    if parts is None:
        raise UnknownProviderError(
            f"Model id '{model_id}' has no provider prefix: write provider:model, for example "
            f"openai:{model_id.strip() or 'gpt-4.1-mini'}. Known providers: {_known_list()}."
        )
    provider, model = parts[0].lower(), parts[1]
    info = PROVIDERS.get(provider) or ProviderInfo(provider, "openai", None, needs_key=False)
    if info.api == "offline":
        raise ConfigError(
            f"'{model_id}' is answered offline by the run pipeline (ideal responses or a "
            "replay file), not by a model provider."
        )
    if not model:
        raise ConfigError(f"Model id '{model_id}' names no model after '{provider}:'.")
    base_url = environ.get(info.url_env) or info.base_url
    if base_url is None:
        raise _unknown(model_id, provider, info)
    parsed = display_url(base_url)
    if not parsed.startswith(("http://", "https://")) or parsed.endswith("://"):
        raise ConfigError(
            f"{info.url_env} must be an http:// or https:// URL (got '{parsed}') for '{model_id}'."
        )
    key = (environ.get(info.key_env) or "").strip() or None  # a pasted key's line end
    if key is not None and not HEADER_VALUE.fullmatch(key):
        raise ConfigError(
            f"{info.key_env} holds a line break, a control character or a non-ASCII character "
            "inside the key, which cannot be sent in an HTTP header. Copy the key again."
        )
    if info.needs_key and key is None:
        raise MissingKeyError(
            f"'{model_id}' needs an API key for the provider '{provider}': set {info.key_env} "
            "in the environment or in .streamlit/secrets.toml."
        )
    if info.api == "anthropic":
        model = re.sub(r"(?<=\d)\.(?=\d)", "-", model)  # claude-haiku-4.5 -> claude-haiku-4-5
    return Endpoint(
        model_id=model_id,
        provider=provider,
        model=model,
        api=info.api,
        base_url=base_url.rstrip("/"),
        key_env=info.key_env,
        url_env=info.url_env,
        key=key,
    )
