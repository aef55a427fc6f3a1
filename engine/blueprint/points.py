"""`should` / `should_not` items to Weval's normalized points, and `$ref` expansion (spec §2)."""

from __future__ import annotations

import math
from typing import Any

from engine.blueprint.source import Span, positioned, span_of_item
from engine.blueprint.text import excerpt, short
from engine.errors import BlueprintError
from engine.js.values import UNDEFINED, js_json_stringify, js_number_str, js_truthy

__all__ = ["expand_refs", "normalize_fn_name", "normalize_point_list"]

# Spans mirror the structure of normalized points: a Span for a single point, a list of
# Spans for an alternative path.
PointSpans = list[Any]


def _pid(prompt_id: Any) -> str:
    return short(prompt_id)


def _found(value: Any) -> str:
    return excerpt(js_json_stringify(value) or "undefined", 60, quote=False)


def normalize_fn_name(fn: str) -> str:
    """Apply the parser's singular-name rewrite: `contain…` -> `contains…`, `match…` -> `matches…`."""
    if fn.startswith("contain") and not fn.startswith("contains"):
        fn = "contains" + fn[len("contain") :]
    if fn.startswith("match") and not fn.startswith("matches"):
        fn = "matches" + fn[len("match") :]
    return fn


def _nullish(value: Any) -> bool:
    return value is None or value is UNDEFINED


def _get(obj: dict[str, Any], key: str) -> Any:
    return obj.get(key, UNDEFINED)


def _check_multiplier(value: Any, prompt_id: Any, span: Span | None) -> None:
    ok = (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and not math.isnan(value)
        and 0.1 <= value <= 10
    )
    if not ok:
        shown = short(value) if not isinstance(value, dict | list) else _found(value)
        upstream = (
            f"Point multiplier must be a number between 0.1 and 10. Found {shown}. "
            f"Prompt ID: '{_pid(prompt_id) if js_truthy(prompt_id) else 'unknown'}'"
        )
        raise BlueprintError(
            f"{upstream}. Use a weight from 0.1 (minor) to 10 (critical), for example `weight: 2`.",
            line=span.line if span else None,
            column=span.column if span else None,
            upstream=upstream,
        )


def _normalize_object(exp: dict[str, Any], prompt_id: Any, span: Span | None) -> dict[str, Any]:
    """Normalize one object item (idiomatic `$fn`, full object, or citation shorthand)."""
    point: dict[str, Any] = {}
    keys = list(exp)
    fn_key = next((k for k in keys if k.startswith("$")), None)
    multiplier: Any = UNDEFINED
    if fn_key is not None:
        point["fn"] = fn_key[1:]
        point["fnArgs"] = exp[fn_key]
        weight = _get(exp, "weight")
        multiplier = _get(exp, "multiplier") if _nullish(weight) else weight
        point["citation"] = _get(exp, "citation")
    elif (
        js_truthy(_get(exp, "text")) or js_truthy(_get(exp, "point")) or js_truthy(_get(exp, "fn"))
    ):
        text = _get(exp, "text")
        point["text"] = text if js_truthy(text) else _get(exp, "point")
        point["fn"] = _get(exp, "fn")
        fn_args = _get(exp, "fnArgs")
        point["fnArgs"] = fn_args if js_truthy(fn_args) else _get(exp, "arg")
        weight = _get(exp, "weight")
        multiplier = _get(exp, "multiplier") if _nullish(weight) else weight
        point["citation"] = _get(exp, "citation")
    elif len(keys) == 1 and isinstance(exp[keys[0]], str):
        point["text"] = keys[0]
        point["citation"] = exp[keys[0]]

    fn = point.get("fn", UNDEFINED)
    text = point.get("text", UNDEFINED)
    if js_truthy(fn) and js_truthy(text):
        upstream = (
            f"Invalid point in prompt '{_pid(prompt_id)}': Point cannot have both 'text' and "
            f"'fn' defined. Found: {_found(exp)}"
        )
        raise positioned(
            upstream + ". A point is either judged text or a function: split it into two points.",
            span,
            upstream,
        )
    if not js_truthy(fn) and not js_truthy(text):
        upstream = (
            f"Invalid point object in prompt '{_pid(prompt_id)}': Point must define 'text', a "
            f"function ('fn' or '$...'), or a 'Point: Citation' pair. Found: {_found(exp)}"
        )
        raise positioned(
            upstream + ". Write the criterion as text (`- point: ...`) or a function "
            "(`- $contains: ...`).",
            span,
            upstream,
        )
    if js_truthy(fn):
        if not isinstance(fn, str):
            raise positioned(
                f"In prompt '{_pid(prompt_id)}', `fn` must be the name of a function written "
                f"as text, not {_found(fn)}. For example `fn: contains`.",
                span,
            )
        point["fn"] = normalize_fn_name(fn)
    if _nullish(multiplier):
        multiplier = 1
    _check_multiplier(multiplier, prompt_id, span)
    point["multiplier"] = multiplier
    # Keys whose value is undefined are dropped, as JSON output drops them.
    return {k: v for k, v in point.items() if v is not UNDEFINED}


