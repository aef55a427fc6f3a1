"""The files `docker build` sends as its context, by Docker's own `.dockerignore` rules.

A port of moby/patternmatcher (what the Docker CLI and BuildKit use), for tests that must know
what an image could contain without running Docker:

- each line is trimmed; empty lines and lines starting with `#` are skipped; a leading `!`
  makes an exception (the path is sent after all);
- a pattern is cleaned like Go's `filepath.Clean` and a leading `/` is dropped: patterns
  are relative to the context's root (`secrets.toml` is the root's file only);
- `*` matches any characters but `/`, `?` one character but `/`, `[...]` a class, `\\` escapes,
  `**` any number of folders (none too); a pattern ending in `**` matches everything below;
- a path is excluded when the last pattern matching it, or matching one of its parent
  folders, is not an exception.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Pattern", "build_context", "excluded", "read_patterns"]

_ESCAPE = set(".+()|{}$")


@dataclass(frozen=True)
class Pattern:
    """One line of a `.dockerignore`: its regular expression and whether it is an exception."""

    text: str
    regex: re.Pattern[str]
    exception: bool


def _compile(pattern: str) -> re.Pattern[str]:
    """Docker's translation of a cleaned pattern into an anchored regular expression."""
    out = "^"
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        i += 1
        if ch == "*":
            if i < len(pattern) and pattern[i] == "*":
                i += 1
                if i < len(pattern) and pattern[i] == "/":
                    i += 1  # `**/` is `**`
                out += ".*" if i == len(pattern) else "(.*/)?"
            else:
                out += "[^/]*"
        elif ch == "?":
            out += "[^/]"
        elif ch in _ESCAPE:
            out += "\\" + ch
        elif ch == "\\":
            if i < len(pattern):
                out += "\\" + pattern[i]
                i += 1
            else:
                out += "\\\\"
        else:
            out += ch  # letters, `/`, and the brackets of a class
    return re.compile(out + "$")


def read_patterns(text: str) -> list[Pattern]:
    """The patterns of a `.dockerignore` file, in order."""
    patterns = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        exception = line.startswith("!")
        if exception:
            line = line[1:].strip()
        if not line:
            continue
        cleaned = posixpath.normpath(line)
        if len(cleaned) > 1 and cleaned.startswith("/"):
            cleaned = cleaned.lstrip("/")
        patterns.append(Pattern(line, _compile(cleaned), exception))
    return patterns


def excluded(path: str, patterns: list[Pattern]) -> bool:
    """Whether `path` (relative, `/`-separated) is left out of the context.

    As `MatchesOrParentMatches`: a pattern matching a parent folder matches the path; the
    last pattern that matches decides.
    """
    parts = path.split("/")
    parents = ["/".join(parts[: n + 1]) for n in range(len(parts) - 1)]
    out = False
    for pattern in patterns:
        if pattern.exception != out:  # cannot change the verdict
            continue
        if pattern.regex.match(path) or any(pattern.regex.match(p) for p in parents):
            out = not pattern.exception
    return out


def build_context(root: Path) -> list[str]:
    """Every file under `root` that `docker build root` would send (sorted, `/`-separated)."""
    ignore = root / ".dockerignore"
    patterns = read_patterns(ignore.read_text()) if ignore.is_file() else []
    sent = []
    for path in sorted(root.rglob("*")):
        if path.is_file() or path.is_symlink():
            relative = path.relative_to(root).as_posix()
            if not excluded(relative, patterns):
                sent.append(relative)
    return sent
