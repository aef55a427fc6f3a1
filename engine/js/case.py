"""JavaScript's case-insensitive matching under the `iu` flags, as `regex` character classes.

With `iu`, JavaScript treats two characters as equal when their simple case foldings are equal
(ECMA-262 Canonicalize). The `regex` module's IGNORECASE also lets dotted capital I (U+0130)
match `i` and dotless i (U+0131) match `I`, which JavaScript never does, so `İstanbul` would
match `istanbul`. Each character of a word is therefore written as the explicit class of the
characters QuickJS (the engine used as the oracle for Node's semantics) accepts for it.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from engine.js.engine import js_regex_test
from engine.js.regex_limits import regex_module

__all__ = ["iu_class", "iu_piece"]


@cache
def _case_variants() -> tuple[Any, int]:
    """The `regex` module's own case table lookup (None if it has none) and its flags."""
    regex = regex_module()
    return getattr(getattr(regex, "_regex", None), "get_all_cases", None), int(
        regex.V0 | regex.IGNORECASE
    )


def _candidates(ch: str) -> set[str]:
    """Characters that may be case variants of `ch` (a superset of JavaScript's answer)."""
    found = {ch}
    for _ in range(2):
        for c in list(found):
            for variant in (c.lower(), c.upper(), c.casefold(), c.title()):
                if len(variant) == 1:
                    found.add(variant)
            get_all_cases, fold_flags = _case_variants()
            if get_all_cases is not None:
                found.update(chr(u) for u in get_all_cases(fold_flags, ord(c)))
    return found


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch.isascii() and ch.isalnum():
        return ch
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


@lru_cache(maxsize=4096)
def iu_class(ch: str) -> str:
    """`ch` as a `regex` pattern matching what `new RegExp(ch, 'iu')` matches (one character).

    Lone surrogates and characters without case variants are returned escaped as themselves.
    """
    if 0xD800 <= ord(ch) <= 0xDFFF:
        return _escape(ch)
    source = f"^\\u{{{ord(ch):x}}}$"
    return _class(sorted(c for c in _candidates(ch) if c == ch or js_regex_test(source, "iu", c)))


def _class(members: list[str]) -> str:
    if len(members) == 1:
        return _escape(members[0])
    return "[" + "".join(_escape(c) for c in members) + "]"


@lru_cache(maxsize=4096)
def iu_piece(ch: str) -> str:
    """`ch` for a pattern compiled with `regex.IGNORECASE`, matching as JavaScript's `iu` does.

    Most characters fold the same in both engines and stay plain (the `regex` module then
    searches the word as a literal, which is fast); the others get their JavaScript class
    with case-insensitivity turned off around it.
    """
    js = iu_class(ch)
    get_all_cases, fold_flags = _case_variants()
    if get_all_cases is not None and not 0xD800 <= ord(ch) <= 0xDFFF:
        own = {chr(u) for u in get_all_cases(fold_flags, ord(ch))} | {ch}
        if js == _class(sorted(own)):
            return _escape(ch)
    return f"(?-i:{js})"
