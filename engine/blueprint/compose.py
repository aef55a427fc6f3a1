"""YAML events to `YMap`/`YList`/scalars, bounded: no recursion, limited nesting and alias expansion.

libyaml's parser turns the text into a flat stream of events; this module builds the values
from that stream with an explicit stack, so a file nested a million levels deep is refused at
the level that goes too deep instead of overflowing the C stack. Each alias (`*name`) adds
the size of the value it repeats to a running count; a "billion laughs" file is refused at
the alias that passes the limit, before anything is expanded (aliases share their value).
"""

from __future__ import annotations

import base64
from typing import Any

from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from engine.blueprint.scalars import (
    FALSE,
    TRUE,
    is_yaml_float,
    is_yaml_int,
    js_float,
    js_int,
    resolve_plain,
    timestamp_json,
)
from engine.blueprint.spans import DuplicateKey, Span, YList, YMap
from engine.blueprint.text import excerpt
from engine.errors import BlueprintError
from engine.js.values import js_string

__all__ = [
    "MAX_ALIAS_ITEMS",
    "MAX_DEPTH",
    "TEXT_PER_ITEM",
    "UNDEFINED_ALIAS",
    "Composer",
    "construct_scalar",
    "too_deep",
]

MAX_ALIAS_ITEMS = 1_000_000
"""How many items all the aliases of one file may expand to, together."""
TEXT_PER_ITEM = 64
"""Characters of text counted as one item (so a repeated long text counts for its length)."""
MAX_DEPTH = 500
"""How deeply lists and mappings may be nested (js-yaml gives up between 1,000 and 3,000)."""

UNDEFINED_ALIAS = "This `*name` refers to an anchor `&name` that is not defined above it."
"""The message for an alias whose anchor is not (yet) defined."""

_T = "tag:yaml.org,2002:"
_BUILDING = object()  # an anchor whose value is still being built


def too_deep(line: int, column: int) -> BlueprintError:
    """The error for lists and mappings nested more than `MAX_DEPTH` levels, at a position."""
    return BlueprintError(
        f"Lists and mappings are nested more than {MAX_DEPTH} levels deep here. A blueprint "
        "never needs this much nesting: check the brackets and the indentation.",
        line=line,
        column=column,
    )


def _error(event: Any, message: str) -> BlueprintError:
    mark = event.start_mark
    return BlueprintError(message, line=mark.line + 1, column=mark.column + 1)


def construct_scalar(event: Any) -> Any:
    """Return the value of a scalar event as js-yaml's default schema constructs it.

    Raises:
        BlueprintError: An explicit tag (`!!int`, `!!binary`...) does not fit its text.
    """
    tag, text = event.tag, event.value
    if tag is None or tag == "!":
        return resolve_plain(text) if event.implicit[0] else text
    if tag == _T + "str":
        return text
    shown = excerpt(text)
    if tag == _T + "int":
        if is_yaml_int(text):
            return js_int(text)
        raise _error(event, f"`!!int` needs a whole number, not {shown}.")
    if tag == _T + "float":
        if is_yaml_float(text):
            return js_float(text)
        raise _error(event, f"`!!float` needs a number, not {shown}.")
    if tag == _T + "bool":
        if text in TRUE or text in FALSE:
            return text in TRUE
        raise _error(event, f"`!!bool` needs true or false, not {shown}.")
    if tag == _T + "null":
        return None
    if tag == _T + "timestamp":
        stamp = timestamp_json(text)
        if stamp is None:
            raise _error(event, f"`!!timestamp` needs a date like 2024-01-31, not {shown}.")
        return stamp
    if tag == _T + "binary":
        try:
            return base64.b64decode("".join(text.split())).decode("latin-1")
        except ValueError:
            raise _error(event, "`!!binary` needs base64 text.") from None
    raise _error(
        event,
        f"Unknown YAML tag `{excerpt(tag, quote=False)}`. Blueprints use plain YAML: remove "
        "the tag or put the value in quotes.",
    )


class _Frame:
    """A list or mapping being built: its value, where it starts, and its expanded size."""

    __slots__ = ("anchor", "key", "key_span", "merges", "size", "start", "value")

    def __init__(self, value: YMap | YList, start: Any, anchor: str | None) -> None:
        self.value = value
        self.start = start
        self.anchor = anchor
        self.size = 1
        self.key: str | None = None
        self.key_span: Span | None = None
        self.merges: list[tuple[Any, Span]] | None = None


_MERGE = "<<"


