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
from dataclasses import dataclass
from typing import Any, NamedTuple

import yaml
from yaml._yaml import CParser  # the libyaml C parser (PyYAML built with libyaml)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import BaseResolver

from engine.blueprint.scalars import FALSE, TRUE, js_float, js_int, resolve_plain, timestamp_json
from engine.blueprint.yamlerrors import explain_syntax_error
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
                return js_int(text.replace("_", ""))
            except ValueError:
                raise _error(node, f"`!!int` needs a whole number, not {text!r}.") from None
        if tag == _T + "float":
            try:
                return js_float(text)
            except ValueError:
                raise _error(node, f"`!!float` needs a number, not {text!r}.") from None
        if tag == _T + "bool":
            if text in TRUE or text in FALSE:
                return text in TRUE
            raise _error(node, f"`!!bool` needs true or false, not {text!r}.")
        if tag == _T + "null":
            return None
        if tag == _T + "timestamp":
            stamp = timestamp_json(text)
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
            raise explain_syntax_error(exc, text) from None
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
