"""One name per model for the executive summary: routes and dated names folded, as Weval grades.

Weval grades each base model once, under a display id it normalizes: a routing provider's
prefix (`openrouter:openai/gpt-4.1` -> `gpt-4.1`) and the maker before `/` are dropped, a few
dated or preview names are folded (`claude-3-5-haiku-20241022` -> `claude-3-5-haiku`), and a
canonical maker prefix is put back from the name (`gpt-`, `o1-`, `o4-` -> `openai:`,
`claude` -> `anthropic:`, ...). So `openai:gpt-4.1` and `openrouter:openai/gpt-4.1` are one
graded model, `openai:gpt-4.1`. Ids it cannot place are kept as written.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["canonical_model_id", "split_suffixes"]

ROUTERS: Final = ("openrouter", "together", "fireworks", "replicate")
"""Providers whose model names are `maker/model`: the maker says nothing about the route."""

FOLDED: Final = {
    "grok-3-mini-beta": "grok-3-mini",
    "grok-4-mini-beta": "grok-4-mini",
    "grok-4-0709": "grok-4",
    "deepseek-chat-v3-0324": "deepseek-chat-v3",
    "claude-3-5-haiku-20241022": "claude-3-5-haiku",
    "claude-3-5-sonnet-20241022": "claude-3-5-sonnet",
    "claude-3-7-sonnet-20250219": "claude-3-7-sonnet",
    "claude-sonnet-4-20250514": "claude-sonnet-4",
    "claude-opus-4-20250514": "claude-opus-4",
    "claude-3-opus-20240229": "claude-3-opus",
    "gemini-2.5-flash-preview-05-20": "gemini-2.5-flash",
    "gemini-2.5-flash-preview": "gemini-2.5-flash",
    "gemini-2.5-pro-preview": "gemini-2.5-pro",
}
"""Names Weval folds into one (lower case -> the name it grades under)."""

MAKERS: Final = (
    (("grok",), "xai"),
    (("gpt-", "o1-", "o4-"), "openai"),
    (("claude",), "anthropic"),
    (("qwen",), "qwen"),
    (("gemini", "palm", "gemma"), "google"),
    (("deepseek",), "deepseek"),
    (("llama",), "meta"),
    (("mistral", "mixtral"), "mistralai"),
    (("command",), "cohere"),
)
"""The maker prefix given to a name containing one of the words, first match first."""

_SUFFIXES = re.compile(r"(?:\[[a-z_]+:[^\]]*\])*$")


def split_suffixes(model_id: str) -> tuple[str, str]:
    """`(base, suffixes)`: the id without its trailing `[temp:…]`, `[sp_idx:…]`, `[rep:…]`."""
    match = _SUFFIXES.search(model_id)
    start = match.start() if match is not None else len(model_id)
    return model_id[:start], model_id[start:]


def _core_name(base: str) -> str:
    provider, colon, rest = base.partition(":")
    if colon and provider in ROUTERS:
        return rest.split("/")[1] if "/" in rest else rest
    if colon:
        return rest
    return base.split("/")[1] if "/" in base else base


def canonical_model_id(model_id: str) -> str:
    """The id Weval grades a model under (variant and repeat suffixes dropped)."""
    base = split_suffixes(model_id)[0].strip()
    name = _core_name(base)
    name = FOLDED.get(name.lower(), name)
    lower = name.lower()
    for words, maker in MAKERS:
        if any(w in lower for w in words):
            if maker == "meta":
                name = name.removeprefix("meta-llama/")
            return f"{maker}:{name}"
    return base if (":" in base or "/" in base) else name
