"""One prompt's text, composed alone: the place every in-prompt edit is made."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from yaml.nodes import MappingNode, Node, SequenceNode

from engine.blueprint.layout import split_layout
from engine.blueprint.source import load_yaml_documents
from engine.edit.layout import Layout, find_items, prompt_node
from engine.edit.nodes import EditError, entry_index
from engine.edit.primitives import delete_key, set_key
from engine.errors import BlueprintError

__all__ = ["ALIASES", "POINT_KEYS", "PromptScope", "field_key", "raw_prompt"]

POINT_KEYS = ("should", "points", "expect", "expects", "expectations")
ALIASES: dict[str, tuple[str, ...]] = {
    "prompt": ("prompt", "promptText"),
    "ideal": ("ideal", "idealResponse"),
    "citation": ("citation", "reference"),
    "weight": ("weight", "importance", "multiplier"),
    "title": ("title", "configTitle"),
    "id": ("id", "configId"),
    "system": ("system", "systemPrompt"),
    "point_defs": ("point_defs", "defs"),
}
"""A field and the other names Weval reads it from: the form edits the name that is written."""


def field_key(node: MappingNode, key: str) -> str:
    """The key to write for field `key`: an alias already written in `node`, else `key`."""
    for name in ALIASES.get(key, (key,)):
        if entry_index(node, name) is not None:
            return name
    return key


def raw_prompt(region: str) -> dict[str, Any]:
    """The plain values of the one prompt written in `region` (YAML 1.2, as Weval reads it)."""
    try:
        docs = load_yaml_documents(region)
    except BlueprintError:
        raise EditError("This prompt cannot be read; fix it in the YAML view first.") from None
    value = docs[0][0] if docs else None
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, dict):
        raise EditError("This prompt is not a mapping of fields; edit it in the YAML view.")
    return value


@dataclass
class PromptScope:
    """The text of one prompt (or the whole text, for prompts in a flow list) being edited.

    `text` changes as steps are applied; `node()` composes it again after each step.
    """

    text: str
    item: int | None = None  # which prompt, when `text` is the whole blueprint

    @staticmethod
    def open(text: str, layout: Layout, index: int) -> tuple[PromptScope, int, int]:
        """The scope of prompt `index` and where its text sits in `text`.

        Raises:
            EditError: There is no such prompt.
        """
        if not 0 <= index < len(layout.regions):
            raise EditError(f"There is no prompt number {index + 1} in this blueprint.")
        if not layout.block:
            return PromptScope(text, index), 0, len(text)
        start, end = layout.regions[index]
        return PromptScope(text[start:end]), start, end

    def node(self) -> MappingNode:
        """The prompt's mapping node in the current text."""
        if self.item is None:
            return prompt_node(self.text)
        node = find_items(self.text)[self.item]
        if not isinstance(node, MappingNode):
            raise EditError("This prompt is not a mapping of fields; edit it in the YAML view.")
        return node

    def raw(self) -> dict[str, Any]:
        """The prompt's plain values in the current text."""
        if self.item is None:
            return raw_prompt(self.text)
        try:
            _header, prompts = split_layout(load_yaml_documents(self.text), "yaml")
        except BlueprintError:
            raise EditError("This prompt cannot be read; fix it in the YAML view.") from None
        value = prompts[self.item][0] if self.item < len(prompts) else None
        if not isinstance(value, dict):
            raise EditError("This prompt is not a mapping of fields; edit it in the YAML view.")
        return value

    def step(self, change: Callable[[str, MappingNode], str]) -> None:
        """Apply one change to the current text and prompt node."""
        self.text = change(self.text, self.node())

    def set(self, key: str, value: Any) -> None:
        """Set field `key` (or the alias written) to `value`; None removes it."""

        def change(text: str, node: MappingNode) -> str:
            name = field_key(node, key)
            if value is None:
                return delete_key(text, node, name)
            return set_key(text, node, name, value)

        self.step(change)

    def points_key(self, inverted: bool) -> str:
        """The key holding `should` points (`points:` or another alias, if written)."""
        if inverted:
            return "should_not"
        raw = self.raw()
        for key in POINT_KEYS:
            if raw.get(key):
                return key
        node = self.node()
        for key in POINT_KEYS:
            if entry_index(node, key) is not None:
                return key
        return "should"

    def points(self, node: MappingNode, key: str) -> SequenceNode | None:
        """The list node under `key`, or None when absent or not a list."""
        i = entry_index(node, key)
        if i is None:
            return None
        value: Node = node.value[i][1]
        return value if isinstance(value, SequenceNode) else None
