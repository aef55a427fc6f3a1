"""Short excerpts of user text for messages: a message never quotes more than a few words."""

from __future__ import annotations

from typing import Any

from engine.jsvalues import js_string

__all__ = ["EXCERPT_CHARS", "bounded_message", "excerpt", "line_column", "short"]

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


_BREAKS = ("\n", "\x85", "\u2028", "\u2029")


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset, counted as libyaml counts them.

    Lines end at LF, CR (CR LF counts once), U+0085, U+2028 and U+2029.
    """
    head = text[:offset]
    crlf = head.count("\r\n")
    line = 1 + sum(head.count(ch) for ch in _BREAKS) + head.count("\r") - crlf
    start = max(head.rfind(ch) for ch in (*_BREAKS, "\r")) + 1
    return line, offset - start + 1


def short(value: Any) -> str:
    """`String(value)` as JavaScript writes it, cut to a short excerpt for a message."""
    return excerpt(js_string(value), quote=False)


MESSAGE_CHARS = 600


def bounded_message(message: str) -> str:
    """Cut a message longer than `MESSAGE_CHARS` in its middle, keeping its start and advice."""
    if len(message) <= MESSAGE_CHARS:
        return message
    return message[: MESSAGE_CHARS // 2].rstrip() + " … " + message[-MESSAGE_CHARS // 3 :].lstrip()
