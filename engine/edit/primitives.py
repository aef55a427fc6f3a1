"""Structural edits on YAML text: set or delete a key, insert, delete or move a list item.

Each function takes the text and a composed node of it, and returns the new text. Only the
edited node's lines change: block collections get whole new lines at the siblings' column,
flow collections (`[a, b]`, `{k: v}`, JSON) are rewritten in place from their items' own text.
"""

from __future__ import annotations

from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.blueprint.text import LINE_BREAK
from engine.edit import render
from engine.edit.nodes import (
    EditError,
    Splice,
    content_end,
    dash_of,
    entry_index,
    is_block,
    line_end,
    line_start,
    shares_line,
    splice,
)

__all__ = [
    "copy_item",
    "delete_item",
    "delete_key",
    "insert_item",
    "insert_raw_item",
    "item_text",
    "move_item",
    "newline_of",
    "replace_item",
    "set_key",
]


def newline_of(text: str) -> str:
    """The line break the text uses (CRLF if it has any, else LF)."""
    return "\r\n" if "\r\n" in text else "\n"


def _nl(rendered: str, text: str) -> str:
    return rendered.replace("\n", "\r\n") if newline_of(text) == "\r\n" else rendered


def _column(text: str, offset: int) -> int:
    return offset - line_start(text, offset)


def _ensure_break(text: str, at: int) -> str:
    """A line break to put before new lines inserted at `at`, if the line there is unfinished."""
    return "" if at == 0 or text[at - 1] in "\r\n" else newline_of(text)


def _literal_ok(text: str, end: int, column: int) -> bool:
    """Whether a `|` block may end at `end`: no more indented comment follows it."""
    at = line_end(text, end) if end and text[end - 1] not in "\r\n" else end
    if text[end:at].strip():  # a comment after the value, on its last line
        return False
    for line in LINE_BREAK.split(text[at:]):
        if line.strip():
            indent = len(line) - len(line.lstrip(" "))
            return not (line.lstrip(" ").startswith("#") and indent > column)
    return True


def _flow(value: Any, text: str) -> str:
    """`value` for a flow collection of `text` (JSON when the text is a JSON document)."""
    return render.flow(value, json_only=text.lstrip().startswith(("{", "[")))


def _slice(text: str, node: Node) -> str:
    return text[node.start_mark.index : content_end(node, text)]


def _flow_map(text: str, node: MappingNode, entries: list[str]) -> str:
    return splice(
        text, [Splice(node.start_mark.index, node.end_mark.index, "{" + ", ".join(entries) + "}")]
    )


def _flow_seq(text: str, node: SequenceNode, items: list[str]) -> str:
    return splice(
        text, [Splice(node.start_mark.index, node.end_mark.index, "[" + ", ".join(items) + "]")]
    )


def set_key(text: str, mapping: MappingNode, key: str, value: Any) -> str:
    """Set `key` to `value` in `mapping` (replacing its value, or adding the key at the end)."""
    i = entry_index(mapping, key)
    if not is_block(mapping):
        entries = [f"{_slice(text, k)}: {_slice(text, v)}" for k, v in mapping.value]
        new = f"{_flow(key, text)}: {_flow(value, text)}"
        if i is None:
            entries.append(new)
        else:
            entries[i] = f"{_slice(text, mapping.value[i][0])}: {_flow(value, text)}"
        return _flow_map(text, mapping, entries)
    first_key = mapping.value[0][0]
    col = _column(text, first_key.start_mark.index)
    if i is not None:
        k, v = mapping.value[i]
        end = max(content_end(v, text), content_end(k, text))
        inline_old = isinstance(v, ScalarNode) and v.style in (None, "", "'", '"') and v.value != ""
        flow_old = isinstance(v, MappingNode | SequenceNode) and v.flow_style
        if flow_old and isinstance(value, dict | list):  # a `[...]` / `{...}` stays flow
            new = _flow(value, text)
            return splice(text, [Splice(v.start_mark.index, v.end_mark.index, new)])
        literal = _literal_ok(text, end, col)
        if inline_old and not (isinstance(value, dict | list) and value):
            new = render.value_after(value, col, literal=literal).lstrip(" ")
            start = v.start_mark.index
        else:  # a collection, or a value written over several lines: rewrite the entry
            start = k.start_mark.index
            new = _slice(text, k) + ":" + render.value_after(value, col, literal=literal)
        return splice(text, [Splice(start, end, _nl(new, text))])
    at = line_end(text, content_end(mapping, text))
    entry = render.block_entry(key, value, col, literal=_literal_ok(text, at, col))
    new = _ensure_break(text, at) + " " * col + entry + "\n"
    return splice(text, [Splice(at, at, _nl(new, text))])


def delete_key(text: str, mapping: MappingNode, key: str) -> str:
    """Remove `key` (and its value) from `mapping`; unchanged if the key is absent.

    Raises:
        EditError: The key is the only one of a block mapping written on a `- ` line.
    """
    i = entry_index(mapping, key)
    if i is None:
        return text
    if not is_block(mapping):
        entries = [
            f"{_slice(text, k)}: {_slice(text, v)}"
            for j, (k, v) in enumerate(mapping.value)
            if j != i
        ]
        return _flow_map(text, mapping, entries)
    k, v = mapping.value[i]
    end = max(content_end(v, text), content_end(k, text))
    if shares_line(text, k.start_mark.index):
        if i + 1 >= len(mapping.value):
            if i == 0:
                raise EditError(f"`{key}` is the only entry here; it cannot be removed alone.")
            return splice(text, [Splice(content_end(mapping.value[i - 1][1], text), end, "")])
        return splice(
            text, [Splice(k.start_mark.index, mapping.value[i + 1][0].start_mark.index, "")]
        )
    return splice(text, [Splice(line_start(text, k.start_mark.index), line_end(text, end), "")])


