"""YAML 1.2 scalars as js-yaml's default schema types them (null, bool, int, float, timestamp)."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

__all__ = ["FALSE", "NULLS", "TRUE", "js_float", "js_int", "resolve_plain", "timestamp_json"]

_INT_BODY = re.compile(r"0b[01]+|0x[0-9a-fA-F]+|0o[0-7]+|[0-9]+")
_FLOAT = re.compile(
    r"[-+]?[0-9][0-9]*(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?"
    r"|\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9]{2}))?))?"
)
NULLS = frozenset({"~", "null", "Null", "NULL", ""})
TRUE = frozenset({"true", "True", "TRUE"})
FALSE = frozenset({"false", "False", "FALSE"})


def js_int(text: str) -> int | float:
    """Construct a YAML int as js-yaml does (`0b`, `0x`, `0o`, decimal; beyond 2**53 a float)."""
    sign = -1 if text[0] == "-" else 1
    body = text[1:] if text[0] in "+-" else text
    if body.startswith("0b"):
        value = int(body[2:], 2)
    elif body.startswith("0x"):
        value = int(body[2:], 16)
    elif body.startswith("0o"):
        value = int(body[2:], 8)
    else:
        value = int(body, 10)
    value *= sign
    return value if abs(value) <= 2**53 else float(value)


def js_float(text: str) -> float:
    """Construct a YAML float (`.inf`, `.nan` in any YAML spelling included)."""
    lowered = text.lower()
    sign = -1.0 if lowered[0] == "-" else 1.0
    body = lowered[1:] if lowered[0] in "+-" else lowered
    if body == ".inf":
        return sign * math.inf
    if body == ".nan":
        return math.nan
    return sign * float(body)


def timestamp_json(text: str) -> str | None:
    """Return JSON.stringify(new Date(...)) of a YAML timestamp, as js-yaml builds it."""
    m = _DATE.fullmatch(text)
    if m:
        year, month, day = (int(g) for g in m.groups())
        moment = datetime(year, month, day, tzinfo=UTC)
    else:
        m = _TIMESTAMP.fullmatch(text)
        if not m:
            return None
        year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
        fraction = (m.group(7) or "")[:3].ljust(3, "0")
        moment = datetime(year, month, day, hour, minute, second, int(fraction) * 1000, tzinfo=UTC)
        if m.group(9):
            offset = timedelta(hours=int(m.group(10)), minutes=int(m.group(11) or 0))
            moment = moment.replace(
                tzinfo=timezone(offset if m.group(9) == "+" else -offset)
            ).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def resolve_plain(text: str) -> Any:
    """Type a plain (unquoted) scalar as js-yaml's default schema does."""
    if text in NULLS:
        return None
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    first = text[0]
    if first.isdigit() or first in "+-.":
        body = text[1:] if first in "+-" else text
        if body and _INT_BODY.fullmatch(body):
            return js_int(text)
        if _FLOAT.fullmatch(text) and not text.endswith("_"):
            return js_float(text)
        if first.isdigit():
            stamp = timestamp_json(text)
            if stamp is not None:
                return stamp
    return text
