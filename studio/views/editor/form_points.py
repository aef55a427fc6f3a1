"""The form's rubric: points in words or function checks, weights, blocks ("any one of these").

A function point has a picker of the `$` functions and typed fields for its argument (text,
a list one per line, `n` of a list, a range, or YAML for the rest); the argument is checked
by the linter like any other, and its diagnostics show under the point.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st
import yaml

from engine.checks.registry import function_names, lookup, opposite
from engine.edit import (
    AddAlternative,
    AddPoint,
    DeletePoint,
    DuplicatePoint,
    EditError,
    EditPoint,
    GroupPoints,
    MoveIntoBlock,
    MoveOutOfBlock,
    MovePoint,
    PointRef,
    PointSpec,
    SetPointWeight,
    ToggleInverted,
)
from engine.edit.form import BlockView, PointView, PromptView
from engine.edit.values import typed_value
from studio.core.textsafe import one_line, plain_words, safe_markdown
from studio.views.editor.form_fields import plain
from studio.views.editor.form_state import PREFIX, do, show_diagnostics, value
from studio.views.editor.form_state import field as bound

__all__ = ["arg_kind", "parse_args", "picker_label", "picker_names", "points_section"]

KINDS = {"text": "In words", "function": "Function"}
SAMPLES = (
    ("none", None, False),
    ("text", "x", True),
    ("list", ["x", "y"], True),
    ("n_of", [1, ["x", "y"]], True),
    ("range", [1, 5], True),
)


def picker_names() -> list[str]:
    """The functions offered in the picker: each base function and its `not_` form."""
    names = []
    for name in function_names():
        check = lookup(name)
        if check is None:
            continue
        if name == check.canonical or (check.negated and name == f"not_{check.canonical}"):
            names.append(name)
    return sorted(names)


def picker_label(name: str) -> str:
    """A picker option: the function's name and its one-line description, in plain words."""
    check = lookup(name)
    if check is None:
        return name
    base = lookup(name.removeprefix("not_")) if check.negated else None
    about = f"The opposite of {base.canonical}: 1 minus its score." if base else check.summary
    return one_line(f"{name} — {plain_words(about)}", 120)


def arg_kind(name: str) -> str:
    """How the form asks for this function's argument: none, text, list, n_of, range, yaml."""
    check = lookup(name)
    if check is None:
        return "yaml"
    ok = [kind for kind, sample, has in SAMPLES if check.arg_error(sample, has) is None]
    if ok == ["none"] or (len(ok) == len(SAMPLES) and check.args.startswith("none")):
        return "none"
    if len(ok) == len(SAMPLES) or not ok:
        return "yaml"
    return ok[0] if ok[0] != "none" else ok[1]


def parse_args(kind: str, key: str) -> tuple[Any, bool]:
    """The argument typed in the fields of point `key`, and whether there is one.

    Raises:
        ValueError: A number or YAML field does not hold what it should.
    """
    if kind == "none":
        return None, False
    if kind == "text":
        return str(value(f"{key}:arg") or ""), True
    if kind == "list":
        lines = str(value(f"{key}:arg") or "").splitlines()
        return [line for line in lines if line.strip()], True
    if kind == "n_of":
        lines = str(value(f"{key}:arg") or "").splitlines()
        return [int(value(f"{key}:n") or 1), [line for line in lines if line.strip()]], True
    if kind == "range":
        return [int(value(f"{key}:min") or 0), int(value(f"{key}:max") or 0)], True
    typed = str(value(f"{key}:arg") or "")
    return typed_value(typed) if typed.strip() else None, bool(typed.strip())


def _spec(point: PointView, key: str) -> PointSpec:
    kind = value(f"{key}:kind") or point.kind
    weight = value(f"{key}:weight")
    weight = None if weight in (None, 1, 1.0) else float(weight)
    citation = str(value(f"{key}:citation") or "").strip() or None
    if kind == "text":
        text = str(value(f"{key}:text") if value(f"{key}:text") is not None else point.text or "")
        return PointSpec(text=text, weight=weight, citation=citation)
    name = str(value(f"{key}:fn") or point.fn or "contains")
    args, has = parse_args(arg_kind(name), key)
    return PointSpec(fn=name, args=args, has_args=has, weight=weight, citation=citation)


