"""What the form shows: each field as written, whether the form can edit it, its diagnostics.

Built from the parser's fast loader (never ruamel), one prompt at a time, so a page of the
form costs the same in a 2,000-prompt blueprint as in a small one. Anything the form cannot
edit (an unknown key, a `$js` body, a `$ref` to `point_defs`, a value of an unusual shape) is
kept as a read-only field whose note says to edit it in the YAML view: it is never dropped.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.blueprint.layout import split_layout
from engine.blueprint.source import Span, YList, YMap, load_yaml_documents
from engine.edit import values
from engine.edit.edits import PointRef
from engine.edit.nodes import EditError
from engine.edit.scope import POINT_KEYS
from engine.edit.session import EditSession
from engine.edit.values import editable_value
from engine.errors import BlueprintError
from engine.lint import Diagnostic
from engine.lint.diagnostics import line_offsets

__all__ = [
    "AlternativeView",
    "BlockView",
    "FieldView",
    "HeaderView",
    "PointView",
    "PromptView",
    "header_view",
    "prompt_view",
]

judges_of = values.judges_of
turns = values.turns

Lines = tuple[int, int]
HEADER_FIELDS: dict[str, tuple[str, ...]] = {
    "title": ("title", "configTitle"),
    "description": ("description",),
    "models": ("models",),
    "tags": ("tags",),
    "system": ("system", "systemPrompt"),
    "systems": ("systems",),
    "temperature": ("temperature",),
    "temperatures": ("temperatures",),
    "evaluationConfig": ("evaluationConfig",),
}
PROMPT_FIELDS: dict[str, tuple[str, ...]] = {
    "id": ("id",),
    "prompt": ("prompt", "promptText"),
    "messages": ("messages",),
    "ideal": ("ideal", "idealResponse"),
    "system": ("system",),
    "weight": ("weight", "importance", "multiplier"),
    "citation": ("citation", "reference"),
    "description": ("description",),
}
_POINT_LISTS = (*POINT_KEYS, "should_not")
_BLOCK_CODES = ("or-block-with-required", "single-element-path", "should-not-path-merge")
"""Diagnostics about a block as a whole; their message says what the block does to the score."""
READ_ONLY = "The form cannot show this; edit it in the YAML view."


@dataclass(frozen=True, slots=True)
class FieldView:
    """One field as written: `name` is the form's name, `key` the key in the YAML."""

    name: str
    key: str
    value: Any
    editable: bool
    note: str
    lines: Lines | None
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class PointView:
    """One point: `kind` is `text`, `function`, or `read-only` (see `note`)."""

    ref: PointRef
    kind: Literal["text", "function", "read-only"]
    text: str | None
    fn: str | None
    args: Any
    has_args: bool
    weight: float | None
    citation: str | None
    note: str
    lines: Lines | None
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class AlternativeView:
    """One alternative of a block: a path (nested list) whose points are all needed."""

    index: int
    """The path's item number in its list (0-based)."""
    points: tuple[PointView, ...]
    lines: Lines | None
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class BlockView:
    """An "any one of these" block: every path of a list, each one alternative.

    Weval scores the block as its best alternative; an alternative's points are averaged.
    """

    index: int
    """The item number of its first path."""
    inverted: bool
    alternatives: tuple[AlternativeView, ...]
    effect: str
    lines: Lines | None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def points(self) -> tuple[PointView, ...]:
        """The points of every alternative, in order."""
        return tuple(p for alt in self.alternatives for p in alt.points)


@dataclass(frozen=True, slots=True)
class PromptView:
    """One prompt as the form shows it."""

    index: int
    fields: tuple[FieldView, ...]
    should: tuple[PointView | BlockView, ...]
    should_not: tuple[PointView | BlockView, ...]
    extras: tuple[FieldView, ...]
    lines: Lines
    diagnostics: tuple[Diagnostic, ...] = ()

    def field(self, name: str) -> FieldView | None:
        """The field named `name` (`ideal` also finds `idealResponse`), or None."""
        return next((f for f in self.fields if f.name == name), None)


@dataclass(frozen=True, slots=True)
class HeaderView:
    """The header fields, the read-only rest, and diagnostics about the header."""

    fields: tuple[FieldView, ...]
    extras: tuple[FieldView, ...]
    diagnostics: tuple[Diagnostic, ...] = ()

    def field(self, name: str) -> FieldView | None:
        """The field named `name`, or None."""
        return next((f for f in self.fields if f.name == name), None)


BLOCK_EFFECT = (
    "Any one alternative is enough: the block scores as its best alternative, and the points "
    "inside one alternative are all needed (their scores are averaged)."
)


