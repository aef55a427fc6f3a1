"""YAML and JSON text to plain values that remember where each node was written.

Blueprints are read with YAML 1.2 core-schema rules, as js-yaml (Weval's loader) reads
them: `yes`/`no`/`on`/`off` stay strings, `1:30` stays a string, `012` is 12. PyYAML's C
composer builds the node tree (fast enough for every keystroke); this module turns nodes
into `dict`/`list` subclasses (`YMap`, `YList`) that carry 1-based `Span`s, so later stages
can point at the line and column of any prompt, point or key.
"""

from __future__ import annotations

import base64
import json
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, NamedTuple

import yaml
from yaml._yaml import CParser  # the libyaml C parser (PyYAML built with libyaml)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import BaseResolver

from engine.errors import BlueprintError
from engine.gcpause import gc_paused
from engine.jsvalues import js_string

__all__ = [
    "DuplicateKey",
    "Span",
    "YList",
    "YMap",
    "gc_paused",
    "load_json_documents",
    "load_yaml_documents",
    "positioned",
    "span_of_item",
    "span_of_key",
    "span_of_value",
    "without_key",
]

_PLAIN = "!plain"
_T = "tag:yaml.org,2002:"
_MAX_ALIASES = 10_000


class Span(NamedTuple):
    """A 1-based range in the source text: where a node starts and ends."""

    line: int
    column: int
    end_line: int
    end_column: int

    @staticmethod
    def of(node: Node) -> Span:
        """Return the span of a PyYAML node (its marks are 0-based)."""
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


class _Loader(CParser, BaseResolver):
    """C composer whose plain scalars are left untyped, so this module can type them."""

    def __init__(self, stream: str) -> None:
        CParser.__init__(self, stream)
        BaseResolver.__init__(self)

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode:
            return _PLAIN if implicit[0] else _T + "str"
        if kind is SequenceNode:
            return _T + "seq"
        return _T + "map"


_INT_BODY = re.compile(r"0b[01]+|0x[0-9a-fA-F]+|0o[0-7]+|[0-9]+")
_FLOAT = re.compile(
    r"[-+]?[0-9][0-9]*(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?"
    r"|\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9]{2}))?))?"
)
_NULLS = frozenset({"~", "null", "Null", "NULL", ""})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})


def _js_int(text: str) -> int | float:
    sign = -1 if text[0] == "-" else 1
    body = text[1:] if text[0] in "+-" else text
    if body.startswith("0b"):
        value = int(body[2:], 2)
    elif body.startswith("0x"):
        value = int(body[2:], 16)
    elif body.startswith("0o"):
        value = int(body[2:], 8)
    else:
        value = int(body, 10)
    value *= sign
    return value if abs(value) <= 2**53 else float(value)


def _js_float(text: str) -> float:
    lowered = text.lower()
    sign = -1.0 if lowered[0] == "-" else 1.0
    body = lowered[1:] if lowered[0] in "+-" else lowered
    if body == ".inf":
        return sign * math.inf
    if body == ".nan":
        return math.nan
    return sign * float(body)


def _timestamp_json(text: str) -> str | None:
    """Return JSON.stringify(new Date(...)) of a YAML timestamp, as js-yaml builds it."""
    m = _DATE.fullmatch(text)
    if m:
        year, month, day = (int(g) for g in m.groups())
        moment = datetime(year, month, day, tzinfo=UTC)
    else:
        m = _TIMESTAMP.fullmatch(text)
        if not m:
            return None
        year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
        fraction = (m.group(7) or "")[:3].ljust(3, "0")
        moment = datetime(year, month, day, hour, minute, second, int(fraction) * 1000, tzinfo=UTC)
        if m.group(9):
            offset = timedelta(hours=int(m.group(10)), minutes=int(m.group(11) or 0))
            moment = moment.replace(
                tzinfo=timezone(offset if m.group(9) == "+" else -offset)
            ).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def resolve_plain(text: str) -> Any:
    """Type a plain (unquoted) scalar as js-yaml's default schema does."""
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    first = text[0]
    if first.isdigit() or first in "+-.":
        body = text[1:] if first in "+-" else text
        if body and _INT_BODY.fullmatch(body):
            return _js_int(text)
        if _FLOAT.fullmatch(text) and not text.endswith("_"):
            return _js_float(text)
        if first.isdigit():
            stamp = _timestamp_json(text)
            if stamp is not None:
                return stamp
    return text