def _args_fields(point: PointView, key: str, name: str) -> None:
    kind = arg_kind(name)
    same = point.fn == name
    args = point.args if same else None

    def change(part: str, shown: Any) -> dict[str, Any]:
        return bound(f"{key}:{part}", shown, lambda: EditPoint(point.ref, _spec(point, key)))

    check = lookup(name)
    help_text = f"{check.summary} Argument: {check.args}." if check else None
    if kind == "text":
        st.text_input(
            "Argument", help=help_text, **change("arg", args if isinstance(args, str) else "")
        )
    elif kind in ("list", "n_of"):
        items = args[1] if kind == "n_of" and isinstance(args, list) and len(args) == 2 else args
        lines = "\n".join(str(a) for a in items) if isinstance(items, list) else ""
        if kind == "n_of":
            n = args[0] if isinstance(args, list) and args and isinstance(args[0], int) else 1
            st.number_input("At least", min_value=0, step=1, **change("n", n))
        st.text_area("One per line", help=help_text, height=90, **change("arg", lines))
    elif kind == "range":
        low, high = (args if isinstance(args, list) and len(args) == 2 else [0, 100])[:2]
        cols = st.columns(2)
        with cols[0]:
            st.number_input("From", step=1, **change("min", low if isinstance(low, int) else 0))
        with cols[1]:
            st.number_input("To", step=1, **change("max", high if isinstance(high, int) else 100))
    elif kind == "yaml":
        shown = "" if args is None else json.dumps(args, ensure_ascii=False)
        st.text_input("Argument (YAML)", help=help_text, **change("arg", shown))


def _point(point: PointView, key: str, *, blocks: list[int]) -> None:
    ref = point.ref
    if point.kind == "read-only":
        st.caption(safe_markdown(point.note))
        shown = {f"${point.fn}": plain(point.args)} if point.fn else "(see the YAML view)"
        st.code(yaml.safe_dump(shown, allow_unicode=True, sort_keys=False).strip(), language="yaml")
    else:
        cols = st.columns([2, 5, 1], vertical_alignment="bottom")

        def edit(part: str, shown: Any) -> dict[str, Any]:
            return bound(f"{key}:{part}", shown, lambda: EditPoint(ref, _spec(point, key)))

        with cols[0]:
            st.selectbox(
                "Kind", list(KINDS), format_func=KINDS.__getitem__, **edit("kind", point.kind)
            )
        with cols[1]:
            if point.kind == "text":
                st.text_input("Criterion", **edit("text", point.text or ""))
            else:
                names = picker_names()
                name = point.fn or "contains"
                options = names if name in names else [name, *names]
                st.selectbox(
                    "Function",
                    options,
                    format_func=picker_label,
                    filter_mode="prefix",  # `icontains_any` + Enter picks icontains_any_of
                    **edit("fn", name),
                )
        with cols[2]:
            st.number_input(
                "Weight",
                min_value=0.0,
                step=0.5,
                **bound(
                    f"{key}:weight",
                    float(point.weight or 1),
                    lambda: SetPointWeight(ref, value(f"{key}:weight")),
                ),
            )
        if point.kind == "function":
            _args_fields(point, key, str(value(f"{key}:fn") or point.fn or "contains"))
    _actions(point, key, blocks)
    show_diagnostics(point.diagnostics, key)


def _actions(point: PointView, key: str, blocks: list[int]) -> None:
    ref = point.ref
    at = ref.sub if ref.sub is not None else ref.index
    # one row of buttons at their own width: in columns of a narrow form they were clipped
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.button(
            "Up",
            key=f"{PREFIX}{key}:up",
            help="Move up",
            icon=":material/arrow_upward:",
            on_click=do,
            args=(lambda: MovePoint(ref, at - 1),),
        )
        st.button(
            "Down",
            key=f"{PREFIX}{key}:down",
            help="Move down",
            icon=":material/arrow_downward:",
            on_click=do,
            args=(lambda: MovePoint(ref, at + 1),),
        )
        st.button(
            "",
            key=f"{PREFIX}{key}:copy",
            help="Duplicate this point",
            on_click=do,
            args=(lambda: DuplicatePoint(ref),),
            icon=":material/content_copy:",
        )
        if ref.sub is not None:
            st.button(
                "Take out of the block",
                key=f"{PREFIX}{key}:out",
                on_click=do,
                args=(lambda: MoveOutOfBlock(ref),),
            )
        else:
            st.checkbox("Select to group", key=f"{PREFIX}{key}:pick")
            targets = [b for b in blocks if b != ref.index]
            if targets:
                st.selectbox(
                    "Move into an alternative",
                    [None, *targets],
                    key=f"{PREFIX}{key}:into",
                    format_func=lambda b: "—" if b is None else f"alternative at item {b + 1}",
                    on_change=do,
                    args=(lambda: _into(ref, key),),
                    width=220,
                )
        st.button(
            "",
            key=f"{PREFIX}{key}:delete",
            help="Delete this point",
            on_click=do,
            args=(lambda: DeletePoint(ref),),
            icon=":material/delete:",
        )


def _into(ref: PointRef, key: str) -> MoveIntoBlock | None:
    target = value(f"{key}:into")
    return None if target is None else MoveIntoBlock(ref, int(target))


def _group(view: PromptView, inverted: bool) -> GroupPoints | None:
    picked = tuple(
        item.ref.index
        for item in (view.should_not if inverted else view.should)
        if isinstance(item, PointView) and value(f"{_key(item.ref)}:pick")
    )
    if len(picked) < 2:
        raise EditError("Tick “Select to group” on two or more points of this list first.")
    return GroupPoints(view.index, picked, inverted)


def _key(ref: PointRef) -> str:
    sub = "" if ref.sub is None else f".{ref.sub}"
    return f"p{ref.prompt}:{'not' if ref.inverted else 'should'}:{ref.index}{sub}"


