"""Helpers for edit tests: which lines an edit touched, and a blueprint's normal form."""

from __future__ import annotations

import json
from typing import Any

from engine.blueprint import parse_blueprint
from engine.js.values import js_clean


def touched(old: str, new: str) -> tuple[set[int], set[int]]:
    """Old lines (1-based) between the common first and last lines, and where lines were added.

    Everything before the first differing line and after the last one is byte-identical; an
    insertion "at k" means new lines went just before old line k.
    """
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    removed = set(range(head + 1, len(a) - tail + 1))
    inserted = {head + 1} if not removed and len(b) > len(a) else set()
    return removed, inserted


def assert_only(old: str, new: str, first: int, last: int) -> None:
    """Every changed line of `old` is within `first..last` (insertions up to just after it)."""
    removed, inserted = touched(old, new)
    assert removed or inserted, "the edit changed nothing"
    assert all(first <= n <= last for n in removed), (sorted(removed), first, last)
    assert all(first <= n <= last + 1 for n in inserted), (sorted(inserted), first, last)


def normal(text: str) -> dict[str, Any]:
    """The blueprint as Weval normalizes it (plain JSON values)."""
    return json.loads(json.dumps(js_clean(parse_blueprint(text).to_weval())))


def text_point(text: str, multiplier: float = 1) -> dict[str, Any]:
    """A normalized judged point."""
    return {"text": text, "multiplier": multiplier}


def fn_point(fn: str, args: Any = None, multiplier: float = 1) -> dict[str, Any]:
    """A normalized function point (no `fnArgs` when `args` is None)."""
    out: dict[str, Any] = {"fn": fn, "multiplier": multiplier}
    if args is not None:
        out["fnArgs"] = args
    return out
