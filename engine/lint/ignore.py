"""`# lint: ignore[CODE,...]` comments: the codes silenced on each line, and writing one."""

from __future__ import annotations

import re

from engine.lint.diagnostics import Diagnostic
from engine.lint.text import SourceText

__all__ = ["IGNORE_MARK", "ignore_comment", "silenced", "without_ignored"]

IGNORE_MARK = "lint: ignore"
_IGNORE = re.compile(r"(?:^|[ \t])#[ \t]*lint:[ \t]*ignore\[([^\]\r\n]*)\]", re.M)


def ignore_comment(*codes: str) -> str:
    """The comment that silences `codes` on its line, as written at a line's end."""
    return f"# {IGNORE_MARK}[{', '.join(codes)}]"


def silenced(src: SourceText) -> dict[int, frozenset[str]]:
    """The codes silenced on each 1-based line by a `# lint: ignore[...]` comment."""
    if "lint:" not in src.text:
        return {}
    out: dict[int, frozenset[str]] = {}
    for m in _IGNORE.finditer(src.text):
        line = src.position(m.start(1))[0]
        codes = frozenset(c.strip() for c in m.group(1).split(",") if c.strip())
        out[line] = out.get(line, frozenset()) | codes
    return out


def without_ignored(src: SourceText, found: list[Diagnostic]) -> list[Diagnostic]:
    """`found` without the diagnostics silenced on the line where their range starts."""
    ignored = silenced(src)
    if not ignored:
        return found
    return [d for d in found if d.code not in ignored.get(d.line, ())]
