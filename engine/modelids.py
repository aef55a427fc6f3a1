"""Model ids: `provider:model`, the known providers, and Weval's effective ids (`[temp:T]`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from engine.js.values import js_number_str

__all__ = [
    "APP_PREFIX",
    "DEFAULT_CONCURRENCY",
    "PROVIDERS",
    "ProviderInfo",
    "app_model_id",
    "base_model_id",
    "display_names",
    "effective_model_id",
    "is_collection",
    "judge_name",
    "split_model_id",
]

DEFAULT_CONCURRENCY = 32
"""Model calls in flight at once when nothing else is said (runs, the CLI, the pool)."""

ApiKind = Literal["openai", "anthropic", "ollama", "offline"]


@dataclass(frozen=True)
class ProviderInfo:
    """How to reach one provider.

    Attributes:
        name: The prefix in model ids (`openai` in `openai:gpt-4.1-mini`).
        api: The wire protocol: OpenAI chat completions, Anthropic messages, Ollama chat, or
            offline (answered without any network call).
        base_url: The default endpoint; `<NAME>_BASE_URL` overrides it.
        needs_key: Whether `<NAME>_API_KEY` must be set.
    """

    name: str
    api: ApiKind
    base_url: str | None
    needs_key: bool = True

    @property
    def key_env(self) -> str:
        """The environment variable holding this provider's API key."""
        return f"{self.name.upper().replace('-', '_')}_API_KEY"

    @property
    def url_env(self) -> str:
        """The environment variable that overrides this provider's endpoint."""
        return f"{self.name.upper().replace('-', '_')}_BASE_URL"


PROVIDERS: dict[str, ProviderInfo] = {
    p.name: p
    for p in (
        ProviderInfo("openrouter", "openai", "https://openrouter.ai/api/v1"),
        ProviderInfo("openai", "openai", "https://api.openai.com/v1"),
        ProviderInfo("anthropic", "anthropic", "https://api.anthropic.com/v1"),
        ProviderInfo("ollama", "ollama", "http://127.0.0.1:11434", needs_key=False),
        ProviderInfo("together", "openai", "https://api.together.xyz/v1"),
        ProviderInfo("xai", "openai", "https://api.x.ai/v1"),
        ProviderInfo("mistral", "openai", "https://api.mistral.ai/v1"),
        ProviderInfo("google", "openai", "https://generativelanguage.googleapis.com/v1beta/openai"),
        ProviderInfo("groq", "openai", "https://api.groq.com/openai/v1"),
        ProviderInfo("deepseek", "openai", "https://api.deepseek.com/v1"),
        ProviderInfo("ideal", "offline", None, needs_key=False),
        ProviderInfo("replay", "offline", None, needs_key=False),
        ProviderInfo("app", "offline", None, needs_key=False),
    )
}
"""Providers known by name. Any other prefix works as an OpenAI-compatible endpoint when
`<PREFIX>_BASE_URL` is set (for example `VLLM_BASE_URL` for `vllm:my-model`)."""

APP_PREFIX = "app:"
"""The prefix of a chat app's pasted answers (`app:chatgpt-web`): never a provider's model."""

_APP_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def app_model_id(name: str) -> str:
    """The model id of a chat app's pasted answers: `app:NAME` (the prefix may be given).

    NAME is 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit
    (`chatgpt-web`, `claude.ai`), so the id can never be taken for a provider's model.

    Raises:
        ValueError: The name is empty or holds other characters (the message says what to write).
    """
    raw = name.strip()
    bare = raw[len(APP_PREFIX) :] if raw.lower().startswith(APP_PREFIX) else raw
    if ":" in bare and not raw.lower().startswith(APP_PREFIX):
        raise ValueError(
            f"'{raw}' looks like a provider's model id; name the app's answers app:NAME, such "
            "as app:chatgpt-web."
        )
    if not _APP_NAME.fullmatch(bare):
        raise ValueError(
            f"'{raw}' is not a name for an app's answers: use 1 to 64 letters, digits, '.', "
            "'_' or '-' after app:, such as app:chatgpt-web."
        )
    return APP_PREFIX + bare


_SUFFIX = re.compile(r"\[(?:temp|sp_idx):[^\]]*\]")


def is_collection(model_id: str) -> bool:
    """True for Weval's collection placeholders such as `CORE`: no `:`, no lower-case letter.

    This is Weval's rule (`!m.includes(':') && m.toUpperCase() === m`), with at least one
    letter required.
    """
    name = model_id.strip()
    return ":" not in name and name == name.upper() and any(c.isalpha() for c in name)


@lru_cache(maxsize=1024)
def split_model_id(model_id: str) -> tuple[str, str] | None:
    """Split `provider:model` at the first colon (whitespace around it is tolerated).

    `ideal` alone is the offline ideal-response model. Returns None when there is no prefix.
    """
    if model_id.strip() == "ideal":
        return "ideal", "ideal"
    provider, sep, model = model_id.partition(":")
    if not sep or not provider.strip():
        return None
    return provider.strip(), model.strip()


def effective_model_id(model_id: str, temperature: float, system_index: int | None) -> str:
    """Return Weval's effective id: `<model>[temp:<T>]`, plus `[sp_idx:<i>]` with several systems."""
    out = f"{model_id}[temp:{js_number_str(temperature)}]"
    if system_index is not None:
        out += f"[sp_idx:{system_index}]"
    return out


def base_model_id(effective_id: str) -> str:
    """Strip Weval's `[temp:…]` and `[sp_idx:…]` suffixes."""
    return _SUFFIX.sub("", effective_id)


def display_names(models: Iterable[str]) -> dict[str, str]:
    """The one name per model that every page, report, CSV and summary shows.

    The base id (`ideal`, not `ideal[temp:0]`) when that keeps the names apart; the effective
    ids (Weval's, as the comparison JSON keeps them) when two share a base model.
    """
    ids = list(dict.fromkeys(models))
    short = {m: base_model_id(m) for m in ids}
    return short if len(set(short.values())) == len(short) else {m: m for m in ids}


_JUDGE_ID = re.compile(r"(?P<ident>[^()]*)\((?P<model>[^()]*)\)(?P<backup> \[backup\])?")
_APPROACHES = ("prompt-aware", "standard", "holistic")


def judge_name(judge_id: str) -> str:
    """One readable name for a judge id as Weval writes it (`<id>(<provider:model>)`).

    `holistic-gemini-2-5-flash(openrouter:google/gemini-2.5-flash)` reads
    `gemini-2.5-flash (holistic)`; a backup judge says so; a judge with its own id reads
    `my-judge (gpt-4.1-mini)`. Any other text is given back as is.

    Args:
        judge_id: A judgement's `judgeModelId`.

    Returns:
        The model's own name and, in brackets, the judge's approach (and "backup"), or
        the judge's own id and, in brackets, the model's name.
    """
    found = _JUDGE_ID.fullmatch(judge_id.strip())
    if found is None:
        return judge_id
    model = found["model"].split(":", 1)[-1].rsplit("/", 1)[-1] or found["model"]
    ident = found["ident"].strip()
    words = [a for a in _APPROACHES if ident.startswith(a)][:1]
    if found["backup"] or ident.startswith("backup"):
        words.append("backup")
    if words:
        return f"{model} ({', '.join(words)})"
    return f"{ident} ({model})" if ident else model
