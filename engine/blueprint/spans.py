"""Plain values that remember where they were written: `Span`, `YMap`, `YList`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = [
    "DuplicateKey",
    "Span",
    "YList",
    "YMap",
    "span_of_item",
    "span_of_key",
    "span_of_value",
    "without_key",
]


class Span(NamedTuple):
    """A 1-based range in the source text: where a node starts and ends."""

    line: int
    column: int
    end_line: int
    end_column: int

    @staticmethod
    def of(node: Any) -> Span:
        """Return the span of a PyYAML node or event (its marks are 0-based)."""
        start, end = node.start_mark, node.end_mark
        return Span(start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    @staticmethod
    def point(line: int, column: int) -> Span:
        """Return a zero-width span at a 1-based line and column."""
        return Span(line, column, line, column)


class YMap(dict[str, Any]):
    """A mapping that remembers its own span and the spans of its keys and values."""

    __slots__ = ("key_spans", "span", "value_spans")

    def __init__(self) -> None:
        super().__init__()
        self.span: Span | None = None
        self.key_spans: dict[str, Span] = {}
        self.value_spans: dict[str, Span] = {}


class YList(list[Any]):
    """A sequence that remembers its own span and the span of each item."""

    __slots__ = ("item_spans", "span")

    def __init__(self) -> None:
        super().__init__()
        self.span: Span | None = None
        self.item_spans: list[Span] = []


def span_of_key(container: Any, key: str) -> Span | None:
    """Return where `key` is written in a `YMap`, or None for plain dicts."""
    return container.key_spans.get(key) if isinstance(container, YMap) else None


def span_of_value(container: Any, key: str) -> Span | None:
    """Return where the value of `key` is written in a `YMap`, or None."""
    return container.value_spans.get(key) if isinstance(container, YMap) else None


def span_of_item(container: Any, index: int) -> Span | None:
    """Return where item `index` is written in a `YList`, or None."""
    if isinstance(container, YList) and 0 <= index < len(container.item_spans):
        return container.item_spans[index]
    return None


def without_key(container: dict[str, Any], key: str) -> dict[str, Any]:
    """Return a copy of a mapping without `key`, keeping the spans of a `YMap`."""
    if not isinstance(container, YMap):
        return {k: v for k, v in container.items() if k != key}
    out = YMap()
    out.span = container.span
    for k, v in container.items():
        if k != key:
            out[k] = v
            if k in container.key_spans:
                out.key_spans[k] = container.key_spans[k]
                out.value_spans[k] = container.value_spans[k]
    return out


@dataclass(frozen=True, slots=True)
class DuplicateKey:
    """A key written twice in one mapping (js-yaml rejects this; PyYAML keeps the last)."""

    key: str
    first: Span
    second: Span