def _normalize_path(
    exp: list[Any], prompt_id: Any, span: Span | None
) -> tuple[list[dict[str, Any]], list[Span | None]]:
    """Normalize a nested list (one alternative path)."""
    if exp and isinstance(exp[0], list):
        upstream = (
            f"Nested arrays within nested arrays are not supported in prompt "
            f"'{_pid(prompt_id)}'. Found: {_found(exp)}"
        )
        inner = span_of_item(exp, 0) or span
        raise positioned(
            upstream + ". An alternative path is one level of nesting (`- - point`); remove the "
            "extra brackets or dash.",
            inner,
            upstream,
        )
    kept = [
        (i, item)
        for i, item in enumerate(exp)
        if not (item is None or (isinstance(item, list) and not item))
    ]
    path: list[dict[str, Any]] = []
    spans: list[Span | None] = []
    for i, item in kept:
        item_span = span_of_item(exp, i) or span
        if isinstance(item, list):
            upstream = (
                f"Nested arrays within alternative paths are not supported in prompt "
                f"'{_pid(prompt_id)}'. Found: {_found(item)}"
            )
            raise positioned(
                upstream + ". Each point of an alternative path must be a text or a function, "
                "not another list.",
                item_span,
                upstream,
            )
        if isinstance(item, str):
            path.append({"text": item, "multiplier": 1})
        elif isinstance(item, dict):
            path.append(_normalize_object(item, prompt_id, item_span))
        else:
            upstream = (
                f"Invalid point format in alternative path in prompt '{_pid(prompt_id)}'. "
                f"Point must be a string or object. Found: {_found(item)}"
            )
            raise positioned(
                upstream + ". Write the point as text or as `$function: argument`.",
                item_span,
                upstream,
            )
        spans.append(item_span)
    return path, spans


def normalize_point_list(
    items: Any, prompt_id: Any, list_span: Span | None
) -> tuple[list[Any], PointSpans]:
    """Normalize a `should` (or `should_not`) list as Weval's parser does.

    Args:
        items: The raw list (a non-list gives an empty list, as upstream).
        prompt_id: The prompt's raw id, for messages.
        list_span: Where the list is written, used when an item has no span of its own.

    Returns:
        The normalized points (dicts, or lists of dicts for alternative paths) and their spans.

    Raises:
        BlueprintError: An item cannot be a point; the message says how to write it.
    """
    if not isinstance(items, list):
        return [], []
    out: list[Any] = []
    spans: PointSpans = []
    for i, exp in enumerate(items):
        span = span_of_item(items, i) or list_span
        if isinstance(exp, str):
            if exp.startswith("$") and len(exp) > 1:
                out.append({"fn": exp[1:], "multiplier": 1})
            else:
                out.append({"text": exp, "multiplier": 1})
            spans.append(span)
        elif isinstance(exp, list):
            path, path_spans = _normalize_path(exp, prompt_id, span)
            if path:
                out.append(path)
                spans.append(path_spans)
        elif isinstance(exp, dict):
            out.append(_normalize_object(exp, prompt_id, span))
            spans.append(span)
        else:
            shown = _found(exp)
            upstream = (
                f"Invalid point format in prompt '{_pid(prompt_id)}': Point must be a string, "
                f"array, or object. Found: {shown}"
            )
            hint = (
                " Put numbers and yes/no words in quotes if they are meant as text."
                if not _nullish(exp)
                else " Remove the empty `-` item."
            )
            raise positioned(upstream + "." + hint, span, upstream)
    return out, spans


def _ref_error(message: str, span: Any) -> BlueprintError:
    return positioned(message, span if isinstance(span, Span) else None)


def expand_refs(points: Any, spans: Any, defs: dict[str, Any], prompt_id: Any) -> Any:
    """Replace `{fn: 'ref'}` points by their `point_defs` definition (spec §2.5)."""
    if isinstance(points, list):
        return [
            expand_refs(
                p,
                spans[i] if isinstance(spans, list) and i < len(spans) else spans,
                defs,
                prompt_id,
            )
            for i, p in enumerate(points)
        ]
    if not isinstance(points, dict) or points.get("fn") != "ref":
        return points
    ref = points.get("fnArgs", UNDEFINED)
    name: Any = None
    if isinstance(ref, str):
        name = ref
    elif isinstance(ref, dict) and js_truthy(ref):
        name = ref.get("name") if js_truthy(ref.get("name")) else ref
    where = _pid(prompt_id) if js_truthy(prompt_id) else "unknown"
    if not isinstance(name, str) or not name:
        msg = f"Invalid $ref usage in prompt '{short(where)}'. Expected a string name."
        raise _ref_error(msg + " Write `- $ref: name_of_definition`.", spans)
    if name not in defs:
        msg = f"Undefined definition '{short(name)}' referenced in prompt '{short(where)}'."
        known = ", ".join(sorted(defs)) or "none"
        raise _ref_error(
            f"{msg} Add it under `point_defs:` in the header (defined: {known}).", spans
        )
    definition = defs[name]
    if isinstance(definition, str):
        expanded: dict[str, Any] = {"fn": "js", "fnArgs": definition}
        multiplier = points.get("multiplier", UNDEFINED)
        expanded["multiplier"] = 1 if _nullish(multiplier) else multiplier
        if "citation" in points:
            expanded["citation"] = points["citation"]
        return expanded
    if isinstance(definition, dict):
        return dict(definition)
    msg = f"Definition '{short(name)}' is of unsupported type."
    raise _ref_error(
        f"{msg} A definition is JavaScript text or a point such as `{{$js: ...}}`; found "
        f"{js_number_str(definition) if isinstance(definition, int | float) else _found(definition)}.",
        spans,
    )
