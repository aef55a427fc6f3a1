"""A blueprint's custom model objects (`{id, url, modelName, inherit, format, headers}`).

Weval posts to a custom model's `url` as given, with its `headers`, in the chat shape of its
`inherit` provider or in the completions format (spec §1.4, §2.6). Here the `url` must pass the
same address guard as `$call`, with its own allow-list (`Settings.model_allow`), and a header
value may hold `${NAME}` only for the variables `$call` may use (`Settings.call_env`); the
values taken from them are redacted from every message, and never stored.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.errors import ConfigError
from engine.net.guard import resolve_refusal
from engine.net.headers import (
    ENV_HELP,
    ENV_VAR,
    MIN_SECRET,
    header_text,
    headers_problem,
    value_problem,
)
from engine.net.urls import mask_credentials
from engine.providers.endpoints import Endpoint, WireApi
from engine.settings import Settings

__all__ = [
    "CustomModel",
    "custom_endpoints",
    "custom_models",
    "header_values",
    "url_problem",
]

OPENAI_STYLE: Final = frozenset({"openai", "openrouter", "mistral", "together", "xai"})
"""`inherit` values whose chat shape is OpenAI's (Weval's default shape too)."""
_NAME_SHOWN: Final = 60


@dataclass(frozen=True)
class CustomModel:
    """One custom model object of a blueprint, as written (header values not substituted).

    Attributes:
        id: The name the run and the comparison JSON give the model.
        url: The full address the calls are posted to.
        model_name: The `model` sent in each body.
        inherit: Whose request shape a chat call takes (`openai`, `anthropic`, ...).
        format: `chat` (the default) or `completions`.
        prompt_format: For completions: `raw`, else Weval's `User: ... Assistant:` text.
        headers: Header names and values as written (`${NAME}` not yet substituted; a value
            may be a list or a mapping, which `header_values` refuses).
    """

    id: str
    url: str
    model_name: str
    inherit: str
    format: str = "chat"
    prompt_format: str | None = None
    headers: tuple[tuple[str, Any], ...] = ()

    @property
    def fingerprint(self) -> str:
        """A short hash of what changes the answers (not the header values): for cache keys."""
        data = [self.url, self.model_name, self.inherit, self.format, self.prompt_format]
        return hashlib.sha256(json.dumps(data).encode("utf-8")).hexdigest()[:16]

    @property
    def api(self) -> WireApi | None:
        """The wire protocol, or None when the shape is not supported (Google's chat)."""
        if self.format == "completions":
            return "completions"
        if self.inherit == "anthropic":
            return "anthropic"
        return None if self.inherit == "google" else "openai"


def custom_models(entries: Sequence[Any]) -> dict[str, CustomModel]:
    """The custom model objects among a blueprint's `models` entries, by id (first one wins).

    Entries are as Weval's parser accepted them; others (strings, `{provider: model}` pairs)
    are skipped.
    """
    out: dict[str, CustomModel] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            continue
        fields = [entry.get(k) for k in ("url", "modelName", "inherit")]
        if not all(isinstance(v, str) and v for v in fields):
            continue
        headers = entry.get("headers")
        pairs = tuple(
            (str(k), v) for k, v in (headers.items() if isinstance(headers, dict) else ())
        )
        fmt = entry.get("format")
        prompt_format = entry.get("promptFormat")
        out.setdefault(
            entry["id"],
            CustomModel(
                id=entry["id"],
                url=str(fields[0]).strip(),
                model_name=str(fields[1]),
                inherit=str(fields[2]).strip().lower(),
                format=fmt if fmt in ("chat", "completions") else "chat",
                prompt_format=prompt_format if isinstance(prompt_format, str) else None,
                headers=pairs,
            ),
        )
    return out


def _shown(name: str) -> str:
    return name if len(name) <= _NAME_SHOWN else name[:_NAME_SHOWN] + "…"


def url_problem(url: str) -> str | None:
    """Why a custom model's `url` may not be used as written: it holds credentials.

    Weval's `fetch` refuses such a URL too; credentials belong in `headers`, whose `${NAME}`
    values are never stored.
    """
    if mask_credentials(url) == url:
        return None
    return (
        "its `url` holds a user name or password (`user:password@`), which would be stored "
        "with the results. Remove it from the `url` and send it in `headers` instead, for "
        "example `Authorization: Basic ${MODEL_AUTH}` with MODEL_AUTH allowed in "
        "BLUEPRINT_CALL_ENV."
    )


def header_values(
    model: CustomModel, environ: Mapping[str, str], allowed: Sequence[str]
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Substitute `${NAME}` in the headers of `model`, as `$call` does.

    Returns:
        (headers, secrets): the headers to send, and the values taken from variables (those of
        `MIN_SECRET` characters or more), which must be redacted wherever text is shown.

    Raises:
        ConfigError: A variable is not allowed (the same words whether it exists or not), is
            allowed but not set, or a header cannot be sent (`engine.net.headers`).
    """
    problem = headers_problem(model.headers)
    if problem is not None:
        raise ConfigError(f"Custom model '{_shown(model.id)}': {problem}.")
    allowed_set = set(allowed)
    secrets: list[str] = []
    out: list[tuple[str, str]] = []
    for key, value in model.headers:

        def env(match: re.Match[str], key: str = key) -> str:
            name = match.group(1)
            prefix = (
                f"Custom model '{_shown(model.id)}': header '{_shown(key)}': "
                f"Environment variable {_shown(name)}"
            )
            if name not in allowed_set:
                raise ConfigError(f"{prefix} is not allowed. {ENV_HELP}")
            found = environ.get(name)
            if found is None:
                raise ConfigError(f"{prefix} is not defined; set it before running.")
            if len(found) >= MIN_SECRET:
                secrets.append(found)
            return found

        sent = ENV_VAR.sub(env, header_text(value) or "")
        problem = value_problem(key, sent)
        if problem is not None:
            raise ConfigError(f"Custom model '{_shown(model.id)}': {problem}.")
        out.append((key, sent))
    return tuple(out), tuple(sorted(set(secrets), key=len, reverse=True))


def _endpoint(
    model: CustomModel,
    environ: Mapping[str, str],
    settings: Settings,
    resolve: Callable[[str], list[str]] | None,
) -> Endpoint:
    api = model.api
    if api is None:
        raise ConfigError(
            f"Custom model '{_shown(model.id)}': `inherit: google` with the chat format is not "
            "supported here. Point `url` at Gemini's OpenAI-compatible endpoint and write "
            "`inherit: openai`, or use `format: completions`."
        )
    credentials = url_problem(model.url)
    if credentials is not None:
        raise ConfigError(f"Custom model '{_shown(model.id)}': {credentials}")
    refusal = resolve_refusal(model.url, settings, resolve, kind="model")
    if refusal is not None:
        raise ConfigError(f"Custom model '{_shown(model.id)}': {refusal}")
    headers, secrets = header_values(model, environ, settings.call_env)
    return Endpoint(
        model_id=model.id,
        provider=model.id,
        model=model.model_name,
        api=api,
        base_url=model.url.rstrip("/"),
        key_env="",
        url_env="",
        url=model.url,
        headers=headers,
        header_secrets=secrets,
        prompt_format=model.prompt_format,
    )


def custom_endpoints(
    models: Mapping[str, CustomModel],
    environ: Mapping[str, str],
    settings: Settings,
    resolve: Callable[[str], list[str]] | None = None,
) -> dict[str, Endpoint | str]:
    """Each custom model's endpoint, or why it cannot be called (plain words).

    Args:
        models: The custom models, by id.
        environ: Where `${NAME}` in headers is read.
        settings: The allow-lists (`model_allow` for addresses, `call_env` for variables).
        resolve: Host name to addresses (default: `socket.getaddrinfo`).
    """
    out: dict[str, Endpoint | str] = {}
    for model_id, model in models.items():
        try:
            out[model_id] = _endpoint(model, environ, settings, resolve)
        except ConfigError as exc:
            out[model_id] = str(exc)
    return out
