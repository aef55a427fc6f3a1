r"""Regex point functions (`matches` and friends) and the Unicode-aware `contains_word`.

Patterns are compiled with JavaScript semantics by `engine.js.regex` (flags `''` or `'i'`,
never `g m s u`). `contains_word` escapes the word and tests
`(?<![\p{L}\p{N}_])word(?![\p{L}\p{N}_])` with the `u` (or `iu`) flag, as upstream does; with
`u`, JavaScript matches code points, which Python strings are. Under `iu` each character of
the word becomes the class of characters JavaScript's simple case folding makes equal to it
(`engine.js.case.iu_piece`), because the `regex` module's IGNORECASE also folds dotted capital I
onto `i` and dotless i onto `I`, which JavaScript never does.
"""

from __future__ import annotations

from typing import Any, Final

from engine.checks.context import CheckContext
from engine.checks.text import at_least
from engine.js.case import iu_piece
from engine.js.engine import JSEngineError
from engine.js.regex import JsRegex, RegexLimit, compile_js_regex
from engine.js.regex_limits import (
    MAX_CACHED_COST,
    MAX_TRANSLATED_LENGTH,
    WeightedCache,
    regex_module,
)

__all__ = [
    "contains_word",
    "matches",
    "matches_all_of",
    "matches_at_least_n_of",
]

Result = bool | float | dict[str, str]


def _compiled(pattern: str, ignore_case: bool) -> JsRegex:
    return compile_js_regex(pattern, "i" if ignore_case else "")


def _timeout(name: str, exc: Exception) -> dict[str, str]:
    return {"error": f"Regex evaluation failed in '{name}': {exc}"}


def matches(text: str, args: str, ctx: CheckContext, *, name: str, ignore_case: bool) -> Result:
    """`new RegExp(args[, 'i']).test(text)` with JavaScript syntax and semantics."""
    try:
        return _compiled(args, ignore_case).test(text)
    except ValueError as exc:
        return {"error": f"Invalid regex pattern for '{name}': {exc}"}
    except (RegexLimit, JSEngineError) as exc:
        return _timeout(name, exc)


def _count(text: str, patterns: list[str], name: str, ignore_case: bool) -> int | dict[str, str]:
    found = 0
    for pattern in patterns:
        try:
            found += _compiled(pattern, ignore_case).test(text)
        except ValueError as exc:
            return {"error": f"Invalid regex pattern in '{name}': {exc}"}
        except (RegexLimit, JSEngineError) as exc:
            return _timeout(name, exc)
    return found


def matches_all_of(
    text: str, args: list[str], ctx: CheckContext, *, name: str, ignore_case: bool
) -> Result:
    """Graded: the share of patterns that match; an empty list gives 1.0."""
    if not args:
        return 1.0
    found = _count(text, args, name, ignore_case)
    return found if isinstance(found, dict) else found / len(args)


def matches_at_least_n_of(
    text: str, args: list[Any], ctx: CheckContext, *, name: str, ignore_case: bool
) -> Result:
    """`min(1, matched / n)`; n <= 0 gives 1 without compiling any pattern."""
    n, patterns = args
    result: Result = at_least(n, patterns, lambda: _count(text, patterns, name, ignore_case))
    return result


_BOUNDARY = r"[\p{L}\p{N}_]"
_JS_SPECIAL: Final = frozenset(".*+?^${}()|[]\\")


_word_cache: WeightedCache[tuple[str, bool], Any] = WeightedCache(2048, MAX_CACHED_COST)


def _word_pattern(word: str, ignore_case: bool) -> Any:
    """The compiled word pattern, cached by the characters it holds (a few hundred bytes each)."""
    return _word_cache.get_or_build(
        (word, ignore_case), lambda: (_build_word_pattern(word, ignore_case), len(word))
    )


def _build_word_pattern(word: str, ignore_case: bool) -> Any:
    regex = regex_module()
    if not ignore_case:
        body = regex.escape(word, special_only=True, literal_spaces=True)
        return regex.compile(
            f"(?<!{_BOUNDARY}){body}(?!{_BOUNDARY})", regex.V0, cache_pattern=False
        )
    body = "".join(iu_piece(ch) for ch in word)
    flags = regex.V0 | regex.IGNORECASE
    return regex.compile(f"(?<!{_BOUNDARY}){body}(?!{_BOUNDARY})", flags, cache_pattern=False)


def _js_word_regex(word: str, ignore_case: bool) -> JsRegex:
    """Upstream's own `RegExp` for a word (run by QuickJS: used for very long words)."""
    escaped = "".join("\\" + ch if ch in _JS_SPECIAL else ch for ch in word)
    pattern = f"(?<!{_BOUNDARY}){escaped}(?!{_BOUNDARY})"
    return compile_js_regex(pattern, "iu" if ignore_case else "u")


def contains_word(
    text: str, args: str, ctx: CheckContext, *, name: str, ignore_case: bool
) -> Result:
    """The word appears with no Unicode letter, number or `_` on either side; '' gives true.

    Case-insensitive matching follows JavaScript's `iu` flags (`iu_class`). A word too long to
    compile quickly on the `regex` module runs in QuickJS with its time and memory limits.
    """
    if not args:
        return True
    try:
        if len(args) > MAX_TRANSLATED_LENGTH:
            return _js_word_regex(args, ignore_case).test(text)
        return _word_pattern(args, ignore_case).search(text, timeout=1.0) is not None
    except (regex_module().error, TimeoutError, ValueError, RegexLimit, JSEngineError) as exc:
        return {"error": f"Error in '{name}': {exc}"}
