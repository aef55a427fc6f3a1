"""How a pattern is run for `RegExp.test`: its time limit by the text's length, and no captures.

Two things made a JavaScript-valid pattern time out on a long answer although Node matches it
at once (`(a{1000}){1000}` on 3 MB): QuickJS saves and resets a repeated group's captures on
every repetition, and a flat 100 ms is less than an interpreter needs to scan megabytes. So a
pattern without backreferences runs in QuickJS with its groups made non-capturing (captures
never change whether a pattern matches), and the limit grows with the text: 100 ms, plus
200 ms per million UTF-16 code units. Catastrophic backtracking on a short answer still stops
at 100 ms.
"""

from __future__ import annotations

from typing import Final

from engine.js.engine import TIME_LIMIT_S

__all__ = ["PER_MILLION_UNITS_S", "match_time_limit", "without_captures"]

PER_MILLION_UNITS_S: Final = 0.2
"""Time added to the limit of one match per million UTF-16 code units of text."""


def match_time_limit(units: int) -> float:
    """The time one `test` of a text of `units` code units may take, in seconds."""
    return TIME_LIMIT_S + PER_MILLION_UNITS_S * units / 1_000_000


def without_captures(pattern: str) -> str:
    """`pattern` (valid, without `v` flag, without backreferences) with non-capturing groups.

    `(x)` and `(?<name>x)` become `(?:x)`; escapes, character classes and the other `(?`
    groups (lookarounds, `(?:`) are kept as written.
    """
    out: list[str] = []
    i, n, in_class = 0, len(pattern), False
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(" and not pattern.startswith("?", i + 1):
            out.append("(?:")
            i += 1
            continue
        elif c == "(" and pattern.startswith("(?<", i) and pattern[i + 3 : i + 4] not in "=!":
            out.append("(?:")
            i = pattern.index(">", i) + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)