class _Builder:
    """Turns a composed node tree into YMap/YList/scalars, recording spans."""

    def __init__(self, duplicates: list[DuplicateKey] | None) -> None:
        self.duplicates = duplicates
        # id(node) -> (node, value); holding the node keeps its id from being reused.
        self.memo: dict[int, tuple[Node, Any]] = {}
        self.aliases = 0
        self.building: set[int] = set()

    def build(self, node: Node) -> Any:
        seen = self.memo.get(id(node))
        if seen is not None and seen[0] is node:
            if id(node) in self.building:
                raise _error(
                    node,
                    "This anchor (`&name`) is used inside itself; YAML values cannot contain themselves.",
                )
            self.aliases += 1
            if self.aliases > _MAX_ALIASES:
                raise _error(node, "This file repeats anchors (`*name`) too many times to read.")
            return seen[1]
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        if isinstance(node, SequenceNode):
            return self.sequence(node)
        if isinstance(node, MappingNode):
            return self.mapping(node)
        raise _error(node, "This YAML node cannot be read.")

    def scalar(self, node: ScalarNode) -> Any:
        tag, text = node.tag, node.value
        if tag == _PLAIN:
            return resolve_plain(text)
        if tag == _T + "str":
            return text
        if tag == _T + "int":
            try:
                return _js_int(text.replace("_", ""))
            except ValueError:
                raise _error(node, f"`!!int` needs a whole number, not {text!r}.") from None
        if tag == _T + "float":
            try:
                return _js_float(text)
            except ValueError:
                raise _error(node, f"`!!float` needs a number, not {text!r}.") from None
        if tag == _T + "bool":
            if text in _TRUE or text in _FALSE:
                return text in _TRUE
            raise _error(node, f"`!!bool` needs true or false, not {text!r}.")
        if tag == _T + "null":
            return None
        if tag == _T + "timestamp":
            stamp = _timestamp_json(text)
            if stamp is None:
                raise _error(node, f"`!!timestamp` needs a date like 2024-01-31, not {text!r}.")
            return stamp
        if tag == _T + "binary":
            try:
                return base64.b64decode("".join(text.split())).decode("latin-1")
            except ValueError:
                raise _error(node, "`!!binary` needs base64 text.") from None
        raise _error(
            node,
            f"Unknown YAML tag `{tag}`. Blueprints use plain YAML: remove the tag "
            "or put the value in quotes.",
        )

    def sequence(self, node: SequenceNode) -> YList:
        out = YList()
        self.memo[id(node)] = (node, out)
        out.span = Span.of(node)
        self.building.add(id(node))
        for child in node.value:
            out.append(self.build(child))
            out.item_spans.append(Span.of(child))
        self.building.discard(id(node))
        return out

    def mapping(self, node: MappingNode) -> YMap:
        out = YMap()
        self.memo[id(node)] = (node, out)
        out.span = Span.of(node)
        self.building.add(id(node))
        merges: list[Node] = []
        for key_node, value_node in node.value:
            if (
                isinstance(key_node, ScalarNode)
                and key_node.tag == _PLAIN
                and key_node.value == "<<"
            ):
                merges.append(value_node)
                continue
            key = js_string(self.build(key_node))
            key_span = Span.of(key_node)
            if key in out.key_spans:
                if self.duplicates is None:
                    raise BlueprintError(
                        f"The key `{key}` is written twice in the same block (first on line "
                        f"{out.key_spans[key].line}). Keep one of them: YAML does not allow "
                        "duplicate keys.",
                        line=key_span.line,
                        column=key_span.column,
                        upstream="duplicated mapping key",
                    )
                self.duplicates.append(DuplicateKey(key, out.key_spans[key], key_span))
            out[key] = self.build(value_node)
            out.key_spans[key] = key_span
            out.value_spans[key] = Span.of(value_node)
        for merge in merges:
            sources = merge.value if isinstance(merge, SequenceNode) else [merge]
            for source_node in sources:
                source = self.build(source_node)
                if not isinstance(source, dict):
                    raise _error(
                        source_node, "A merge key `<<` needs a mapping (or a list of them)."
                    )
                for key, value in source.items():
                    if key not in out:
                        out[key] = value
                        if isinstance(source, YMap) and key in source.key_spans:
                            out.key_spans[key] = source.key_spans[key]
                            out.value_spans[key] = source.value_spans[key]
        self.building.discard(id(node))
        return out


