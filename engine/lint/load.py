"""Load the documents to lint, reporting syntax errors and duplicate keys without giving up.

After a YAML syntax error the top-level block that holds it (a prompt, a header key) is
blanked out, keeping every line in place, and the rest is loaded again, so the problems in
the other prompts are still reported at their own positions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml._yaml import CParser
from yaml.events import CollectionEndEvent, CollectionStartEvent, StreamEndEvent

from engine.blueprint.compose import MAX_DEPTH, UNDEFINED_ALIAS
from engine.blueprint.source import (
    DuplicateKey,
    Span,
    json_value,
    load_json_documents,
    load_yaml_documents,
)
from engine.blueprint.text import mask_unicode_breaks
from engine.errors import BlueprintError
from engine.lint.text import SourceText

__all__ = ["Loaded", "load_documents"]

_MAX_RECOVERIES = 20
_UNIT_START = re.compile(r"[^\s#]")
_ANCHOR = re.compile(r"&([^\s,\[\]{}]+)")
_ALIAS = re.compile(r"\*([^\s,\[\]{}]+)")


@dataclass
class SyntaxProblem:
    """A syntax error: where, and the plain-words message."""

    span: Span
    message: str


@dataclass
class Loaded:
    """The documents that could be read, and the problems met while reading them."""

    docs: list[tuple[Any, Span]] = field(default_factory=list)
    syntax: list[SyntaxProblem] = field(default_factory=list)
    duplicates: list[DuplicateKey] = field(default_factory=list)
    blanked: list[tuple[int, int]] = field(default_factory=list)
    """1-based first and last line of each block blanked out after a syntax error."""


def _word_span(src: SourceText, line: int, column: int) -> Span:
    """A span from (line, column) to the end of the text on that line (at least one character)."""
    text = src.line_text(line)
    end = len(text.rstrip()) + 1
    if end <= column:
        end = column + 1 if column <= len(text) else column
    return Span(line, column, line, end)


def _context_mark(text: str) -> tuple[bool, int, int] | None:
    """PyYAML's context mark (where the unclosed thing starts), 1-based, when it is earlier.

    Returns (is_unclosed_quote, line, column), or None.
    """
    try:
        parser = CParser(mask_unicode_breaks(text)[0])  # lines as the loader counts them
    except UnicodeEncodeError:  # a lone surrogate, reported by the loader
        return None
    depth = 0
    try:  # events only (composing recurses in C), and only as deep as a blueprint may nest
        while True:
            event = parser.get_event()
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return None
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
            elif isinstance(event, StreamEndEvent):
                return None
    except yaml.MarkedYAMLError as exc:
        context, problem = exc.context_mark, exc.problem_mark
        if context is not None and problem is not None and context.line < problem.line:
            quote = "quoted scalar" in (exc.context or "")
            return quote, context.line + 1, context.column + 1
    except Exception:  # anything else: no better position than the loader's
        return None
    finally:
        parser.dispose()
    return None


def _unit_bounds(lines: list[str], first: int, last: int) -> tuple[int, int]:
    """0-based [start, end) of the top-level blocks that hold lines `first`..`last` (0-based)."""
    first = min(max(first, 0), len(lines) - 1)
    last = min(max(last, first), len(lines) - 1)
    start = first
    while start > 0 and not _UNIT_START.match(lines[start]):
        start -= 1
    kind = lines[start][:1] == "-" and not lines[start].startswith("---")
    end = last + 1
    while end < len(lines):
        line = lines[end]
        if line.startswith(("---", "...")):
            break
        if _UNIT_START.match(line) and (line[:1] == "-") == kind:
            break
        end += 1
    return start, end


def _blank(text: str, src: SourceText, start: int, end: int) -> str:
    """Empty lines start..end-1 (0-based), keeping their line breaks."""
    out: list[str] = []
    for index in range(len(src.starts)):
        begin = src.starts[index]
        stop = src.starts[index + 1] if index + 1 < len(src.starts) else len(text)
        chunk = text[begin:stop]
        if start <= index < end:
            body = chunk.rstrip("\r\n")
            chunk = chunk[len(body) :]
        out.append(chunk)
    return "".join(out)


def _cascade(exc: BlueprintError, src: SourceText, gone: set[str]) -> bool:
    """Whether `exc` is an alias to an anchor that an earlier recovery blanked out.

    Such an error follows from the first one (the anchor's lines were set aside to read on),
    so saying it would send the author after a mistake that is not there.
    """
    if not gone or exc.message != UNDEFINED_ALIAS or not exc.line:
        return False
    found = _ALIAS.match(src.line_text(exc.line), max(0, (exc.column or 1) - 1))
    return found is not None and found.group(1) in gone


def _load_yaml(src: SourceText) -> Loaded:
    result = Loaded()
    text = src.text
    gone: set[str] = set()  # anchors defined on lines a recovery blanked
    for _ in range(_MAX_RECOVERIES):
        duplicates: list[DuplicateKey] = []
        try:
            result.docs = load_yaml_documents(text, duplicates=duplicates)
            result.duplicates = duplicates
            return result
        except BlueprintError as exc:
            line, column = exc.line or 1, exc.column or 1
            first = line
            context = _context_mark(text)
            if context is not None:
                first = context[1]
                if context[0]:  # an unclosed quote: point at the opening quote
                    line, column = context[1], context[2]
            if not _cascade(exc, src, gone):
                result.syntax.append(SyntaxProblem(_word_span(src, line, column), exc.message))
        except Exception:  # RecursionError, encoding errors: unreadable, but never a crash
            result.syntax.append(
                SyntaxProblem(
                    _word_span(src, 1, 1),
                    "This text cannot be read as YAML (it is nested too deeply or holds "
                    "characters that are not text). Check that this is a blueprint file.",
                )
            )
            return result
        lines = SourceText(text)
        all_lines = [lines.line_text(n) for n in range(1, len(lines.starts) + 1)]
        start, end = _unit_bounds(all_lines, first - 1, line - 1)
        for index in range(start, end):
            gone.update(_ANCHOR.findall(all_lines[index]))
        blanked = _blank(text, lines, start, end)
        if blanked == text:
            return result
        result.blanked.append((start + 1, end))
        text = blanked
    return result


def _load_json(src: SourceText) -> Loaded:
    result = Loaded()
    try:
        value = json_value(src.text)
    except BlueprintError as exc:
        span = _word_span(src, exc.line or 1, exc.column or 1)
        result.syntax.append(SyntaxProblem(span, exc.message))
        return result
    try:
        duplicates: list[DuplicateKey] = []
        located = load_yaml_documents(src.text, duplicates=duplicates)
        if len(located) == 1 and located[0][0] == value:
            result.docs = located
            result.duplicates = duplicates
            return result
    except BlueprintError:  # positions are a bonus for JSON; fall back to the plain value
        pass
    if value is not None:
        try:
            result.docs = load_json_documents(src.text)
        except BlueprintError as exc:  # nested too deeply
            span = _word_span(src, exc.line or 1, exc.column or 1)
            result.syntax.append(SyntaxProblem(span, exc.message))
    return result


def load_documents(src: SourceText, fmt: str) -> Loaded:
    """Load YAML (or JSON) documents, collecting syntax errors and duplicate keys."""
    return _load_json(src) if fmt == "json" else _load_yaml(src)
