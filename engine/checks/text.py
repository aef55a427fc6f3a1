"""String point functions (contains, starts/ends, any/all/at-least-n, word count, is_json).

Functions here take validated arguments (the registry checks them first with the validators
below, which return upstream's exact messages). Case-insensitive variants are the same function
with `ignore_case=True`: JavaScript's `toLowerCase()` on both sides, which Python's `lower()`
matches (never `casefold()`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, Final, TypeGuard

from engine.checks.context import CheckContext
from engine.js.regex_limits import (
    MAX_CACHED_COST,
    MAX_TRANSLATED_LENGTH,
    WeightedCache,
    regex_module,
)
from engine.js.strings import js_json_parse

__all__ = [
    "any_strings",
    "contains",
    "contains_all_of",
    "contains_any_of",
    "contains_at_least_n_of",
    "count_and_strings",
    "ends_with",
    "is_json",
    "is_number",
    "js_json_parse",
    "starts_with",
    "string_arg",
    "word_count",
    "word_count_between",
    "word_range",
]

ArgCheck = Callable[[Any, bool], "str | None"]


def is_number(value: Any) -> TypeGuard[float]:
    """Whether `typeof value === 'number'` (booleans are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def string_arg(name: str, what: str = "a string") -> ArgCheck:
    """Validator: the argument must be a string (`typeof args === 'string'`)."""
    message = f"Invalid arguments for '{name}'. Expected {what}."

    def check(args: Any, has_args: bool) -> str | None:
        return None if isinstance(args, str) else message

    return check


def any_strings(name: str, what: str = "strings") -> ArgCheck:
    """Validator: the argument must be an array whose items are all strings."""
    message = f"Invalid arguments for '{name}'. Expected an array of {what}."

    def check(args: Any, has_args: bool) -> str | None:
        ok = isinstance(args, list) and all(isinstance(item, str) for item in args)
        return None if ok else message

    return check


def count_and_strings(name: str, item: str = "substring") -> ArgCheck:
    """Validator: `[n, [strings]]` with n a number."""
    message = (
        f"Invalid arguments for '{name}'. Expected an array of the format "
        f"[n, ['{item}1', '{item}2', ...]]."
    )

    def check(args: Any, has_args: bool) -> str | None:
        ok = (
            isinstance(args, list)
            and len(args) == 2
            and is_number(args[0])
            and isinstance(args[1], list)
            and all(isinstance(s, str) for s in args[1])
        )
        return None if ok else message

    return check


def word_range(args: Any, has_args: bool) -> str | None:
    """Validator for `word_count_between`: `[min, max]` with 0 <= min <= max."""
    ok = (
        isinstance(args, list)
        and len(args) == 2
        and is_number(args[0])
        and is_number(args[1])
        and not args[0] < 0
        and not args[1] < args[0]
    )
    if ok:
        return None
    return (
        "Invalid arguments for 'word_count_between'. Expected an array with two numbers "
        "[min, max] where 0 <= min <= max."
    )


def _lowered(text: str, needles: list[str]) -> tuple[Any, list[Any]]:
    """Return `text.toLowerCase()` and the needles lowered, in a form that compares the same.

    Fast path: when every needle is ASCII and the text has no character whose lowercase
    contains ASCII besides A-Z (only U+0130 and the Kelvin sign U+212A do), comparing
    ASCII-lowered UTF-8 bytes gives the same answer as `toLowerCase()` on both sides, because
    UTF-8 never puts an ASCII byte inside a multi-byte character.
    """
    if all(n.isascii() for n in needles) and (
        text.isascii() or ("\u0130" not in text and "\u212a" not in text)
    ):
        return (
            text.encode("utf-8", "surrogatepass").lower(),
            [n.encode("ascii").lower() for n in needles],
        )
    return text.lower(), [n.lower() for n in needles]


_needle_cache: WeightedCache[str, Any] = WeightedCache(4096, MAX_CACHED_COST)


def _ascii_insensitive(needle: str) -> Any:
    """`needle` as a pattern matching ASCII letters of either case, and nothing else folded."""
    regex = regex_module()
    flags = regex.IGNORECASE | regex.ASCII
    return _needle_cache.get_or_build(
        needle,
        lambda: (regex.compile(regex.escape(needle), flags, cache_pattern=False), len(needle)),
    )


def _ascii_fold_ok(text: str, needles: list[str]) -> bool:
    """Whether comparing with ASCII-only case folding equals `toLowerCase()` on both sides.

    True when every needle is ASCII and the text has neither U+0130 nor the Kelvin sign, the
    only characters whose lowercase contains ASCII letters besides A-Z. Needles longer than
    `MAX_TRANSLATED_LENGTH` are compared lowered instead: compiling a pattern costs about
    5 µs and hundreds of bytes per character.
    """
    return all(n.isascii() and len(n) <= MAX_TRANSLATED_LENGTH for n in needles) and (
        text.isascii() or ("\u0130" not in text and "\u212a" not in text)
    )


def found_lowered(text: str, needles: list[str]) -> list[bool]:
    """For each needle, `text.toLowerCase().includes(needle.toLowerCase())`."""
    if len(needles) == 1 and _ascii_fold_ok(text, needles):  # one search, no lowered copy
        return [_ascii_insensitive(needles[0]).search(text) is not None]
    haystack, folded = _lowered(text, needles)
    return [needle in haystack for needle in folded]


def contains(text: str, args: str, ctx: CheckContext, *, ignore_case: bool = False) -> bool:
    """`text.includes(args)`; an empty needle is always found."""
    return found_lowered(text, [args])[0] if ignore_case else args in text


def starts_with(text: str, args: str, ctx: CheckContext, *, ignore_case: bool = False) -> bool:
    """`text.startsWith(args)`, no trimming."""
    if ignore_case:
        if _ascii_fold_ok(text, [args]):
            return _ascii_insensitive(args).match(text) is not None
        haystack, (prefix,) = _lowered(text, [args])
        return bool(haystack.startswith(prefix))
    return text.startswith(args)


def ends_with(text: str, args: str, ctx: CheckContext, *, ignore_case: bool = False) -> bool:
    """`text.endsWith(args)`, no trimming."""
    if ignore_case:
        if _ascii_fold_ok(text, [args]):  # ASCII-only folding never changes lengths
            start = len(text) - len(args)
            return start >= 0 and _ascii_insensitive(args).fullmatch(text, start) is not None
        haystack, (suffix,) = _lowered(text, [args])
        return bool(haystack.endswith(suffix))
    return text.endswith(args)


def contains_any_of(
    text: str, args: list[str], ctx: CheckContext, *, ignore_case: bool = False
) -> bool:
    """True if any needle is included; an empty list gives false."""
    if ignore_case:
        return any(found_lowered(text, args))
    return any(needle in text for needle in args)


def contains_all_of(
    text: str, args: list[str], ctx: CheckContext, *, ignore_case: bool = False
) -> float:
    """Graded: the share of needles found; an empty list gives 1.0."""
    if not args:
        return 1.0
    if ignore_case:
        return sum(found_lowered(text, args)) / len(args)
    return sum(1 for needle in args if needle in text) / len(args)


def at_least(n: float, items: list[str], count: Callable[[], Any]) -> Any:
    """Upstream's at-least-n score: n <= 0 gives 1, no items give 0, else min(1, found / n).

    `count()` returns the number found, or an `{error}` result that is passed through.
    """
    if n <= 0:
        return 1.0
    if not items:
        return 0.0 if n > 0 else 1.0
    found = count()
    if isinstance(found, dict):
        return found
    if math.isnan(n):
        return math.nan  # JS Math.min(1, NaN) is NaN
    return min(1.0, found / n)


def contains_at_least_n_of(
    text: str, args: list[Any], ctx: CheckContext, *, ignore_case: bool = False
) -> float:
    """`min(1, found / n)` over the needles (duplicates each count)."""
    n, needles = args

    def count() -> int:
        if ignore_case:
            return sum(found_lowered(text, needles))
        return sum(1 for needle in needles if needle in text)

    result: float = at_least(n, needles, count)
    return result


_NON_ASCII_SPACE: Final = tuple(
    "\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_SPACE_BYTES: Final = bytes(
    0x20 if b in (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20) else 0x78 for b in range(256)
)
_JS_WORD: Final = re.compile(
    "[^\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"
)


def word_count(text: str) -> int:
    r"""The number of `/\\S+/g` matches with JavaScript's whitespace set (U+FEFF included)."""
    if text.isascii() or not any(space in text for space in _NON_ASCII_SPACE):
        # Only ASCII whitespace can occur: map it to b" " and everything else (every byte of
        # a multi-byte character included) to b"x", then count the starts of words.
        marks = text.encode("utf-8", "surrogatepass").translate(_SPACE_BYTES)
        return marks.count(b" x") + (marks[:1] == b"x")
    return sum(1 for _ in _JS_WORD.finditer(text))


def word_count_between(text: str, args: list[float], ctx: CheckContext) -> float:
    """1 inside [min, max]; below, count/min; above, max/count."""
    count = word_count(text)
    low, high = args
    if count < low:
        return 1.0 if low == 0 else count / low
    if count > high:
        return 0.0 if high == 0 else high / count
    return 1.0


def is_json(text: str, args: Any, ctx: CheckContext) -> bool:
    """`JSON.parse(text)` succeeds and gives a non-null object or array."""
    ok, value = js_json_parse(text)
    return ok and isinstance(value, dict | list)
