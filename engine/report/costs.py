"""How a cost is shown: dollars when every price is known, "cost unknown" otherwise, never "$0".

A model without a known price (not in `engine.providers.prices.DEFAULT_PRICES`, not set under
`[prices]` in `$BLUEPRINT_HOME/settings.toml`, and not a free provider) is recorded as costing
nothing; showing that as "$0" would be wrong. Every page, the HTML report and `blueprint plan`
word it here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.comparison.cost import UNKNOWN
from engine.errors import ConfigError
from engine.modelids import base_model_id
from engine.providers import PriceTable
from engine.settings import load_settings

__all__ = [
    "PRICE_HOWTO",
    "UNKNOWN",
    "cost_range_text",
    "cost_text",
    "price_table",
    "run_cost_text",
    "unpriced",
]

PRICE_HOWTO = (
    "set a price (USD per million tokens) under [prices] in $BLUEPRINT_HOME/settings.toml, "
    'e.g. "openai:my-model" = { input = 0.4, output = 1.6 }'
)


def price_table() -> PriceTable:
    """The prices in force: the defaults with the user's `[prices]` on top.

    Only the defaults when the settings file cannot be read.
    """
    try:
        return PriceTable(load_settings().prices)
    except (ConfigError, OSError, ValueError):
        return PriceTable()


def unpriced(models: Iterable[str], prices: PriceTable | None = None) -> list[str]:
    """The models (ids as given, in order, once) whose price is unknown.

    Args:
        models: Model ids, effective ids (`[temp:0]` suffixes are ignored) or judge ids.
        prices: The price table (default: `price_table()`).
    """
    table = prices if prices is not None else price_table()
    out: list[str] = []
    for model in models:
        if model not in out and table.price(base_model_id(model)) is None:
            out.append(model)
    return out


def cost_text(cost: float | None, unknown: bool = False, digits: int = 4) -> str:
    """A cost as shown: `$0.0123`, "cost unknown", or `$0.0123 + cost unknown`.

    "cost unknown" when a price is missing and nothing was priced; the sum plus "cost
    unknown" when only part of it is known.

    Args:
        cost: The dollars recorded (unknown prices count as 0), or None when not recorded.
        unknown: Whether some model involved has no known price.
        digits: Decimals of the dollar amount.
    """
    if cost is None:
        return UNKNOWN if unknown else "—"
    if unknown:
        return UNKNOWN if cost == 0 else f"${cost:.{digits}f} + {UNKNOWN}"
    return f"${cost:.{digits}f}"


def run_cost_text(cost: float, options: Mapping[str, Any], prices: PriceTable | None = None) -> str:
    """A stored run's cost as shown (its models and judges come from the run's `options`).

    Args:
        cost: The run's recorded dollars.
        options: The run's options (`models`, `judges`: lists of ids).
        prices: The price table (default: `price_table()`).
    """
    ids = [str(m) for key in ("models", "judges") for m in options.get(key) or []]
    return cost_text(cost, bool(unpriced(ids, prices)))


def cost_range_text(low: float, high: float, unknown: bool = False) -> str:
    """A short cost range for a metric: "$0", "< $0.01", "up to $0.05", "$0.12 – $1.40".

    With `unknown` (some model has no price): "cost unknown", or the range of the priced part
    followed by "+ unknown".
    """
    if unknown:
        return UNKNOWN if high == 0 else cost_range_text(low, high) + " + unknown"
    if high == 0:
        return "$0"
    if high < 0.01:
        return "< $0.01"
    if low < 0.01:
        return f"up to ${high:,.2f}"
    return f"${low:,.2f} – ${high:,.2f}"