def positioned(message: str, span: Span | None, upstream: str | None = None) -> BlueprintError:
    """A BlueprintError at `span` (when known); `upstream` is Weval's wording of the problem."""
    return BlueprintError(
        message,
        line=span.line if span else None,
        column=span.column if span else None,
        upstream=upstream or message,
    )


def _error(node: Node, message: str) -> BlueprintError:
    mark = node.start_mark
    return BlueprintError(message, line=mark.line + 1, column=mark.column + 1)


def _explain_syntax_error(exc: yaml.MarkedYAMLError, text: str) -> BlueprintError:
    """Turn a PyYAML error into a positioned, plain-words BlueprintError."""
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    column = mark.column + 1 if mark else None
    opener = exc.context_mark
    opened = f" (it starts on line {opener.line + 1}, column {opener.column + 1})" if opener else ""
    if "mapping values are not allowed" in problem:
        message = (
            "This line has a second `: ` inside a value, so YAML reads a new key where none can "
            'start. Put the whole value in quotes, for example: title: "Benefits: Uttar Pradesh".'
        )
    elif "found character '\\t'" in problem or "\t" in problem:
        message = "A tab is used for indentation here; YAML allows only spaces. Replace the tab with spaces."
    elif "quoted scalar" in context:
        message = f"A quoted text is never closed{opened}. Add the closing quote."
    elif "flow sequence" in context:
        message = (
            f"A list written with `[` is not closed or is missing a comma between items{opened}. "
            "Add the missing `]` or `,`."
        )
    elif "flow mapping" in context:
        message = (
            f"A mapping written with `{{` is not closed or is missing a comma{opened}. "
            "Add the missing `}` or `,`."
        )
    elif "could not find expected ':'" in problem:
        message = (
            "A key on this line has no `:` after it, or a multi-line text is not indented. "
            "Write `key: value`, or indent the continuation lines."
        )
    elif "expected <block end>" in problem or "expected <block mapping" in problem:
        message = (
            "This line is indented differently from the lines around it. Line up items of the "
            "same list (the `-`) and keys of the same block at the same column."
        )
    elif "found undefined alias" in problem:
        message = "This `*name` refers to an anchor `&name` that is not defined above it."
    elif "block sequence entries are not allowed" in problem:
        message = (
            "A list item `-` starts where a value was expected on the same line. Put the list "
            "on the next lines, indented under its key."
        )
    else:
        detail = problem + (f" ({context})" if context else "")
        message = f"YAML syntax error: {detail}. Check the indentation and quoting around here."
    upstream = f"{problem} ({context})" if context else problem
    return BlueprintError(message, line=line, column=column, upstream=upstream)


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
    loader = _Loader(text)
    builder = _Builder(duplicates)
    docs: list[tuple[Any, Span]] = []
    with gc_paused():
        try:
            while loader.check_node():
                node = loader.get_node()
                if node is None:
                    continue
                value = builder.build(node)
                if value is not None:
                    docs.append((value, Span.of(node)))
        except yaml.MarkedYAMLError as exc:
            raise _explain_syntax_error(exc, text) from None
        except yaml.YAMLError as exc:
            raise BlueprintError(f"YAML syntax error: {exc}") from None
        finally:
            loader.dispose()
    return docs


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def load_json_documents(text: str) -> list[tuple[Any, Span]]:
    """Load a JSON blueprint as `JSON.parse` would; positions come from a YAML pass when possible.

    Raises:
        BlueprintError: The text is not valid JSON.
    """
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise BlueprintError(
            f"This is not valid JSON: {exc.msg}. Check for a missing comma, bracket or quote here.",
            line=exc.lineno,
            column=exc.colno,
            upstream=str(exc),
        ) from None
    except ValueError as exc:
        raise BlueprintError(f"This is not valid JSON: {exc}.") from None
    try:
        located = load_yaml_documents(text)
    except BlueprintError:
        located = []
    if len(located) == 1 and located[0][0] == value:
        return located
    return [(value, Span.point(1, 1))]
