"""JavaScript value semantics the engine must reproduce: numbers, truthiness, JSON text, rounding."""

from __future__ import annotations

import json
import math
from typing import Any, Final

__all__ = [
    "UNDEFINED",
    "format_score",
    "js_clean",
    "js_json_stringify",
    "js_number_str",
    "js_round",
    "js_string",
    "js_string_length",
    "js_to_fixed",
    "js_truthy",
    "js_typeof",
    "stable_stringify",
]


class _Undefined:
    """The JavaScript value `undefined`, distinct from `null` (Python `None`)."""

    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Final = _Undefined()

_encode_str = json.encoder.encode_basestring


def js_truthy(value: Any) -> bool:
    """Return whether JavaScript would treat `value` as truthy.

    Empty lists and objects are truthy in JavaScript, unlike Python.
    """
    if value is None or value is UNDEFINED:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return not (value == 0 or (isinstance(value, float) and math.isnan(value)))
    if isinstance(value, str):
        return value != ""
    return True


def js_typeof(value: Any) -> str:
    """Return the JavaScript `typeof` of a JSON-like Python value."""
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "object"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def js_number_str(value: float) -> str:
    """Format a number as JavaScript's `String(n)` does (`1.0` -> `1`, `1e-7` -> `1e-7`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) < 10**21:
            return str(value)
        value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    from decimal import Decimal  # imported with the first number written out

    _, digit_tuple, exponent = Decimal(repr(abs(value))).as_tuple()
    raw = "".join(map(str, digit_tuple))
    digits = raw.rstrip("0")
    k = len(digits)
    n = int(exponent) + len(raw)  # value = 0.<digits> * 10**n
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        out = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + out


def js_string(value: Any) -> str:
    """Convert a JSON-like value to a string as JavaScript's `String(v)` does."""
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number_str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else js_string(v) for v in value)
    return "[object Object]"


def js_string_length(value: Any, limit: int) -> int:
    """The length of `js_string(value)`, counted up to just past `limit` without building it.

    A list repeated through YAML aliases is one object many times over, so each distinct
    list is measured once: a 400-byte file whose aliases nest ten lists of four gives a text
    of millions of characters, measured here in a few thousand steps.
    """
    seen: dict[int, int] = {}

    def measure(v: Any) -> int:
        if not isinstance(v, list):
            return 0 if v is None or v is UNDEFINED else len(js_string(v))
        known = seen.get(id(v))
        if known is not None:
            return known
        total = max(0, len(v) - 1)  # the commas
        for item in v:
            total += measure(item)
            if total > limit:
                break
        seen[id(v)] = total
        return total

    return min(measure(value), limit + 1)


def js_to_fixed(value: float, digits: int) -> str:
    """Return `value.toFixed(digits)`: the exact binary value rounded half away from zero.

    Python's `round` and `format` round half to even (0.125 -> 0.12); JavaScript gives 0.13.
    """
    if math.isnan(value):
        return "NaN"
    if abs(value) >= 1e21 or math.isinf(value):
        return js_number_str(value)
    from decimal import ROUND_HALF_UP, Decimal

    quantum = Decimal(1).scaleb(-digits)
    rounded = Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP)
    text = f"{rounded:.{digits}f}"
    if value == 0 and text.startswith("-"):  # (-0).toFixed() is "0"; (-0.2).toFixed() is "-0"
        text = text[1:]
    return text


def js_round(value: float, digits: int = 2) -> float:
    """Return `parseFloat(value.toFixed(digits))`, the rounding Weval applies to scores."""
    if math.isnan(value) or math.isinf(value):
        return value
    return float(js_to_fixed(value, digits))


def format_score(value: float | None, digits: int = 2, missing: str = "—") -> str:
    """A score as every page and report shows it: JavaScript's `toFixed` (0.125 -> "0.13").

    Python's `f"{0.125:.2f}"` gives "0.12", so a score formatted both ways disagreed between
    pages; every score on screen and in the reports goes through this one function.

    Args:
        value: The score, or None when there is none.
        digits: Decimals shown.
        missing: The text shown for None.
    """
    return missing if value is None else js_to_fixed(value, digits)


def _is_integer_key(key: str) -> bool:
    return key.isdigit() and (key == "0" or not key.startswith("0")) and len(key) < 10


def _js_key_order(obj: dict[str, Any]) -> list[str]:
    """Return keys in JavaScript's own-property order: integer-like keys first, ascending."""
    keys = list(obj)
    ints = [k for k in keys if _is_integer_key(k)]
    if not ints:
        return keys
    return sorted(ints, key=int) + [k for k in keys if not _is_integer_key(k)]


def _dump(value: Any, out: list[str], sort_keys: bool) -> bool:
    """Append the JSON text of `value`; return False when it is `undefined` (omitted)."""
    if value is UNDEFINED:
        return False
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_encode_str(value))
    elif isinstance(value, int | float):
        if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
            out.append("null")
        else:
            out.append(js_number_str(value))
    elif isinstance(value, list | tuple):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            if not _dump(item, out, sort_keys):
                out.append("null")
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        keys = sorted(value) if sort_keys else _js_key_order(value)
        first = True
        for key in keys:
            item = value[key]
            if item is UNDEFINED:
                continue
            if not first:
                out.append(",")
            first = False
            out.append(_encode_str(str(key)))
            out.append(":")
            _dump(item, out, sort_keys)
        out.append("}")
    else:
        out.append(_encode_str(str(value)))
    return True


def js_json_stringify(value: Any) -> str | None:
    """Return `JSON.stringify(value)`; None where JavaScript returns `undefined`."""
    out: list[str] = []
    if not _dump(value, out, sort_keys=False):
        return None
    return "".join(out)


def stable_stringify(value: Any) -> str:
    """Return json-stable-stringify's text: keys sorted recursively, compact, JS numbers."""
    out: list[str] = []
    _dump(value, out, sort_keys=True)
    return "".join(out)


def js_clean(value: Any) -> Any:
    """Return a copy fit for `json.dumps` that prints as JavaScript would.

    Integral floats become ints (`1.0` -> `1`), NaN and infinities become None (JSON `null`),
    tuples become lists.
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:  # most values: as they are
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return None
        if value.is_integer() and abs(value) < 1e21:
            return int(value)
        return value
    if isinstance(value, dict):
        return {str(k): js_clean(v) for k, v in value.items() if v is not UNDEFINED}
    if isinstance(value, list | tuple):
        return [None if v is UNDEFINED else js_clean(v) for v in value]
    return value
