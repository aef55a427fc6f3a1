"""A blueprint's `title:` read from its text without a full parse, for text that does not parse."""

from __future__ import annotations

import json
import re

__all__ = ["title_of"]

_TITLE = re.compile(
    r'^(?:(?:title|configTitle)|[ \t{]*"(?:title|configTitle)")[ \t]*:[ \t]*(.*)$', re.MULTILINE
)
_MAX_CHARS = 200
_ESCAPES = {"\\n": " ", "\\t": " ", '\\"': '"', "\\\\": "\\"}


def _unquote(value: str) -> str | None:
    """The text of a one-line YAML or JSON scalar, or None if it is not a plain one-line text."""
    if value[:1] == '"':
        end = re.match(r'"((?:[^"\\]|\\.)*)"', value)
        if end is None:
            return None
        try:
            return str(json.loads(f'"{end.group(1)}"'))
        except ValueError:
            return re.sub(r"\\.", lambda m: _ESCAPES.get(m.group(0), m.group(0)[1:]), end.group(1))
    if value[:1] == "'":
        end = re.match(r"'((?:[^']|'')*)'", value)
        return end.group(1).replace("''", "'") if end else None
    if not value or value[0] in "|>[{&*!%@`#":
        return None
    return re.sub(r"\s+#.*$", "", value).strip() or None


def title_of(text: str) -> str | None:
    """The value of the first top-level `title:` line, read from the text alone.

    Used where the text may not parse (the editor's heading while a syntax error remains).
    Only a one-line value is read (plain, quoted, or a JSON string); anything else gives None.

    Args:
        text: The blueprint's text.

    Returns:
        The title, at most 200 characters on one line, or None.
    """
    match = _TITLE.search(text)
    if match is None:
        return None
    value = _unquote(match.group(1).strip().rstrip(",").strip()[: _MAX_CHARS * 4])
    if value is None:
        return None
    return " ".join(value.split())[:_MAX_CHARS] or None