class Composer:
    """Builds the documents of one YAML stream from libyaml's events."""

    def __init__(
        self, duplicates: list[DuplicateKey] | None, restore: dict[int, str] | None = None
    ) -> None:
        self.duplicates = duplicates
        self.restore = restore  # characters `mask_unicode_breaks` hid, given back to texts
        self.anchors: dict[str, Any] = {}
        self.expanded = 0

    def documents(self, get_event: Any) -> list[tuple[Any, Span]]:
        """Consume events from `get_event()` to the end of the stream; return each document."""
        docs: list[tuple[Any, Span]] = []
        stack: list[_Frame] = []
        root: tuple[Any, Span] | None = None
        while True:
            event: Any = get_event()
            kind = type(event)
            if kind is ScalarEvent:
                value = construct_scalar(event)
                if self.restore is not None and isinstance(value, str):
                    value = value.translate(self.restore)
                span = Span.of(event)
                size = 1 + len(event.value) // TEXT_PER_ITEM
                if event.anchor is not None:
                    self.anchors[event.anchor] = (value, span, size)
                is_merge = event.value == _MERGE and event.tag is None and event.implicit[0]
                root = self._attach(stack, value, span, size, is_merge) or root
            elif kind is AliasEvent:
                value, span, size = self._alias(event)
                root = self._attach(stack, value, span, size, False) or root
            elif kind is SequenceStartEvent or kind is MappingStartEvent:
                if len(stack) >= MAX_DEPTH:
                    mark = event.start_mark
                    raise too_deep(mark.line + 1, mark.column + 1)
                container: YMap | YList = YList() if kind is SequenceStartEvent else YMap()
                if event.anchor is not None:
                    self.anchors[event.anchor] = _BUILDING
                stack.append(_Frame(container, event, event.anchor))
            elif kind is SequenceEndEvent or kind is MappingEndEvent:
                frame = stack.pop()
                if frame.merges:
                    self._merge(frame)
                value = frame.value
                start = frame.start.start_mark
                end = event.end_mark
                span = Span(start.line + 1, start.column + 1, end.line + 1, end.column + 1)
                value.span = span
                if frame.anchor is not None:
                    self.anchors[frame.anchor] = (value, span, frame.size)
                root = self._attach(stack, value, span, frame.size, False) or root
            elif kind is DocumentStartEvent:
                self.anchors = {}
                root = None
            elif kind is StreamEndEvent:
                return docs
            else:  # DocumentEndEvent (StreamStartEvent has no value)
                if root is not None and root[0] is not None:
                    docs.append(root)
                root = None

    def _alias(self, event: Any) -> tuple[Any, Span, int]:
        anchor = self.anchors.get(event.anchor)
        if anchor is None:
            raise _error(event, UNDEFINED_ALIAS)
        if anchor is _BUILDING:
            raise _error(
                event,
                "This anchor (`&name`) is used inside itself; YAML values cannot contain themselves.",
            )
        value, span, size = anchor
        self.expanded += size
        if self.expanded > MAX_ALIAS_ITEMS:
            raise _error(
                event,
                f"This file repeats anchors (`*name`) so many times that it would expand to "
                f"more than {MAX_ALIAS_ITEMS:,} items. Write the repeated parts out, or repeat "
                "fewer of them.",
            )
        return value, span, size

    def _attach(
        self, stack: list[_Frame], value: Any, span: Span, size: int, merge: bool
    ) -> tuple[Any, Span] | None:
        """Put a finished value into the list or mapping being built (or return it as root)."""
        if not stack:
            return value, span
        frame = stack[-1]
        frame.size += size
        out = frame.value
        if isinstance(out, YList):
            out.append(value)
            out.item_spans.append(span)
            return None
        if frame.key_span is None:  # this value is a key
            frame.key = None if merge else js_string(value)
            frame.key_span = span
            return None
        key, key_span = frame.key, frame.key_span
        frame.key = frame.key_span = None
        if key is None:  # the value of a merge key `<<`
            if frame.merges is None:
                frame.merges = []
            frame.merges.append((value, span))
            return None
        if key in out.key_spans:
            first = out.key_spans[key]
            if self.duplicates is None:
                raise BlueprintError(
                    f"The key `{excerpt(key, quote=False)}` is written twice in the same block "
                    f"(first on line {first.line}). Keep one of them: YAML does not allow "
                    "duplicate keys.",
                    line=key_span.line,
                    column=key_span.column,
                    upstream="duplicated mapping key",
                )
            self.duplicates.append(DuplicateKey(key, first, key_span))
        out[key] = value
        out.key_spans[key] = key_span
        out.value_spans[key] = span
        return None

    def _merge(self, frame: _Frame) -> None:
        """Apply the merge keys (`<<: *base`) of a finished mapping: its own keys win."""
        out = frame.value
        assert isinstance(out, YMap)
        for merged, merged_span in frame.merges or ():
            if isinstance(merged, YList):
                sources = list(zip(merged, merged.item_spans, strict=False))
            else:
                sources = [(merged, merged_span)]
            for source, source_span in sources:
                if not isinstance(source, dict):
                    raise BlueprintError(
                        "A merge key `<<` needs a mapping (or a list of them).",
                        line=source_span.line,
                        column=source_span.column,
                    )
                for key, value in source.items():
                    if key not in out:
                        out[key] = value
                        if isinstance(source, YMap) and key in source.key_spans:
                            out.key_spans[key] = source.key_spans[key]
                            out.value_spans[key] = source.value_spans[key]
