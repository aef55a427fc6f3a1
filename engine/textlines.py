"""Text cut to one line for a label: the first line, whitespace collapsed, shortened."""

from __future__ import annotations

__all__ = ["one_line"]


def one_line(text: str | None, limit: int = 80) -> str:
    """Return the first line of `text`, whitespace collapsed, cut to `limit` characters."""
    if not text:
        return ""
    line = " ".join(text.strip().split("\n", 1)[0].split())
    if len(line) > limit:
        return line[: max(1, limit - 1)].rstrip() + "…"
    if "\n" in text.strip():
        return line + " …"
    return line
