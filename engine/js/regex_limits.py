"""Limits that keep compiling a blueprint pattern bounded in time and memory, and their messages.

The `regex` module expands a counted repeat into one node per required repetition (`a{10000000}`
takes gigabytes and seconds to compile), and compiling long patterns costs about 5 µs per
character. JavaScript engines never expand repeats, so such patterns are valid in Weval. A
pattern is translated onto `regex` only when it is short, shallow and cheap to expand
(`expansion_cost`); any other pattern runs in QuickJS, whose compiler uses counters and whose
heap (64 MB) and clock (100 ms) are limited. What QuickJS cannot run within those limits is an
error with `limit_message`, which lint reports at the pattern and scoring records as `errored`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

from engine.js.charsets import INF
from engine.js.engine import MEMORY_LIMIT, TIME_LIMIT_S
from engine.js.regex_parse import Node

__all__ = [
    "MAX_CACHED_COST",
    "MAX_REPEATED_CAPTURE_COST",
    "MAX_TRANSLATED_COST",
    "MAX_TRANSLATED_LENGTH",
    "MAX_TRANSLATED_NESTING",
    "MAX_TRANSLATED_SOURCE",
    "WeightedCache",
    "excerpt",
    "expansion_cost",
    "is_limit_message",
    "limit_message",
    "min_length",
    "regex_module",
    "repeated_capture_cost",
]

MAX_TRANSLATED_LENGTH: Final = 2_000
"""Longest pattern (in UTF-16 code units) translated onto `regex`; longer ones run in QuickJS."""

MAX_TRANSLATED_NESTING: Final = 32
"""Deepest group nesting translated onto `regex` (the translator recurses once per level)."""

MAX_TRANSLATED_COST: Final = 20_000
"""Most nodes `regex` may expand a pattern into (about 250 bytes and 0.3 µs each)."""

MAX_TRANSLATED_SOURCE: Final = 16_000
"""Longest translated `regex` source (case classes written out); compiling costs ~5 µs a char."""

MAX_REPEATED_CAPTURE_COST: Final = 25_000_000
"""Most `count² × captures` of one counted repeat of a capturing group QuickJS is given.

