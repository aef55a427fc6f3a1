"""YAML and JSON text to plain values that remember where each node was written.

Blueprints are read with YAML 1.2 core-schema rules, as js-yaml (Weval's loader) reads
them: `yes`/`no`/`on`/`off` stay strings, `1:30` stays a string, `012` is 12. libyaml's C
parser gives the events and `engine.blueprint.compose` builds `dict`/`list` subclasses
(`YMap`, `YList`) that carry 1-based `Span`s, so later stages can point at the line and
column of any prompt, point or key. Hostile input is bounded: nesting depth, alias
expansion and (in `engine.blueprint.inputs`) the size of the text.
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from yaml._yaml import CParser  # the libyaml C parser (PyYAML built with libyaml)

from engine.blueprint.compose import MAX_DEPTH, Composer, too_deep
from engine.blueprint.depth import raise_if_depth_error
from engine.blueprint.scalars import js_int
from engine.blueprint.spans import (
    DuplicateKey,
    Span,
    YList,
    YMap,
    span_of_item,
    span_of_key,
    span_of_value,
    without_key,
)
from engine.blueprint.text import line_column, mask_unicode_breaks, unmask_message
from engine.blueprint.yamlerrors import explain_reader_error, explain_syntax_error
from engine.errors import BlueprintError
from engine.js.values import js_string, js_string_length

__all__ = [
    "MAX_JOINED_TEXT",
    "DuplicateKey",
    "Span",
    "YList",
    "YMap",
    "joined_text",
    "json_value",
    "load_json_documents",
    "load_yaml_documents",
    "positioned",
    "span_of_item",
    "span_of_key",
    "span_of_value",
    "without_key",
]


def positioned(message: str, span: Span | None, upstream: str | None = None) -> BlueprintError:
    """A BlueprintError at `span` (when known); `upstream` is Weval's wording of the problem."""
    return BlueprintError(
        message,
        line=span.line if span else None,
        column=span.column if span else None,
        upstream=upstream or message,
    )


MAX_JOINED_TEXT = 1_000_000
"""The most characters a text written as a list may become (JavaScript's `String(list)`)."""


def joined_text(value: Any, span: Span | None, what: str) -> str:
    """`value` as text, as JavaScript's `String(value)` gives it, refused past MAX_JOINED_TEXT.

    A list where text is expected becomes its items joined by commas. Through `*name` copies
    a 400-byte list can become millions of characters, so its length is measured (each
    distinct list once) before the text is built, and a longer one is refused at its line.

    Raises:
        BlueprintError: The text would be longer than MAX_JOINED_TEXT characters.
    """
    if isinstance(value, str):
        return value
    if js_string_length(value, MAX_JOINED_TEXT) > MAX_JOINED_TEXT:
        raise positioned(
            f"The {what} is written as a list that becomes more than {MAX_JOINED_TEXT:,} "
            "characters of text (each `*name` copy counts in full). Write it as text, or "
            "shorten the list.",
            span,
        )
    return js_string(value)


def load_yaml_documents(
    text: str, *, duplicates: list[DuplicateKey] | None = None
) -> list[tuple[Any, Span]]:
    """Load every YAML document in `text`, with the span where each document starts.

    Args:
        text: The YAML source.
        duplicates: If given, duplicate keys are appended here and the last value kept;
            if None, a duplicate key raises BlueprintError (as js-yaml does).

    Returns:
        Each non-null document and its span; empty documents (for example after a final
        `---`) are dropped, as Weval drops them.

    Raises:
        BlueprintError: The text is not valid YAML.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.endswith("\n"):
        text += "\n"  # js-yaml appends a final newline; block scalars at EOF keep theirs
    text, restore = mask_unicode_breaks(text)
    try:
        parser = CParser(text)
    except UnicodeEncodeError as exc:  # a lone surrogate: no file holds one, but a string can
        line, column = line_column(text, exc.start)
        raise BlueprintError(
            "This text holds a broken character (half of a surrogate pair) that is not UTF-8. "
            "Remove it.",
            line=line,
            column=column,
        ) from None
    try:
        return Composer(duplicates, restore).documents(parser.get_event)
    except yaml.MarkedYAMLError as exc:
        try:
            raise_if_depth_error(exc, text)  # libyaml's own bound (6.0.4) is not the engine's
        except BlueprintError as deep:
            raise _unmasked(deep, restore) from None
        raise _unmasked(explain_syntax_error(exc, text), restore) from None
    except yaml.reader.ReaderError as exc:
        raise _unmasked(explain_reader_error(exc, text), restore) from None
    except BlueprintError as exc:
        raise _unmasked(exc, restore) from None
    except yaml.YAMLError as exc:  # libyaml always gives a position; this is a safety net
        raise BlueprintError(
            "This text cannot be read as YAML. Check that this is a blueprint file.",
            line=1,
            column=1,
            upstream=str(exc).splitlines()[0][:200],
        ) from None
    finally:
        parser.dispose()


def _unmasked(error: BlueprintError, restore: dict[int, str] | None) -> BlueprintError:
    """`error` as it reads about the text before `mask_unicode_breaks`."""
    if restore is None:
        return error
    return BlueprintError(
        unmask_message(error.message, restore),
        file=error.file,
        line=error.line,
        column=error.column,
        upstream=error.upstream,
    )


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _json_int(text: str) -> int | float:
    """A JSON integer as `JSON.parse` reads it: a JavaScript number (`-0` is negative zero)."""
    return -0.0 if text == "-0" else js_int(text)


def _position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset (JSON breaks lines at LF only)."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def json_value(text: str) -> Any:
    """Parse JSON as `JSON.parse` does: numbers are JavaScript numbers of any length.

    Raises:
        BlueprintError: The text is not valid JSON (`NaN` and `Infinity` included), or is
            nested more deeply than a blueprint can be; always with a line and column.
    """
    try:
        return json.loads(text, parse_int=_json_int, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise BlueprintError(
            f"This is not valid JSON: {exc.msg}. Check for a missing comma, bracket or quote here.",
            line=exc.lineno,
            column=exc.colno,
            upstream=str(exc),
        ) from None
    except ValueError as exc:  # NaN, Infinity or -Infinity, which JSON does not have
        name = str(exc)
        line, column = _position(text, max(text.find(name), 0))
        raise BlueprintError(
            f"This is not valid JSON: {name} is not a JSON value. Write a number or null.",
            line=line,
            column=column,
        ) from None
    except RecursionError:
        raise too_deep(1, 1) from None


def _deeper_than(value: Any, limit: int) -> bool:
    """True when lists and mappings in `value` nest more than `limit` levels (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def load_json_documents(text: str) -> list[tuple[Any, Span]]:
    """Load a JSON blueprint as `JSON.parse` would; positions come from a YAML pass when possible.

    Raises:
        BlueprintError: The text is not valid JSON, or is nested too deeply.
    """
    value = json_value(text)
    try:
        located = load_yaml_documents(text)
    except BlueprintError:
        located = []
    if len(located) == 1 and located[0][0] == value:
        return located
    if _deeper_than(value, MAX_DEPTH):
        raise too_deep(1, 1)
    return [(value, Span.point(1, 1))]
