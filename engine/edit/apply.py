"""`apply(text, edit)`: make one form edit on the YAML text, changing only the edited node.

An edit inside a prompt composes only that prompt's lines; an edit to the header composes only
the header document. Everything outside the edited node keeps its bytes: comments, quoting,
blank lines, key order and anchors elsewhere are never rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yaml.nodes import MappingNode

from engine.edit import render
from engine.edit.edits import (
    AddAlternative,
    AddPoint,
    AddPrompt,
    DeletePrompt,
    DuplicatePrompt,
    Edit,
    GroupPoints,
    MovePrompt,
    PointEdit,
    SetHeader,
    SetMessages,
    SetPromptField,
)
from engine.edit.layout import Layout
from engine.edit.nodes import EditError, Splice, compose_all, line_start, splice
from engine.edit.points import apply_point_edit
from engine.edit.primitives import delete_key, newline_of, set_key
from engine.edit.scope import PromptScope, field_key

__all__ = ["Applied", "apply", "apply_edit"]


@dataclass(frozen=True, slots=True)
class Applied:
    """The result of an edit.

    Attributes:
        text: The new text.
        layout: The new layout when it is known without reading the text again, else None.
        prompt: The one prompt whose text changed, or None when the header or the list of
            prompts changed.
    """

    text: str
    layout: Layout | None
    prompt: int | None


def apply(text: str, edit: Edit) -> str:
    """Return `text` with `edit` made, every byte outside the edited node unchanged.

    Raises:
        EditError: The edit cannot be made (no such prompt or point, unreadable YAML, a part
            written in a way only the YAML view can change); the message says what to do.
    """
    return apply_edit(text, edit, None).text


def apply_edit(text: str, edit: Edit, layout: Layout | None) -> Applied:
    """`apply`, reusing (and returning) the layout of the text so that big texts stay fast."""
    layout = layout if layout is not None else Layout.of(text)
    if isinstance(edit, SetHeader):
        return _header(text, layout, edit.key, edit.value)
    if isinstance(edit, AddPrompt | DuplicatePrompt | DeletePrompt | MovePrompt):
        if not layout.block:
            raise EditError(
                "The prompts are written as one `[...]` list (JSON style), so the form cannot "
                "add, remove or reorder them. Do it in the YAML view."
            )
        return Applied(_prompts(text, layout, edit), None, None)
    index = edit.prompt if isinstance(edit, SetPromptField | SetMessages) else _prompt_of(edit)
    scope, start, end = PromptScope.open(text, layout, index)
    before = scope.text
    if isinstance(edit, SetPromptField):
        scope.set(edit.key, edit.value)
    elif isinstance(edit, SetMessages):
        _messages(scope, edit)
    else:
        apply_point_edit(scope, edit)
    new = text[:start] + scope.text + text[end:]
    if not layout.block:
        return Applied(new, layout, index)
    return Applied(new, layout.shifted(index, len(scope.text) - len(before)), index)


def _prompt_of(edit: PointEdit) -> int:
    if isinstance(edit, AddPoint | AddAlternative | GroupPoints):
        return edit.prompt
    return edit.ref.prompt


def _messages(scope: PromptScope, edit: SetMessages) -> None:
    turns = list(edit.messages)
    if len(turns) == 1 and turns[0][0] == "user" and turns[0][1] is not None:
        scope.set("prompt", turns[0][1])
        scope.set("messages", None)
        return
    if not turns:
        raise EditError("A prompt needs at least one turn: write the question.")
    scope.set("messages", [{role: content} for role, content in turns])
    scope.set("prompt", None)


def _header(text: str, layout: Layout, key: str, value: Any) -> Applied:
    if layout.header is not None:
        start, end = layout.header
        part = text[start:end]
        node = compose_all(part)[0]
        assert isinstance(node, MappingNode)
        new = _set_or_delete(part, node, key, value)
        return Applied(text[:start] + new + text[end:], layout.moved(len(new) - len(part)), None)
    if layout.kind in ("header-only", "prompts-key"):
        node = compose_all(text)[0]
        assert isinstance(node, MappingNode)
        return Applied(_set_or_delete(text, node, key, value), None, None)
    if value is None:
        return Applied(text, layout, None)
    nl = newline_of(text)
    doc = (render.block_entry(key, value, 0) + "\n").replace("\n", nl)
    if layout.kind == "empty":
        return Applied(
            text + ("" if not text or text.endswith(("\n", "\r")) else nl) + doc, None, None
        )
    first = text.lstrip()
    if first.startswith("---"):  # an explicit first document: the header goes before it
        return Applied(doc + text[len(text) - len(first) :], None, None)
    return Applied(doc + "---" + nl + text, None, None)


def _set_or_delete(text: str, node: MappingNode, key: str, value: Any) -> str:
    name = field_key(node, key)
    if value is None:
        return delete_key(text, node, name)
    return set_key(text, node, name, value)


def _new_prompt_text(layout: Layout, text: str, fields: dict[str, Any]) -> tuple[int, str]:
    """Where a new prompt goes at the end, and its text."""
    nl = newline_of(text)
    tail = "" if not text or text.endswith(("\n", "\r")) else nl
    if layout.append_at is not None:
        at, col = layout.append_at
        body = " " * col + render.block_item(fields, col) + "\n"
        lead = "" if at == 0 or text[at - 1] in "\r\n" else nl
        return at, lead + body.replace("\n", nl)
    if layout.kind == "empty":
        return len(text), tail + (render.block_item(fields, 0) + "\n").replace("\n", nl)
    if layout.kind == "header-only":
        item = "---\n" + render.block_item(fields, 0) + "\n"
        return len(text), tail + item.replace("\n", nl)
    entries = "\n".join(render.block_entry(k, v, 0) for k, v in fields.items())
    return len(text), tail + ("---\n" + entries + "\n").replace("\n", nl)


def _prompts(
    text: str, layout: Layout, edit: AddPrompt | DuplicatePrompt | DeletePrompt | MovePrompt
) -> str:
    regions = layout.regions
    n = len(regions)
    if isinstance(edit, AddPrompt):
        if edit.at is None or edit.at >= n:
            at, new = _new_prompt_text(layout, text, edit.fields)
            return splice(text, [Splice(at, at, new)])
        start = regions[max(edit.at, 0)][0]
        col = _indent(text, start)
        body = " " * col + render.block_item(edit.fields, col) + "\n"
        if _is_document(text, start):
            entries = "\n".join(render.block_entry(k, v, 0) for k, v in edit.fields.items())
            body = entries + "\n---\n"
        return splice(text, [Splice(start, start, body.replace("\n", newline_of(text)))])
    index = edit.prompt
    if not 0 <= index < n:
        raise EditError(f"There is no prompt number {index + 1} in this blueprint.")
    start, end = regions[index]
    if isinstance(edit, DuplicatePrompt):
        scope = PromptScope(text[start:end])
        scope.set("id", edit.new_id)
        copy = scope.text
        nl = newline_of(text)
        if _is_document(text, start):
            copy = "---" + nl + copy
        if not text[start:end].endswith(("\n", "\r")):  # the file's last line
            return text + nl + copy
        return splice(text, [Splice(end, end, copy)])
    if isinstance(edit, DeletePrompt):
        if _is_document(text, start):
            sep = line_start(text, max(start - 1, 0))
            if start > 0 and text[sep:start].strip() == "---":
                start = sep
        return splice(text, [Splice(start, end, "")])
    order = list(range(n))
    order.insert(max(0, min(edit.to, n - 1)), order.pop(index))
    pieces = [text[s:e] for s, e in regions]
    last_open = not pieces[-1].endswith(("\n", "\r"))
    if last_open:
        pieces[-1] += newline_of(text)
    changes = []
    for slot, source in enumerate(order):
        if slot != source:
            body = pieces[source]
            if slot == n - 1 and last_open:
                body = body.rstrip("\r\n")
            changes.append(Splice(regions[slot][0], regions[slot][1], body))
    return splice(text, changes)


def _is_document(text: str, start: int) -> bool:
    """True when the prompt at `start` is a document of its own (not a `- ` list item)."""
    return not text[start:].lstrip(" ").startswith("-")


def _indent(text: str, start: int) -> int:
    line = text[start:]
    return len(line) - len(line.lstrip(" "))