def _lines(raw: Any, key: str | int, shift: int) -> Lines | None:
    span: Span | None = None
    end: Span | None = None
    if isinstance(raw, YMap) and isinstance(key, str):
        span, end = raw.key_spans.get(key), raw.value_spans.get(key)
    elif isinstance(raw, YList) and isinstance(key, int) and key < len(raw.item_spans):
        span = end = raw.item_spans[key]
    if span is None:
        return None
    last = end.end_line if end is not None else span.end_line
    if end is not None and last > span.line and end.end_column <= span.column:
        last -= 1  # a block node's span runs on to where the next sibling starts
    return span.line + shift, last + shift


def _fields(
    raw: YMap, known: dict[str, tuple[str, ...]], shift: int
) -> tuple[list[FieldView], list[FieldView]]:
    fields: list[FieldView] = []
    used: set[str] = set()
    for name, keys in known.items():
        for key in keys:
            if key in raw:
                ok = editable_value(name, raw[key])
                fields.append(
                    FieldView(
                        name, key, raw[key], ok, "" if ok else READ_ONLY, _lines(raw, key, shift)
                    )
                )
                used.add(key)
                break
    extras = [
        FieldView(str(k), str(k), v, False, READ_ONLY, _lines(raw, str(k), shift))
        for k, v in raw.items()
        if k not in used and k not in _POINT_LISTS and k != "prompts"
    ]
    return fields, extras


def _point(ref: PointRef, value: Any, lines: Lines | None, *, in_block: bool) -> PointView:
    def view(kind: Any, text: Any = None, fn: Any = None, args: Any = None, has: bool = False,
             weight: Any = None, citation: Any = None, note: str = "") -> PointView:  # fmt: skip
        return PointView(ref, kind, text, fn, args, has, weight, citation, note, lines)

    if isinstance(value, str):
        if not in_block and value.startswith("$") and len(value) > 1:
            return view("function", fn=value[1:])
        return view("text", text=value)
    if not isinstance(value, dict) or not value:
        return view("read-only", note=READ_ONLY)
    weight = value.get("weight", value.get("multiplier"))
    citation = value.get("citation")
    if not (weight is None or isinstance(weight, int | float)) or isinstance(weight, bool):
        return view("read-only", note=READ_ONLY)
    if not (citation is None or isinstance(citation, str)):
        return view("read-only", note="The citation is an object; edit it in the YAML view.")
    fn_key = next((k for k in value if isinstance(k, str) and k.startswith("$")), None)
    extra = set(value) - {"weight", "multiplier", "citation"}
    if fn_key is not None:
        name = fn_key[1:]
        if name == "ref":
            note = "Uses a shared definition from `point_defs` ($ref); edit it in the YAML view."
            return view("read-only", fn=name, args=value[fn_key], has=True, note=note)
        if name in ("js", "expr"):
            note = "JavaScript ($js) is edited in the YAML view."
            return view("read-only", fn=name, args=value[fn_key], has=True, note=note)
        if extra != {fn_key}:
            return view("read-only", note=READ_ONLY)
        return view(
            "function", fn=name, args=value[fn_key], has=True, weight=weight, citation=citation
        )
    if extra == {"text"} or extra == {"point"}:
        text = value.get("text", value.get("point"))
        if isinstance(text, str):
            return view("text", text=text, weight=weight, citation=citation)
    if extra <= {"fn", "fnArgs", "arg"} and isinstance(value.get("fn"), str):
        args = value.get("fnArgs", value.get("arg"))
        has = "fnArgs" in value or "arg" in value
        return view(
            "function", fn=value["fn"], args=args, has=has, weight=weight, citation=citation
        )
    if len(value) == 1:
        ((text, cited),) = value.items()
        if isinstance(text, str) and isinstance(cited, str):
            return view("text", text=text, citation=cited)
    return view("read-only", note=READ_ONLY)


def _points(
    prompt: int, raw: YMap, key: str | None, inverted: bool, shift: int
) -> list[PointView | BlockView]:
    items = raw.get(key) if key is not None else None
    if not isinstance(items, list):
        return []
    out: list[PointView | BlockView] = []
    alternatives: list[AlternativeView] = []
    for i, item in enumerate(items):
        lines = _lines(items, i, shift)
        if isinstance(item, list):
            points = tuple(
                _point(PointRef(prompt, i, inverted, j), sub, _lines(item, j, shift), in_block=True)
                for j, sub in enumerate(item)
            )
            if not alternatives:  # the block stands where its first path is written
                out.append(BlockView(i, inverted, (), BLOCK_EFFECT, lines))
            alternatives.append(AlternativeView(i, points, lines))
        else:
            out.append(_point(PointRef(prompt, i, inverted), item, lines, in_block=False))
    if alternatives:
        at, block = next((k, v) for k, v in enumerate(out) if isinstance(v, BlockView))
        first, last = alternatives[0].lines, alternatives[-1].lines
        span = (first[0], last[1]) if first is not None and last is not None else first
        out[at] = replace(block, alternatives=tuple(alternatives), lines=span)
    return out