def item_text(text: str, seq: SequenceNode, index: int) -> str:
    """The text of a block item from its dash to the end of its content."""
    item = seq.value[index]
    return text[dash_of(item, text) : content_end(item, text)]


def _reindent(raw: str, old_col: int, new_col: int) -> str:
    if old_col == new_col:
        return raw
    lines = raw.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if new_col > old_col:
            out.append(" " * (new_col - old_col) + line if line.strip() else line)
        else:
            cut = min(old_col - new_col, len(line) - len(line.lstrip(" ")))
            out.append(line[cut:])
    return "\n".join(out)


def _insert_at(text: str, seq: SequenceNode, index: int) -> tuple[int, bool]:
    """Where a new item goes before item `index` (or at the end): offset, and inline or not."""
    if index >= len(seq.value):
        return line_end(text, content_end(seq, text)), False
    dash = dash_of(seq.value[index], text)
    if shares_line(text, dash):
        return dash, True
    return line_start(text, dash), False


def insert_raw_item(
    text: str, seq: SequenceNode, index: int, raw: str, raw_col: int
) -> list[Splice]:
    """The splice that inserts an item's block text (`- ...`, written at `raw_col`)."""
    col = _column(text, dash_of(seq.value[0], text))
    body = _reindent(raw, raw_col, col)
    at, inline = _insert_at(text, seq, index)
    new = body + "\n" + " " * col if inline else _ensure_break(text, at) + " " * col + body + "\n"
    return [Splice(at, at, _nl(new, text))]


def copy_item(
    text: str, source: SequenceNode, index: int, target: SequenceNode, at: int, value: Any
) -> str:
    """Insert item `index` of `source` (whose value is `value`) into `target` before item `at`.

    Its text is kept as written (a flow list `[5, 80]` stays one), reindented to `target`'s
    items; where either list is flow style, `value` is written anew, as `insert_item` does.
    """
    if not (is_block(source) and is_block(target) and target.value):
        return insert_item(text, target, at, value)
    raw = item_text(text, source, index)
    col = _column(text, dash_of(source.value[index], text))
    return splice(text, insert_raw_item(text, target, at, raw, col))


def insert_item(text: str, seq: SequenceNode, index: int, value: Any) -> str:
    """Insert `value` as item `index` of `seq` (at the end when `index` is past it)."""
    if not is_block(seq) or not seq.value:
        items = [_slice(text, it) for it in seq.value]
        items.insert(min(index, len(items)), _flow(value, text))
        return _flow_seq(text, seq, items)
    col = _column(text, dash_of(seq.value[0], text))
    literal = _literal_ok(text, _insert_at(text, seq, index)[0], col)
    raw = render.block_item(value, col, literal=literal)
    return splice(text, insert_raw_item(text, seq, index, raw, col))


def _delete_splice(text: str, seq: SequenceNode, index: int) -> Splice:
    item = seq.value[index]
    dash = dash_of(item, text)
    if shares_line(text, dash):
        if index + 1 >= len(seq.value):
            raise EditError("This is the only item of its list; remove the whole list instead.")
        return Splice(dash, dash_of(seq.value[index + 1], text), "")
    return Splice(line_start(text, dash), line_end(text, content_end(item, text)), "")


def delete_item(text: str, seq: SequenceNode, index: int) -> str:
    """Remove item `index` of `seq` (the caller replaces a list that would become empty)."""
    if not is_block(seq):
        items = [_slice(text, it) for j, it in enumerate(seq.value) if j != index]
        return _flow_seq(text, seq, items)
    return splice(text, [_delete_splice(text, seq, index)])


def replace_item(text: str, seq: SequenceNode, index: int, value: Any) -> str:
    """Replace item `index` of `seq` with `value`."""
    item = seq.value[index]
    if not is_block(seq):
        items = [_slice(text, it) for it in seq.value]
        items[index] = _flow(value, text)
        return _flow_seq(text, seq, items)
    dash, end = dash_of(item, text), content_end(item, text)
    col = _column(text, dash_of(seq.value[0], text))
    new = render.block_item(value, col, literal=_literal_ok(text, end, col))
    return splice(text, [Splice(dash, end, _nl(new, text))])


def move_item(text: str, seq: SequenceNode, index: int, to: int) -> str:
    """Move item `index` of `seq` so that it ends up at position `to`, keeping its text."""
    n = len(seq.value)
    to = max(0, min(to, n - 1))
    if to == index:
        return text
    if not is_block(seq):
        items = [_slice(text, it) for it in seq.value]
        items.insert(to, items.pop(index))
        return _flow_seq(text, seq, items)
    col = _column(text, dash_of(seq.value[0], text))
    raw = item_text(text, seq, index)
    target = to + 1 if to > index else to
    changes = [_delete_splice(text, seq, index), *insert_raw_item(text, seq, target, raw, col)]
    return splice(text, changes)