def _block(view: PromptView, block: BlockView, inverted: bool, blocks: list[int]) -> None:
    """An "any one of these" block: its alternatives, each with the points it needs."""
    count = len(block.alternatives)
    st.markdown(
        f"**Any one of these** · {count} alternative{'s' if count != 1 else ''}",
        help="Weval's alternative paths: each alternative is one nested list in the YAML.",
    )
    st.caption(safe_markdown(block.effect))
    for n, alt in enumerate(block.alternatives, start=1):
        with st.container(border=True):
            needed = len(alt.points)
            st.markdown(
                f"**Alternative {n}**"
                + (f" · all {needed} points needed" if needed > 1 else " · one point")
            )
            for point in alt.points:
                with st.container(border=True):
                    _point(point, _key(point.ref), blocks=blocks)
            st.button(
                "Add a point to this alternative",
                key=f"{PREFIX}p{view.index}:{inverted}:addin:{alt.index}",
                on_click=do,
                args=(
                    lambda b=alt.index: AddPoint(
                        view.index, PointSpec(text="New point"), inverted, b
                    ),
                ),
                help="The new point is needed together with this alternative's other points.",
            )
            show_diagnostics(alt.diagnostics, f"alt:{view.index}:{inverted}:{alt.index}")
    st.button(
        "Add an alternative",
        key=f"{PREFIX}p{view.index}:{inverted}:addalt",
        on_click=do,
        args=(lambda: AddAlternative(view.index, PointSpec(text="New point"), inverted),),
        icon=":material/add:",
        help="Another way to meet this block: any one alternative is enough.",
    )
    show_diagnostics(
        [d for d in block.diagnostics if d.code not in ("or-block-with-required",)],
        f"block:{view.index}:{inverted}:{block.index}",
    )


def _invert_button(point: PointView, inverted: bool) -> None:
    """“Move to should not”: a check is written as its `$not_` form, staying under `should`."""
    turned = opposite(point.fn) if point.kind == "function" and point.fn else None
    if not inverted and turned is not None:
        spec = PointSpec(
            fn=turned,
            args=point.args,
            has_args=point.has_args,
            weight=point.weight,
            citation=point.citation,
        )
        st.button(
            "Move to “should not”",
            key=f"{PREFIX}{_key(point.ref)}:invert",
            on_click=do,
            args=(lambda r=point.ref, s=spec: EditPoint(r, s),),
            help=f"Written as `${turned}` under `should`: Weval's way to say “should not” "
            "for a check (it scores 1 − the check).",
        )
        return
    st.button(
        "Move to “should not”" if not inverted else "Move to “should”",
        key=f"{PREFIX}{_key(point.ref)}:invert",
        on_click=do,
        args=(lambda r=point.ref: ToggleInverted(r),),
    )


def _list(view: PromptView, inverted: bool) -> None:
    items = view.should_not if inverted else view.should
    blocks = [a.index for item in items if isinstance(item, BlockView) for a in item.alternatives]
    for item in items:
        with st.container(border=True):
            if isinstance(item, BlockView):
                _block(view, item, inverted, blocks)
            else:
                label = "should not" if inverted else "should"
                st.caption(f"Item {item.ref.index + 1} · the answer {label} meet this")
                _point(item, _key(item.ref), blocks=blocks)
                _invert_button(item, inverted)


def _add_check(prompt: int, inverted: bool) -> AddPoint:
    """A new check; under “should not” it is the `$not_` form, added to `should`."""
    if inverted:
        return AddPoint(prompt, PointSpec(fn="not_icontains", args="word"), False)
    return AddPoint(prompt, PointSpec(fn="icontains", args="word"), False)


def points_section(view: PromptView) -> None:
    """The prompt's `should` and `should_not` points, with add, group and move controls."""
    p = view.index
    for inverted, title in ((False, "The answer should"), (True, "The answer should not")):
        st.markdown(f"**{title}**")
        if inverted:
            st.caption(
                "A check added here is written as its `$not_` form under `should`, as Weval "
                "recommends; points in words stay here, under `should_not`."
            )
        _list(view, inverted)
        cols = st.columns(3)
        cols[0].button(
            "Add a point",
            key=f"{PREFIX}p{p}:{inverted}:add-text",
            on_click=do,
            args=(lambda inv=inverted: AddPoint(p, PointSpec(text="New point"), inv),),
            icon=":material/add:",
        )
        cols[1].button(
            "Add a check",
            key=f"{PREFIX}p{p}:{inverted}:add-fn",
            on_click=do,
            args=(lambda inv=inverted: _add_check(p, inv),),
            icon=":material/functions:",
        )
        cols[2].button(
            "Make a block",
            key=f"{PREFIX}p{p}:{inverted}:group",
            on_click=do,
            args=(lambda inv=inverted: _group(view, inv),),
            help="Make the points ticked “Select to group” the alternatives of one “any one of "
            "these” block: an answer that meets any one of them gets the block's full score.",
        )
