"""Where a blueprint's header and each prompt are written (Weval's four layouts, spec §1.2).

`Layout.of(text)` composes the whole text once; after that each prompt is edited through its
own region (the lines of its list item or document), which is composed alone. That keeps an
edit to one prompt of a 2,000-prompt blueprint as cheap as an edit to a small one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.edit.nodes import (
    EditError,
    compose_all,
    content_end,
    dash_of,
    entry_index,
    line_end,
    line_start,
)

__all__ = ["Layout", "LayoutKind", "find_items", "prompt_node"]

LayoutKind = Literal["header+list", "list", "prompts-key", "documents", "header-only", "empty"]
_PROMPT_KEYS_ONE = ("prompt", "messages", "should", "ideal", "points")
_PROMPT_KEYS_MANY = (*_PROMPT_KEYS_ONE, "expect")
_FALSY = frozenset({"", "null", "Null", "NULL", "~", "false", "False", "FALSE", "0", "0.0"})


def _truthy(node: Node) -> bool:
    if isinstance(node, ScalarNode):
        return node.style not in (None, "") or node.value not in _FALSY
    return True  # a collection (even empty) is a truthy JS object


def _prompt_like(node: Node, keys: tuple[str, ...]) -> bool:
    if not isinstance(node, MappingNode):
        return False
    return any(isinstance(k, ScalarNode) and k.value in keys and _truthy(v) for k, v in node.value)


@dataclass(frozen=True, slots=True)
class Layout:
    """The layout of a blueprint text and the region (offsets) of each prompt.

    Attributes:
        kind: Which of Weval's layouts the text uses.
        regions: For each prompt, `(start, end)`: from the start of the line of its dash (or
            document) to the end of the line where its content ends.
        header: `(start, end)` of the header document (for `header+list`), else None.
        append_at: Where a new prompt is appended: `(offset, dash column)`, or None when
            new prompts are new documents.
        block: False when the prompts are in a flow list (`[...]`, JSON): such prompts are
            edited through the whole text, and the list of prompts cannot be rearranged.
    """

    kind: LayoutKind
    regions: tuple[tuple[int, int], ...]
    header: tuple[int, int] | None
    append_at: tuple[int, int] | None
    block: bool = True

    @staticmethod
    def of(text: str) -> Layout:
        """Find the layout of `text` (composes the whole text).

        Raises:
            EditError: The text is not valid YAML.
        """
        docs = compose_all(text)
        if not docs:
            return Layout("empty", (), None, None)
        kind, items, header, container = _find(text, docs)
        regions = tuple(_region(text, item) for item in items)
        append_at = None
        if (
            container is not None
            and container.value
            and not container.flow_style
            and docs[-1] is _root_of(container, docs)
        ):
            last = container.value[-1]
            dash = dash_of(last, text)
            append_at = (_region(text, last)[1], dash - line_start(text, dash))
        blocky = all(not isinstance(d, SequenceNode) or not d.flow_style for d in docs)
        block = blocky and (container is None or not container.flow_style)
        return Layout(kind, regions, header, append_at, block)

    def shifted(self, index: int, delta: int) -> Layout:
        """This layout after prompt `index`'s region grew by `delta` characters."""
        regions = list(self.regions)
        start, end = regions[index]
        regions[index] = (start, end + delta)
        for j in range(index + 1, len(regions)):
            s, e = regions[j]
            regions[j] = (s + delta, e + delta)
        append_at = self.append_at
        if append_at is not None and append_at[0] >= end:
            append_at = (append_at[0] + delta, append_at[1])
        return replace(self, regions=tuple(regions), append_at=append_at)

    def moved(self, delta: int) -> Layout:
        """This layout after the header (before every prompt) grew by `delta` characters."""
        header = self.header and (self.header[0], self.header[1] + delta)
        append_at = self.append_at and (self.append_at[0] + delta, self.append_at[1])
        regions = tuple((s + delta, e + delta) for s, e in self.regions)
        return replace(self, regions=regions, header=header, append_at=append_at)


def find_items(text: str) -> list[Node]:
    """Every prompt node of `text`, in order (composes the whole text)."""
    docs = compose_all(text)
    return _find(text, docs)[1] if docs else []


def _find(
    text: str, docs: list[Node]
) -> tuple[LayoutKind, list[Node], tuple[int, int] | None, SequenceNode | None]:
    """The layout kind, the prompt nodes, the header's range and the prompts' list."""
    first = docs[0]
    items: list[Node] = []
    header: tuple[int, int] | None = None
    container: SequenceNode | None = None
    if len(docs) == 1:
        if isinstance(first, SequenceNode):
            kind: LayoutKind = "list"
            items, container = list(first.value), first
        elif isinstance(first, MappingNode) and _prompts_seq(first) is not None:
            kind = "prompts-key"
            container = _prompts_seq(first)
            assert container is not None
            items = list(container.value)
        elif _prompt_like(first, _PROMPT_KEYS_ONE):
            kind, items = "documents", [first]
        else:
            kind = "header-only"
    elif isinstance(first, MappingNode) and not _prompt_like(first, _PROMPT_KEYS_MANY):
        kind = "header+list"
        header = (
            line_start(text, first.start_mark.index),
            line_end(text, content_end(first, text)),
        )
        for doc in docs[1:]:
            if isinstance(doc, SequenceNode):
                items.extend(doc.value)
                container = doc
            else:
                items.append(doc)
    else:
        kind = "documents"
        for doc in docs:
            items.extend(doc.value if isinstance(doc, SequenceNode) else [doc])
    return kind, items, header, container


def _root_of(container: SequenceNode, docs: list[Node]) -> Node:
    for doc in docs:
        if doc is container or (
            isinstance(doc, MappingNode) and any(v is container for _k, v in doc.value)
        ):
            return doc
    return container


def _prompts_seq(doc: MappingNode) -> SequenceNode | None:
    i = entry_index(doc, "prompts")
    if i is None:
        return None
    value = doc.value[i][1]
    return value if isinstance(value, SequenceNode) and value.value else None


def _region(text: str, item: Node) -> tuple[int, int]:
    """Where a prompt is written: from its dash's line to the end of its content.

    Comment lines indented inside the item that follow it are part of it, so that a `|` block
    written at its end is never followed by a comment it would swallow.
    """
    try:
        start = dash_of(item, text)
    except EditError:
        start = item.start_mark.index
    first = line_start(text, start)
    column = start - first
    end = line_end(text, content_end(item, text))
    while end < len(text):
        following = line_end(text, end)
        line = text[end:following]
        body = line.lstrip(" ")
        if not body.startswith("#") or len(line) - len(body) <= column:
            break
        end = following
    return first, end


def prompt_node(region: str) -> MappingNode:
    """Compose a prompt's region alone and return the prompt's mapping node.

    Raises:
        EditError: The prompt is not a mapping, or its region cannot be read alone.
    """
    docs = compose_all(region)
    node: Node | None = docs[0] if docs else None
    if isinstance(node, SequenceNode) and len(node.value) == 1:
        node = node.value[0]
    if not isinstance(node, MappingNode) or len(docs) != 1:
        raise EditError(
            "This prompt is not written as a block of `key: value` lines, so the form cannot "
            "change it. Edit it in the YAML view."
        )
    return node
