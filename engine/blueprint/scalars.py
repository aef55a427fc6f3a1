"""YAML 1.2 scalars as js-yaml 4.1.0's default schema types them (null, bool, int, float, timestamp)."""

from __future__ import annotations

import math
import re
from typing import Any

__all__ = [
    "FALSE",
    "NULLS",
    "TRUE",
    "is_yaml_float",
    "is_yaml_int",
    "js_float",
    "js_int",
    "resolve_plain",
    "timestamp_json",
]

# js-yaml 4.1.0 `resolveYamlInteger`: a sign, then `0`, or `0b`/`0x`/`0o` digits, or decimal
# digits; `_` may separate digits but never ends the number (nor follows a leading `0`).
_INT = re.compile(
    r"[-+]?(?:0|0b[01_]*[01]|0x[0-9a-fA-F_]*[0-9a-fA-F]|0o[0-7_]*[0-7]"
    r"|(?!0[bxo_])[0-9](?:[0-9_]*[0-9])?)"
)
# js-yaml 4.1.0 `YAML_FLOAT_PATTERN` (a text ending in `_` is never a float).
_FLOAT = re.compile(
    r"[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?"
    r"|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_BASES = {"b": 2, "x": 16, "o": 8}
_SAFE = 2**53
_EXACT_DIGITS = 15  # decimal strings this short are exact as Python ints and as doubles
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9]{2}))?))?"
)
NULLS = frozenset({"~", "null", "Null", "NULL", ""})
TRUE = frozenset({"true", "True", "TRUE"})
FALSE = frozenset({"false", "False", "FALSE"})


def is_yaml_int(text: str) -> bool:
    """True when js-yaml 4.1.0 reads `text` as an integer (`12`, `-0x1F`, `1_000`, `0b11`)."""
    return _INT.fullmatch(text) is not None


def is_yaml_float(text: str) -> bool:
    """True when js-yaml 4.1.0 reads `text` as a float (`1.5`, `1_000.5`, `.inf`, `1e3`)."""
    return _FLOAT.fullmatch(text) is not None and not text.endswith("_")


def _js_number(value: int) -> int | float:
    """A whole number as a JavaScript number: exact up to 2**53, then the nearest double."""
    if -_SAFE <= value <= _SAFE:
        return value
    try:
        return float(value)
    except OverflowError:  # beyond the largest double: JavaScript's Infinity
        return math.inf if value > 0 else -math.inf


def js_int(text: str) -> int | float:
    """Construct a YAML int as js-yaml's `constructYamlInteger` does: a JavaScript number.

    `_` separators are dropped; `0b`, `0x` and `0o` give bases 2, 16 and 8. Beyond 2**53 the
    value is the nearest double, and beyond the largest double it is infinite, as
    `parseInt` gives, so a number of any length is read (never Python's 4,300-digit limit).
    A negative zero (`-00`, `-0x0`) is `-0.0`, while `-0` itself is 0, as in js-yaml.
    """
    value = text.replace("_", "") if "_" in text else text
    negative = value[0] == "-"
    if value[0] in "+-":
        value = value[1:]
    if value == "0":
        return 0
    base = _BASES.get(value[1:2], 10) if value[0] == "0" else 10
    number: int | float
    if base != 10:
        number = _js_number(int(value[2:], base))
    elif len(value) <= _EXACT_DIGITS:
        number = int(value)
    else:
        rounded = float(value)  # correctly rounded, like parseInt; `inf` when too large
        number = int(rounded) if abs(rounded) <= _SAFE else rounded
    if negative:
        return -number if number else -0.0
    return number


def js_float(text: str) -> float:
    """Construct a YAML float as js-yaml's `constructYamlFloat` does (`_` dropped, `.inf`, `.nan`)."""
    lowered = text.replace("_", "").lower()
    sign = -1.0 if lowered[0] == "-" else 1.0
    body = lowered[1:] if lowered[0] in "+-" else lowered
    if body == ".inf":
        return sign * math.inf
    if body == ".nan":
        return math.nan
    return sign * float(body)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (month 1-12)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """The proleptic Gregorian (year, month, day) of a count of days since 1970-01-01."""
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (month <= 2), month, day


def _date_utc(year: int, month0: int, day: int, millis: int) -> str:
    """`new Date(Date.UTC(year, month0, day) + millis).toISOString()`, overflow rolled over."""
    if 0 <= year <= 99:  # Date.UTC reads years 0-99 as 1900-1999
        year += 1900
    year, month0 = year + month0 // 12, month0 % 12
    total = (_days_from_civil(year, month0 + 1, 1) + day - 1) * 86_400_000 + millis
    days, rest = divmod(total, 86_400_000)
    year, month, day = _civil_from_days(days)
    hours, rest = divmod(rest, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, ms = divmod(rest, 1000)
    shown = f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):06d}"
    return f"{shown}-{month:02d}-{day:02d}T{hours:02d}:{minutes:02d}:{seconds:02d}.{ms:03d}Z"


def timestamp_json(text: str) -> str | None:
    """Return JSON.stringify(new Date(...)) of a YAML timestamp, as js-yaml 4.1.0 builds it.

    Out-of-range parts roll over as `Date.UTC` rolls them (`2024-13-01` is 2025-01-01, years
    0-99 are 1900-1999), so no date text can make this fail.
    """
    m = _DATE.fullmatch(text)
    if m:
        year, month, day = (int(g) for g in m.groups())
        return _date_utc(year, month - 1, day, 0)
    m = _TIMESTAMP.fullmatch(text)
    if not m:
        return None
    year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    fraction = int((m.group(7) or "")[:3].ljust(3, "0"))
    millis = ((hour * 60 + minute) * 60 + second) * 1000 + fraction
    if m.group(9) and m.group(9) != "Z":
        delta = (int(m.group(10)) * 60 + int(m.group(11) or 0)) * 60_000
        millis -= delta if m.group(9) == "+" else -delta
    return _date_utc(year, month - 1, day, millis)


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
        if _INT.fullmatch(text):
            return js_int(text)
        if _FLOAT.fullmatch(text) and text[-1] != "_":
            return js_float(text)
        if first.isdigit():
            stamp = timestamp_json(text)
            if stamp is not None:
                return stamp
    return text
