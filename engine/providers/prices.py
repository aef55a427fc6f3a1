"""Model prices and costs: USD per million tokens, user overrides, and token estimates."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.errors import ConfigError
from engine.providers.types import Usage

__all__ = ["DEFAULT_PRICES", "FREE_PROVIDERS", "Price", "PriceTable", "estimate_tokens"]


@dataclass(frozen=True)
class Price:
    """A model's price in USD per million tokens."""

    input: float
    output: float


DEFAULT_PRICES: dict[str, Price] = {
    "openai:gpt-4.1": Price(2.00, 8.00),
    "openai:gpt-4.1-mini": Price(0.40, 1.60),
    "openai:gpt-4.1-nano": Price(0.10, 0.40),
    "openai:gpt-4o": Price(2.50, 10.00),
    "openai:gpt-4o-mini": Price(0.15, 0.60),
    "openai:o4-mini": Price(1.10, 4.40),
    "anthropic:claude-haiku-4.5": Price(1.00, 5.00),
    "anthropic:claude-sonnet-4.5": Price(3.00, 15.00),
    "openrouter:openai/gpt-4.1": Price(2.00, 8.00),
    "openrouter:openai/gpt-4.1-mini": Price(0.40, 1.60),
    "openrouter:openai/gpt-4o-mini": Price(0.15, 0.60),
    "openrouter:openai/o4-mini": Price(1.10, 4.40),
    "openrouter:anthropic/claude-haiku-4.5": Price(1.00, 5.00),
    "openrouter:anthropic/claude-sonnet-4.5": Price(3.00, 15.00),
    "openrouter:google/gemini-2.5-flash": Price(0.30, 2.50),
    "openai:text-embedding-3-small": Price(0.02, 0.0),
    "openai:text-embedding-3-large": Price(0.13, 0.0),
    "openai:text-embedding-ada-002": Price(0.10, 0.0),
}
"""List prices as of 2026, in USD per million (input, output) tokens. They are written from
the providers' public price pages and are **editable**: prices change, so check them before
relying on a total, and override them with `[prices]` in `settings.toml`."""

FREE_PROVIDERS = frozenset({"ollama", "ideal", "replay", "app", "local"})
"""Providers whose calls cost nothing in USD (local models, offline answers, `local:`
embedding models computed in this process)."""

_DATE = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8})$")
_DOTTED = re.compile(r"(?<=\d)-(?=\d(?!\d))")


@lru_cache(maxsize=1024)
def _canonical(model_id: str) -> str:
    """Normalize an id for lookup: case, spaces, dated snapshots, Anthropic's 4-5 for 4.5."""
    provider, _, model = model_id.strip().lower().partition(":")
    model = _DATE.sub("", model.strip())
    if "claude" in model:
        model = _DOTTED.sub(".", model)
    return f"{provider.strip()}:{model}"


def estimate_tokens(text: str) -> int:
    """Estimate the tokens of `text` as characters / 4, rounded up (crude but provider-free)."""
    return math.ceil(len(text) / 4)


def _price(model_id: str, raw: Any) -> Price:
    if isinstance(raw, Price):
        return raw
    if not isinstance(raw, Mapping):
        raise ConfigError(f"price of '{model_id}' must be a table with input and output.")
    values = []
    for name in ("input", "output"):
        value = raw.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ConfigError(
                f"price of '{model_id}' needs a non-negative number '{name}' (USD per million "
                "tokens), e.g. {input = 0.4, output = 1.6}."
            )
        values.append(float(value))
    return Price(values[0], values[1])


class PriceTable:
    """Prices by model id, with user overrides on top of `DEFAULT_PRICES`.

    Lookups ignore case, dated snapshot suffixes (`-2025-04-14`, `-20251001`) and Anthropic's
    dashed versions (`claude-haiku-4-5` is `claude-haiku-4.5`). Calls to `ollama` (local) and
    the offline `ideal`/`replay` models cost 0.

    Args:
        overrides: `{model_id: {"input": usd_per_mtok, "output": usd_per_mtok}}`, as in
            `Settings.prices`; they win over the defaults.
        defaults: The base table (default `DEFAULT_PRICES`).

    Raises:
        ConfigError: An override is not `{input, output}` with non-negative numbers.
    """

    def __init__(
        self,
        overrides: Mapping[str, Mapping[str, float] | Price] | None = None,
        *,
        defaults: Mapping[str, Price] = DEFAULT_PRICES,
    ) -> None:
        self._prices: dict[str, Price] = {_canonical(k): v for k, v in defaults.items()}
        for model_id, raw in (overrides or {}).items():
            self._prices[_canonical(model_id)] = _price(model_id, raw)

    def with_overrides(self, overrides: Mapping[str, Mapping[str, float] | Price]) -> PriceTable:
        """Return a copy of this table with `overrides` on top."""
        out = PriceTable(defaults={})
        out._prices = dict(self._prices)
        for model_id, raw in overrides.items():
            out._prices[_canonical(model_id)] = _price(model_id, raw)
        return out

    def price(self, model_id: str) -> Price | None:
        """Return the price of `model_id`, or None when it is unknown."""
        key = _canonical(model_id)
        if key.partition(":")[0] in FREE_PROVIDERS:
            return Price(0.0, 0.0)
        return self._prices.get(key)

    def estimate(self, model_id: str, input_tokens: int, output_tokens: int) -> float | None:
        """Return the USD cost of the given token counts, or None when the price is unknown."""
        price = self.price(model_id)
        if price is None:
            return None
        return (input_tokens * price.input + output_tokens * price.output) / 1_000_000

    def cost(self, model_id: str, usage: Usage) -> float | None:
        """Return the USD cost of a call's `usage`, or None when the price is unknown."""
        return self.estimate(model_id, usage.input_tokens, usage.output_tokens)

    def __contains__(self, model_id: object) -> bool:
        return isinstance(model_id, str) and self.price(model_id) is not None
