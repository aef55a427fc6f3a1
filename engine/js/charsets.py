r"""Sets of UTF-16 code units as sorted ranges, and JavaScript's `\d \w \s` sets."""

from __future__ import annotations

from typing import Final, TypeAlias

__all__ = ["DIGIT", "INF", "SPACE", "WORD", "Ranges", "complement", "normalize", "to_code_units"]

Ranges: TypeAlias = tuple[tuple[int, int], ...]
"""Sorted, disjoint, inclusive (low, high) code-unit ranges."""

INF: Final = 2**31 - 1
"""V8 clamps quantifier bounds to this value, which means "no upper bound"."""

DIGIT: Final[Ranges] = ((0x30, 0x39),)
WORD: Final[Ranges] = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
SPACE: Final[Ranges] = (
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
)


def to_code_units(text: str) -> str:
    """Return `text` with every astral character split into its UTF-16 surrogate pair."""
    if text.isascii() or max(text) <= "\uffff":
        return text
    out = []
    for ch in text:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            out.append(chr(0xD800 + (cp >> 10)))
            out.append(chr(0xDC00 + (cp & 0x3FF)))
        else:
            out.append(ch)
    return "".join(out)


def complement(ranges: Ranges) -> Ranges:
    """Return the code units 0..0xFFFF not in `ranges` (which must be sorted and disjoint)."""
    out: list[tuple[int, int]] = []
    start = 0
    for lo, hi in ranges:
        if lo > start:
            out.append((start, lo - 1))
        start = max(start, hi + 1)
    if start <= 0xFFFF:
        out.append((start, 0xFFFF))
    return tuple(out)


def normalize(ranges: list[tuple[int, int]]) -> Ranges:
    """Sort and merge overlapping or adjacent ranges."""
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if merged and lo <= merged[-1][1] + 1:
            if hi > merged[-1][1]:
                merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    return tuple(merged)
