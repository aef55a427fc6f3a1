"""Short excerpts of user text for messages: a message never quotes more than a few words."""

from __future__ import annotations

import re
from itertools import chain
from typing import Any

from engine.js.values import js_string

__all__ = [
    "EXCERPT_CHARS",
    "LINE_BREAK",
    "bounded_message",
    "excerpt",
    "line_column",
    "mask_unicode_breaks",
    "short",
    "unmask_message",
]

EXCERPT_CHARS = 40


def excerpt(text: str, limit: int = EXCERPT_CHARS, *, quote: bool = True) -> str:
    """Return `text` cut to its first `limit` characters, on one line, for a message.

    Only the start of `text` is read, so a multi-megabyte value costs nothing. Line breaks
    and control characters become spaces or `uXXXX` escapes, so the excerpt cannot
    break the one-line `FILE:LINE:COL: message` format.

    Args:
        text: The user's text.
        limit: The most characters kept; a cut excerpt ends with `…`.
        quote: Wrap the excerpt in double quotes (as a JSON string would be).

    Returns:
        The excerpt, e.g. `"a very long val…"`.
    """
    head = text[: limit + 1]
    cut = len(head) > limit
    head = head[:limit] if cut else head
    shown = "".join(
        " " if ch in "\n\r\t\x85\u2028\u2029" else ch if ch.isprintable() else f"\\u{ord(ch):04x}"
        for ch in head
    )
    if cut:
        shown = shown.rstrip() + "…"
    return f'"{shown}"' if quote else shown


LINE_BREAK = re.compile(r"\r\n|[\r\n]")
"""A line break as js-yaml (YAML 1.2) counts them: LF, CR or CR LF, never U+0085/U+2028/U+2029."""

_UNICODE_BREAKS = "\x85\u2028\u2029"


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset.

    Lines end at LF, CR (CR LF counts once), as js-yaml and text editors count them;
    U+0085, U+2028 and U+2029 are ordinary characters (YAML 1.2).
    """
    head = text[:offset]
    line = 1 + head.count("\n") + head.count("\r") - head.count("\r\n")
    start = max(head.rfind("\n"), head.rfind("\r")) + 1
    return line, offset - start + 1


def mask_unicode_breaks(text: str) -> tuple[str, dict[int, str] | None]:
    r"""Hide U+0085, U+2028 and U+2029 from libyaml, which takes them for line breaks (YAML 1.1).

    js-yaml (YAML 1.2) reads them as ordinary characters of a text. Each one present becomes
    a private-use character that neither appears in `text` nor is written there as an escape
    (`\uE000` in quotes), so libyaml reads it as js-yaml reads the original; offsets, lines
    and columns are unchanged, as each character is replaced by one character.

    Returns:
        The masked text, and the translation table that gives the original characters back
        (None when `text` holds none of them, or uses every private-use character: the text
        is then returned as is).
    """
    present = [ch for ch in _UNICODE_BREAKS if ch in text]
    if not present:
        return text, None
    lowered = text.lower()
    free = (
        chr(code)
        for code in chain(range(0xE000, 0xF900), range(0xF0000, 0xFFFFE))
        if chr(code) not in text and f"{code:04x}" not in lowered
    )
    masks = {ch: next(free, "") for ch in present}
    if "" in masks.values():  # a text made of private-use characters: read it as libyaml does
        return text, None
    masked = text.translate({ord(ch): mask for ch, mask in masks.items()})
    return masked, {ord(mask): ch for ch, mask in masks.items()}


def unmask_message(message: str, restore: dict[int, str]) -> str:
    """A message written about a masked text, as it reads about the original.

    A masked character quoted in it (as `excerpt` writes it, or as is) becomes a space, as
    `excerpt` shows the original line breaks.
    """
    for code in restore:
        message = message.replace(f"\\u{code:04x}", " ").replace(chr(code), " ")
    return message


def short(value: Any) -> str:
    """`String(value)` as JavaScript writes it, cut to a short excerpt for a message."""
    return excerpt(js_string(value), quote=False)


MESSAGE_CHARS = 600


def bounded_message(message: str) -> str:
    """Cut a message longer than `MESSAGE_CHARS` in its middle, keeping its start and advice."""
    if len(message) <= MESSAGE_CHARS:
        return message
    return message[: MESSAGE_CHARS // 2].rstrip() + " … " + message[-MESSAGE_CHARS // 3 :].lstrip()