def _inside(d: Diagnostic, lines: Lines | None) -> bool:
    return lines is not None and lines[0] <= d.line <= lines[1]


def _attach(views: list[Any], diagnostics: list[Diagnostic]) -> tuple[list[Any], list[Diagnostic]]:
    """Give each view the diagnostics on its lines; return the views and the ones left over."""
    left = list(diagnostics)
    out = []
    for view in views:
        if isinstance(view, BlockView):
            own = [
                d
                for d in left
                if d.code in _BLOCK_CODES and any(_inside(d, a.lines) for a in view.alternatives)
            ]
            left = [d for d in left if d not in own]
            alternatives = []
            for alt in view.alternatives:
                points, left = _attach(list(alt.points), left)
                rest = [d for d in left if _inside(d, alt.lines)]
                left = [d for d in left if d not in rest]
                alternatives.append(replace(alt, points=tuple(points), diagnostics=tuple(rest)))
            mine = own
            said = [d.message for d in own if d.code != "single-element-path"]
            effect = " ".join([BLOCK_EFFECT, *said[:1]])
            view = replace(
                view, alternatives=tuple(alternatives), effect=effect, diagnostics=tuple(own)
            )
        else:
            mine = [d for d in left if _inside(d, view.lines)]
            view = _with(view, tuple(mine))
        left = [d for d in left if d not in mine]
        out.append(view)
    return out, left


def _with(view: Any, diagnostics: tuple[Diagnostic, ...]) -> Any:
    return replace(view, diagnostics=diagnostics)


def _load(text: str) -> Any:
    try:
        docs = load_yaml_documents(text)
    except BlueprintError as exc:
        raise EditError(str(exc)) from None
    return docs


def prompt_view(session: EditSession, index: int) -> PromptView:
    """The form of prompt `index` (0-based) with its diagnostics.

    Raises:
        EditError: There is no such prompt, or the text cannot be read.
    """
    layout = session.layout
    if not 0 <= index < len(layout.regions):
        raise EditError(f"There is no prompt number {index + 1} in this blueprint.")
    start, end = layout.regions[index]
    text = session.text
    first = text.count("\n", 0, start) + 1
    last = first + text.count("\n", start, end) - (1 if text[start:end].endswith("\n") else 0)
    if layout.block:
        docs = _load(text[start:end])
        raw = docs[0][0] if docs else None
        if isinstance(raw, list) and len(raw) == 1:
            raw = raw[0]
        shift = first - 1
    else:
        raw = split_layout(_load(text), "yaml")[1][index][0]
        shift = 0
    if not isinstance(raw, YMap):
        raise EditError("This prompt is not a mapping of fields; edit it in the YAML view.")
    fields, extras = _fields(raw, PROMPT_FIELDS, shift)
    should_key = next((k for k in POINT_KEYS if raw.get(k)), None) or next(
        (k for k in POINT_KEYS if k in raw), None
    )
    extras = [e for e in extras if e.key != should_key]
    diags = [d for d in session.diagnostics if first <= d.line <= last]
    should, diags = _attach(_points(index, raw, should_key, False, shift), diags)
    should_not, diags = _attach(_points(index, raw, "should_not", True, shift), diags)
    fields, diags = _attach(fields, diags)
    extras, diags = _attach(extras, diags)
    return PromptView(
        index,
        tuple(fields),
        tuple(should),
        tuple(should_not),
        tuple(extras),
        (first, last),
        tuple(diags),
    )


def header_view(session: EditSession) -> HeaderView:
    """The form of the header, with the diagnostics that are not about a prompt."""
    layout = session.layout
    text = session.text
    raw: Any = YMap()
    shift = 0
    if layout.header is not None:
        start, end = layout.header
        docs = _load(text[start:end])
        raw = docs[0][0] if docs else YMap()
        shift = text.count("\n", 0, start)
    elif layout.kind in ("header-only", "prompts-key"):
        docs = _load(text)
        raw = docs[0][0] if docs else YMap()
    if not isinstance(raw, YMap):
        raw = YMap()
    fields, extras = _fields(raw, HEADER_FIELDS, shift)
    starts = line_offsets(text)
    ranges = [
        (bisect_right(starts, s), bisect_right(starts, max(s, e - 1))) for s, e in layout.regions
    ]
    firsts = [a for a, _b in ranges]

    def in_prompt(line: int) -> bool:
        i = bisect_right(firsts, line) - 1
        return i >= 0 and ranges[i][0] <= line <= ranges[i][1]

    diags = [d for d in session.diagnostics if not in_prompt(d.line)]
    fields, diags = _attach(fields, diags)
    extras, diags = _attach(extras, diags)
    return HeaderView(tuple(fields), tuple(extras), tuple(diags))
