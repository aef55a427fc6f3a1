"""Point edits inside one prompt: add, replace, weigh, delete, move, invert, group in blocks.

A block ("any one of these", Weval's alternative path) is a nested list. Inside a block a
plain string is always judged text, so a `$name` string moved into a block is rewritten as
`fn: name`, and a `$...` text moved out of one as `text: ...`: the point keeps its meaning.
"""

from __future__ import annotations

from typing import Any

from yaml.nodes import MappingNode, SequenceNode

from engine.edit.edits import (
    AddAlternative,
    AddPoint,
    DeletePoint,
    DuplicatePoint,
    EditPoint,
    GroupPoints,
    MoveIntoBlock,
    MovePoint,
    PointEdit,
    PointRef,
    SetPointWeight,
    ToggleInverted,
)
from engine.edit.nodes import EditError, entry_index
from engine.edit.primitives import (
    copy_item,
    delete_item,
    delete_key,
    insert_item,
    move_item,
    replace_item,
    set_key,
)
from engine.edit.scope import PromptScope
from engine.lint.ignore import IGNORE_MARK
from engine.lint.rules.points import KEEP_COMMENT

__all__ = ["apply_point_edit"]


def _is_fn_string(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("$") and len(value) > 1


def _into_block(value: Any) -> Any:
    return {"fn": value[1:]} if _is_fn_string(value) else value


def _out_of_block(value: Any) -> Any:
    return {"text": value} if _is_fn_string(value) else value


def _items(scope: PromptScope, inverted: bool) -> tuple[str, list[Any]]:
    key = scope.points_key(inverted)
    raw = scope.raw().get(key)
    return key, list(raw) if isinstance(raw, list) else []


def _seq(scope: PromptScope, key: str, block: int | None = None) -> SequenceNode:
    seq = scope.points(scope.node(), key)
    if seq is None:
        raise EditError(f"This prompt has no `{key}` list.")
    if block is not None:
        if not 0 <= block < len(seq.value) or not isinstance(seq.value[block], SequenceNode):
            raise EditError(f"Item {block + 1} of `{key}` is not an “any one of these” block.")
        inner = seq.value[block]
        assert isinstance(inner, SequenceNode)
        return inner
    return seq


def _check(items: list[Any], ref: PointRef) -> Any:
    if not 0 <= ref.index < len(items):
        raise EditError(f"There is no point number {ref.index + 1} in this list.")
    item = items[ref.index]
    if ref.sub is None:
        return item
    if not isinstance(item, list) or not 0 <= ref.sub < len(item):
        raise EditError(f"There is no point number {ref.sub + 1} in this block.")
    return item[ref.sub]


def _append(scope: PromptScope, inverted: bool, value: Any, block: int | None = None) -> None:
    key = scope.points_key(inverted)
    seq = scope.points(scope.node(), key)
    if block is not None:
        inner = _seq(scope, key, block)
        scope.step(lambda t, _n: insert_item(t, inner, len(inner.value), value))
    elif seq is None or not seq.value:
        scope.step(lambda t, n: set_key(t, n, key, [value]))
    else:
        scope.step(lambda t, _n: insert_item(t, seq, len(seq.value), value))


def _delete(scope: PromptScope, ref: PointRef) -> None:
    key, items = _items(scope, ref.inverted)
    _check(items, ref)
    if ref.sub is not None and len(items[ref.index]) > 1:
        inner = _seq(scope, key, ref.index)
        scope.step(lambda t, _n: delete_item(t, inner, ref.sub or 0))
        return
    seq = _seq(scope, key)
    if len(seq.value) == 1:
        scope.step(lambda t, n: delete_key(t, n, key))
    else:
        scope.step(lambda t, _n: delete_item(t, seq, ref.index))


def _replace(scope: PromptScope, ref: PointRef, value: Any) -> None:
    key, items = _items(scope, ref.inverted)
    _check(items, ref)
    seq = _seq(scope, key, ref.index if ref.sub is not None else None)
    at = ref.sub if ref.sub is not None else ref.index
    scope.step(lambda t, _n: replace_item(t, seq, at, value))


def _weight(scope: PromptScope, ref: PointRef, weight: float | None) -> None:
    key, items = _items(scope, ref.inverted)
    value = _check(items, ref)
    if isinstance(value, list):
        raise EditError("A block has no weight of its own; weigh the points inside it.")
    seq = _seq(scope, key, ref.index if ref.sub is not None else None)
    node = seq.value[ref.sub if ref.sub is not None else ref.index]
    default = weight is None or weight == 1
    if isinstance(node, MappingNode) and isinstance(value, dict):
        name = "multiplier" if "multiplier" in value and "weight" not in value else "weight"
        if default:
            if entry_index(node, name) is not None and len(node.value) > 1:
                scope.step(lambda t, _n: delete_key(t, node, name))
            return
        scope.step(lambda t, _n: set_key(t, node, name, weight))
        return
    if default:
        return
    if isinstance(value, str):
        in_block = ref.sub is not None
        new: Any = (
            {"fn": value[1:], "weight": weight}
            if _is_fn_string(value) and not in_block
            else {"text": value, "weight": weight}
        )
        _replace(scope, ref, new)
        return
    raise EditError("This point is written in a way the form cannot weigh; edit it in YAML.")


def _mark_alternatives(scope: PromptScope, key: str, indices: list[int]) -> None:
    """Write `# lint: ignore[single-element-path]` on the one-point paths at `indices`.

    The form builds them as alternatives on purpose: the comment says so to the linter (and to
    a reader of the YAML). A path written over several lines, or in a flow list with more on
    its line, is left as it is.
    """
    for i in sorted(set(indices), reverse=True):
        seq = _seq(scope, key)
        path = seq.value[i] if 0 <= i < len(seq.value) else None
        if not isinstance(path, SequenceNode) or len(path.value) != 1:
            continue
        inner = path.value[0]
        text = scope.text
        if "\n" in text[inner.start_mark.index : inner.end_mark.index].strip():
            continue
        start = text.rfind("\n", 0, inner.start_mark.index) + 1
        end = len(text) if (nl := text.find("\n", inner.start_mark.index)) < 0 else nl
        if end > start and text[end - 1] == "\r":
            end -= 1
        line = text[start:end]
        after = text[max(inner.end_mark.index, path.end_mark.index) : end]
        if IGNORE_MARK in line or (after.strip() and not after.strip().startswith("#")):
            continue
        scope.text = text[:end] + "  " + KEEP_COMMENT + text[end:]


def _group(scope: PromptScope, edit: GroupPoints) -> None:
    key, items = _items(scope, edit.inverted)
    picked = sorted(set(edit.indices))
    if len(picked) < 2 or picked[0] < 0 or picked[-1] >= len(items):
        raise EditError("Pick at least two points of the same list to group them.")
    paths = [items[i] if isinstance(items[i], list) else [_into_block(items[i])] for i in picked]
    for i in reversed(picked[1:]):
        seq = _seq(scope, key)
        scope.text = delete_item(scope.text, seq, i)
    scope.step(lambda t, _n: replace_item(t, _seq(scope, key), picked[0], paths[0]))
    for offset, path in enumerate(paths[1:], start=1):
        scope.text = insert_item(scope.text, _seq(scope, key), picked[0] + offset, path)
    _mark_alternatives(scope, key, list(range(picked[0], picked[0] + len(paths))))


def _add_alternative(scope: PromptScope, edit: AddAlternative) -> None:
    key, items = _items(scope, edit.inverted)
    path = [edit.point.to_yaml(in_block=True)]
    last = max((i for i, item in enumerate(items) if isinstance(item, list)), default=None)
    if last is None:
        _append(scope, edit.inverted, path)
        at = len(items)
    else:
        at = last + 1
        scope.step(lambda t, _n: insert_item(t, _seq(scope, key), at, path))
    _mark_alternatives(scope, key, [at])


def _move_into(scope: PromptScope, edit: MoveIntoBlock) -> None:
    ref = edit.ref
    key, items = _items(scope, ref.inverted)
    value = _check(items, ref)
    if ref.sub is not None or isinstance(value, list) or ref.index == edit.block:
        raise EditError("Only a point that is not in a block can be moved into one.")
    _check(items, PointRef(ref.prompt, edit.block, ref.inverted))
    moved = _into_block(value)
    if moved is value:  # its text moves as written: flow lists and quotes stay as they were
        inner = _seq(scope, key, edit.block)
        scope.step(
            lambda t, _n: copy_item(t, _seq(scope, key), ref.index, inner, len(inner.value), value)
        )
    else:
        _append(scope, ref.inverted, moved, block=edit.block)
    scope.step(lambda t, _n: delete_item(t, _seq(scope, key), ref.index))


def _move_out(scope: PromptScope, ref: PointRef) -> None:
    key, items = _items(scope, ref.inverted)
    value = _out_of_block(_check(items, ref))
    if ref.sub is None:
        raise EditError("This point is not in a block.")
    if len(items[ref.index]) == 1:
        _replace(scope, PointRef(ref.prompt, ref.index, ref.inverted), value)
        return
    scope.step(lambda t, _n: insert_item(t, _seq(scope, key), ref.index + 1, value))
    inner_ref = ref
    scope.step(lambda t, _n: delete_item(t, _seq(scope, key, ref.index), inner_ref.sub or 0))


def _duplicate(scope: PromptScope, ref: PointRef) -> None:
    key, items = _items(scope, ref.inverted)
    copy = _check(items, ref)
    seq = _seq(scope, key, ref.index if ref.sub is not None else None)
    at = (ref.sub if ref.sub is not None else ref.index) + 1
    scope.step(lambda t, _n: insert_item(t, seq, at, copy))


def _toggle(scope: PromptScope, ref: PointRef) -> None:
    _key, items = _items(scope, ref.inverted)
    value = _check(items, PointRef(ref.prompt, ref.index, ref.inverted))
    _append(scope, not ref.inverted, value)
    _delete(scope, PointRef(ref.prompt, ref.index, ref.inverted))


def apply_point_edit(scope: PromptScope, edit: PointEdit) -> None:
    """Apply a point edit to the prompt in `scope`.

    Raises:
        EditError: The point or block does not exist, or the edit does not fit it.
    """
    if isinstance(edit, AddPoint):
        if edit.block is not None:
            _key, items = _items(scope, edit.inverted)
            _check(items, PointRef(edit.prompt, edit.block, edit.inverted))
        _append(
            scope, edit.inverted, edit.point.to_yaml(in_block=edit.block is not None), edit.block
        )
    elif isinstance(edit, EditPoint):
        _replace(scope, edit.ref, edit.point.to_yaml(in_block=edit.ref.sub is not None))
    elif isinstance(edit, DuplicatePoint):
        _duplicate(scope, edit.ref)
    elif isinstance(edit, SetPointWeight):
        _weight(scope, edit.ref, edit.weight)
    elif isinstance(edit, DeletePoint):
        _delete(scope, edit.ref)
    elif isinstance(edit, MovePoint):
        key, items = _items(scope, edit.ref.inverted)
        _check(items, edit.ref)
        block = edit.ref.index if edit.ref.sub is not None else None
        at = edit.ref.sub if edit.ref.sub is not None else edit.ref.index
        scope.step(lambda t, _n: move_item(t, _seq(scope, key, block), at, edit.to))
    elif isinstance(edit, ToggleInverted):
        _toggle(scope, edit.ref)
    elif isinstance(edit, GroupPoints):
        _group(scope, edit)
    elif isinstance(edit, AddAlternative):
        _add_alternative(scope, edit)
    elif isinstance(edit, MoveIntoBlock):
        _move_into(scope, edit)
    else:
        _move_out(scope, edit.ref)
