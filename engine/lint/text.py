"""The source text seen by the linter: offsets, slices, and where a node really ends."""

from __future__ import annotations

from typing import Any

from engine.blueprint.source import Span, YList, YMap
from engine.lint.diagnostics import line_offsets

__all__ = ["SourceText"]


class SourceText:
    """The text being linted, with fast line/column <-> offset conversion."""

    __slots__ = ("_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        """The offset where each line starts (computed on first use)."""
        if self._starts is None:
            self._starts = line_offsets(self.text)
        return self._starts

    def offset(self, line: int, column: int) -> int:
        """Return the offset of a 1-based line and column (clamped to the text)."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        base = self.starts[line - 1]
        limit = self.starts[line] if line < len(self.starts) else len(self.text)
        return min(base + max(column - 1, 0), limit)

    def position(self, offset: int) -> tuple[int, int]:
        """Return the 1-based line and column of an offset."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1

    def line_text(self, line: int) -> str:
        """Return the text of a 1-based line, without its line break."""
        if not 1 <= line <= len(self.starts):
            return ""
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def slice(self, span: Span) -> str:
        """Return the text a span covers."""
        return self.text[
            self.offset(span.line, span.column) : self.offset(span.end_line, span.end_column)
        ]

    def char_at(self, line: int, column: int) -> str:
        """Return the character at a position, or '' past the end."""
        at = self.offset(line, column)
        return self.text[at] if at < len(self.text) else ""

    def is_flow(self, span: Span) -> bool:
        """True when the collection at `span` is written with `[` or `{`."""
        return self.char_at(span.line, span.column) in ("[", "{")

    def trim(self, span: Span) -> Span:
        """Move the end of a span back over trailing whitespace (never before its start)."""
        start = self.offset(span.line, span.column)
        end = self.offset(span.end_line, span.end_column)
        if end <= start or not self.text[end - 1].isspace():
            return span
        while end > start and self.text[end - 1].isspace():
            end -= 1
        line, column = self.position(end)
        return Span(span.line, span.column, line, column)

    def extent(self, value: Any, span: Span) -> Span:
        """Return the span of a node, ending at its last character (not at the next token).

        PyYAML ends block collections where the next token starts, after any comments;
        this ends them at the end of their last child instead.
        """
        if isinstance(value, YList | YMap) and value and not self.is_flow(span):
            child: tuple[Any, Span] | None = None
            if isinstance(value, YList) and value.item_spans:
                child = (value[-1], value.item_spans[-1])
            elif isinstance(value, YMap) and value.value_spans:
                last = max(value.value_spans, key=lambda k: value.value_spans[k][2:])
                child = (value.get(last), value.value_spans[last])
            if child is not None and child[1] >= span[:2]:
                end = self.extent(child[0], child[1])
                return Span(span.line, span.column, end.end_line, end.end_column)
        return self.trim(span)

    def through(self, start: Span, end: Span) -> Span:
        """Return the span from the start of `start` to the end of `end`."""
        return Span(start.line, start.column, end.end_line, end.end_column)