QuickJS resets a repeated group's captures on each required repetition in time that grows with
the repetitions made so far, and checks its clock only when it backtracks: measured,
`(((…(\\1)…))){10000}` (40 groups) ran 7.7 s past its 100 ms limit; 25,000,000 takes ~55 ms.
"""

MAX_CACHED_COST: Final = 400_000
"""Most expansion nodes the compiled-pattern cache holds at once (about 100 MB)."""

_EXCERPT: Final = 40
_LIMIT_START: Final = "The pattern "
_LIMIT_END: Final = "simplify the pattern"


def excerpt(text: str, size: int = _EXCERPT) -> str:
    """The start of `text`, cut to `size` characters with `…` when it is longer."""
    return text if len(text) <= size else text[: size - 1] + "…"


def limit_message(pattern: str, flags: str) -> str:
    """The plain message for a pattern QuickJS cannot compile within its limits."""
    mb = MEMORY_LIMIT >> 20
    ms = round(TIME_LIMIT_S * 1000)
    return (
        f"{_LIMIT_START}/{excerpt(pattern)}/{flags} is too large or too deeply nested to run "
        f"within the limits ({mb} MB, {ms} ms); {_LIMIT_END}"
    )


def is_limit_message(message: str) -> bool:
    """Whether `message` comes from `limit_message` (the pattern is valid but too big)."""
    return message.startswith(_LIMIT_START) and message.endswith(_LIMIT_END)


def expansion_cost(node: Node, budget: int = MAX_TRANSLATED_COST) -> int:
    """Estimate how many nodes the `regex` module builds for a pattern tree.

    A repeat `x{m,n}` costs `max(m, 1)` times `x` (measured: `regex` expands the required
    repetitions and loops over the optional ones). The sum stops growing once it passes
    `budget`, so the result stays a small integer whatever the counts.
    """
    tag = node[0]
    if tag == "set":
        return 1 + len(node[1]) // 4  # type: ignore[arg-type]
    if tag in ("seq", "alt"):
        total = 1
        for item in node[1]:  # type: ignore[attr-defined]
            total += expansion_cost(item, budget)
            if total > budget:
                return total
        return total
    if tag == "group":
        return 1 + expansion_cost(node[1], budget)  # type: ignore[arg-type]
    if tag == "look":
        return 1 + expansion_cost(node[3], budget)  # type: ignore[arg-type]
    if tag == "quant":
        low: int = min(int(node[2]), INF)  # type: ignore[call-overload]
        inner = expansion_cost(node[1], budget)  # type: ignore[arg-type]
        return 1 + min(max(low, 1) * inner, budget + 1)
    return 1


def _count(pattern: str, i: int) -> tuple[int, int] | None:
    """The required count of a `{m}`, `{m,}` or `{m,n}` quantifier at `i`, and where it ends."""
    j = i + 1
    while j < len(pattern) and pattern[j].isdigit():
        j += 1
    if j == i + 1:
        return None
    low = int(pattern[i + 1 : j]) if j - i <= 13 else 10**12  # more digits count as 10**12
    if j < len(pattern) and pattern[j] == ",":
        j += 1
        while j < len(pattern) and pattern[j].isdigit():
            j += 1
    return (low, j + 1) if j < len(pattern) and pattern[j] == "}" else None


def repeated_capture_cost(pattern: str) -> int:
    """The largest `count² × captures` over the counted repeats of groups in `pattern`.

    One pass over the text, whatever its nesting (escapes and classes skipped, `(?<name>`
    counted as a capture, lookarounds and `(?:` not). Repeats of groups that capture nothing,
    and `*`, `+`, `?` (a required count of at most 1), cost nothing here.
    """
    opened: list[tuple[int, int]] = []  # (position, captures opened before it)
    captures = 0
    worst = 0
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i += 1
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
        elif c == "(":
            opened.append((i, captures))
            rest = pattern[i + 1 : i + 4]
            if not rest.startswith("?") or (rest[1:2] == "<" and rest[2:3] not in ("=", "!")):
                captures += 1
        elif c == ")" and opened:
            _, before = opened.pop()
            inside = captures - before
            if inside and i + 1 < n and pattern[i + 1] == "{":
                found = _count(pattern, i + 1)
                if found is not None:
                    worst = max(worst, found[0] * found[0] * inside)
                    i = found[1]
                    continue
        i += 1
    return worst


def min_length(node: Node) -> int:
    """The fewest UTF-16 code units any match of a pattern tree consumes.

    Assertions, lookarounds and back-references may match nothing, so they count 0; every
    character, class or `.` consumes at least one code unit. A text shorter than this cannot
    match, whatever the engine: `((a{100}){100}){100}` against 3,000 characters is `false`
    without running it (QuickJS would spend ~80 ms proving it, close to its 100 ms clock).
    The result is capped at `INF`.
    """
    tag = node[0]
    if tag in ("char", "set", "dot"):
        return 1
    if tag in ("seq", "alt"):
        items: tuple[Node, ...] = node[1]  # type: ignore[assignment]
        lengths = [min_length(item) for item in items]
        return min(sum(lengths), INF) if tag == "seq" else min(lengths, default=0)
    if tag == "group":
        return min_length(node[1])  # type: ignore[arg-type]
    if tag == "quant":
        low: int = min(int(node[2]), INF)  # type: ignore[call-overload]
        return min(low * min_length(node[1]), INF) if low else 0  # type: ignore[arg-type]
    return 0  # bol, eol, wordb, look, backref


K = TypeVar("K")
V = TypeVar("V")


class WeightedCache(Generic[K, V]):
    """A thread-safe LRU cache bounded both in entries and in the total weight of its values.

    `functools.lru_cache` counts entries only: 4,096 compiled patterns of 20,000 nodes each
    would hold gigabytes. Here the least recently used entries go once either bound is passed.
    """

    def __init__(self, max_items: int, max_weight: int) -> None:
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._weight = 0
        self._max_items = max_items
        self._max_weight = max_weight
        self._lock = threading.Lock()

    def get_or_build(self, key: K, build: Callable[[], tuple[V, int]]) -> V:
        """Return the cached value for `key`, or build `(value, weight)`, keep it and return it."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit[0]
        value, weight = build()
        with self._lock:
            if key not in self._items:
                self._items[key] = (value, weight)
                self._weight += weight
            while self._items and (
                len(self._items) > self._max_items or self._weight > self._max_weight
            ):
                _, (_, dropped) = self._items.popitem(last=False)
                self._weight -= dropped
        return value

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._items.clear()
            self._weight = 0


def regex_module() -> Any:
    """The `regex` module, imported on first use.

    It is imported only where a pattern is compiled: `blueprint lint` of a file without
    patterns and a run of plain checks never load it.
    """
    import regex

    return regex
