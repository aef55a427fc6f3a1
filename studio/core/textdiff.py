"""Line differences between two texts (two versions of a blueprint), as plain text."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

__all__ = ["MAX_DIFF_LINES", "LineDiff", "line_diff"]

MAX_DIFF_LINES = 20_000
"""Texts with more lines than this are not compared line by line (it would take too long)."""


@dataclass(frozen=True)
class LineDiff:
    """The difference between two texts.

    Attributes:
        text: A unified diff (`-` removed, `+` added lines, with context), or "" when the
            texts are the same or too long to compare.
        added: Lines added.
        removed: Lines removed.
        too_long: True when a text has more than `MAX_DIFF_LINES` lines.
    """

    text: str
    added: int
    removed: int
    too_long: bool = False

    @property
    def same(self) -> bool:
        """True when the texts have the same lines."""
        return not self.too_long and not self.added and not self.removed


def line_diff(old: str, new: str, old_name: str, new_name: str, context: int = 3) -> LineDiff:
    """The lines that differ from `old` to `new`, with `context` lines around each change."""
    before, after = old.splitlines(), new.splitlines()
    if max(len(before), len(after)) > MAX_DIFF_LINES:
        return LineDiff("", 0, 0, too_long=True)
    lines = list(difflib.unified_diff(before, after, old_name, new_name, n=context, lineterm=""))
    added = sum(1 for line in lines[2:] if line.startswith("+"))
    removed = sum(1 for line in lines[2:] if line.startswith("-"))
    return LineDiff("\n".join(lines), added, removed)
