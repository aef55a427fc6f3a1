"""Where YAML nodes are written: composed node trees, exact offsets, and content ends.

Edits locate nodes with PyYAML's C composer (fast; marks carry character offsets) on the
smallest piece of text that holds the edited node, then splice new text over exact ranges,
so every byte outside the edited node stays as the author wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml
from yaml._yaml import CParser
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import BaseResolver

from engine.blueprint.depth import check_nesting
from engine.blueprint.text import mask_unicode_breaks
from engine.errors import BlueprintError

__all__ = [
    "EditError",
    "Splice",
    "compose_all",
    "content_end",
    "dash_of",
    "entry_index",
    "is_block",
    "line_end",
    "line_start",
    "shares_line",
    "splice",
]


class EditError(ValueError):
    """An edit that cannot be made on this text; the message says what to do instead."""


@dataclass(frozen=True, slots=True)
class Splice:
    """Replace `text[start:end]` with `new`."""

    start: int
    end: int
    new: str


def splice(text: str, changes: list[Splice]) -> str:
    """Apply non-overlapping splices (any order) to `text`."""
    out = text
    for change in sorted(changes, key=lambda c: (c.start, c.end), reverse=True):
        out = out[: change.start] + change.new + out[change.end :]
    return out


class _Composer(CParser, BaseResolver):
    """The C composer with no tag resolution: edits need positions, not values."""

    def __init__(self, stream: str) -> None:
        CParser.__init__(self, stream)
        BaseResolver.__init__(self)

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        return "!"


def compose_all(text: str) -> list[Node]:
    """Compose every document of `text` into nodes (no values are built).

    Raises:
        EditError: The text is not valid YAML; the edit cannot be placed.
    """
    masked = mask_unicode_breaks(text)[0]  # positions as the parser has them
    try:
        check_nesting(masked)  # the C composer recurses once per level: bound it first
    except BlueprintError as exc:
        raise EditError(
            f"Line {exc.line}, column {exc.column}: {exc.message} Fix it in the YAML view first."
        ) from None
    try:
        loader = _Composer(masked)
        try:
            nodes = []
            while loader.check_node():
                node = loader.get_node()
                if node is not None and not _empty_document(node):
                    nodes.append(node)
            return nodes
        finally:
            loader.dispose()
    except yaml.YAMLError:
        raise EditError(
            "The YAML cannot be read, so the form cannot change it. Fix the error shown in "
            "the YAML view first."
        ) from None
    except BlueprintError as exc:  # pragma: no cover - the composer raises only YAMLError
        raise EditError(str(exc)) from None


def _empty_document(node: Node) -> bool:
    """An empty document (after a final `---`), which Weval drops."""
    return isinstance(node, ScalarNode) and node.value == "" and not node.style


def is_block(node: Node) -> bool:
    """True for a block mapping or sequence (not a flow `{}`/`[]` one, not a scalar)."""
    return isinstance(node, MappingNode | SequenceNode) and not node.flow_style


def content_end(node: Node, text: str) -> int:
    """The offset just after the node's last character of content.

    Marks of block collections and block scalars run on over trailing blank lines and
    comments; this stops at the content itself.
    """
    if isinstance(node, ScalarNode):
        start, end = node.start_mark.index, node.end_mark.index
        if node.style in ("|", ">"):
            while end > start and text[end - 1] in " \t\r\n":
                end -= 1
        return end
    if not is_block(node):
        return int(node.end_mark.index)
    if isinstance(node, MappingNode):
        if not node.value:
            return int(node.end_mark.index)
        key, value = node.value[-1]
        return max(content_end(key, text), content_end(value, text))
    assert isinstance(node, SequenceNode)
    if not node.value:
        return int(node.end_mark.index)
    last = node.value[-1]
    return max(content_end(last, text), dash_of(last, text) + 1)


def dash_of(item: Node, text: str) -> int:
    """The offset of the `-` that introduces a block sequence item.

    Raises:
        EditError: Something other than blank space stands between the dash and the item.
    """
    i = item.start_mark.index - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    if i < 0 or text[i] != "-":
        raise EditError(
            "This list item is written in a way the form cannot change (a comment or an "
            "anchor between the dash and the item). Edit it in the YAML view."
        )
    return i


def line_start(text: str, offset: int) -> int:
    """The offset where the line holding `offset` starts."""
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def line_end(text: str, offset: int) -> int:
    """The offset just after the line break that ends the line holding `offset`."""
    nl = text.find("\n", offset)
    return len(text) if nl < 0 else nl + 1


def shares_line(text: str, offset: int) -> bool:
    """True when something other than indentation stands before `offset` on its line."""
    return text[line_start(text, offset) : offset].strip(" \t") != ""


def entry_index(node: MappingNode, key: str) -> int | None:
    """The position of `key` among the mapping's entries (scalar keys only), or None."""
    for i, (k, _v) in enumerate(node.value):
        if isinstance(k, ScalarNode) and k.value == key:
            return i
    return None
