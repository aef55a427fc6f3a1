"""Rubric items: alternative paths, `$` text in the wrong place, weights, `should_not`."""

from __future__ import annotations

import math
import re
from typing import Any

from engine.blueprint.source import Span, YList, YMap, load_yaml_documents
from engine.blueprint.text import excerpt
from engine.js.values import js_number_str, js_truthy
from engine.lint.context import LintContext, PointRef, PromptRef, used_point_key
from engine.lint.diagnostics import Fix
from engine.lint.ignore import ignore_comment, silenced
from engine.lint.text import SourceText

__all__ = ["KEEP_COMMENT", "KEEP_TITLE", "RULES", "function_form", "split_function_text"]

_FUNCTION_TEXT = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)\s*:(.*)", re.DOTALL)
_ZERO_ARG = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)\s*")


def split_function_text(text: str) -> tuple[str, str | None] | None:
    """Split `$name: arg` (or `$name`) written as one string into (name, arg text or None)."""
    m = _FUNCTION_TEXT.fullmatch(text)
    if m:
        return m.group(1), m.group(2).strip()
    m = _ZERO_ARG.fullmatch(text)
    return (m.group(1), None) if m else None


def _yaml_arg(arg: str) -> str:
    """The argument as YAML: kept as written when it reads back as one value, else quoted."""
    if arg and "\n" not in arg and "#" not in arg:
        try:
            docs = load_yaml_documents(f"k: {arg}\n")
            if len(docs) == 1 and isinstance(docs[0][0], dict) and list(docs[0][0]) == ["k"]:
                return arg
        except Exception:  # not readable as YAML: quote it below
            pass
    if len(arg) >= 2 and arg[0] == arg[-1] and arg[0] in "'\"":
        arg = arg[1:-1]
    return "'" + arg.replace("'", "''") + "'"


def function_form(name: str, arg: str | None, *, flow: bool) -> str:
    """`$name: arg` as a YAML mapping (in braces inside a `[...]` list)."""
    body = f"${name}: {_yaml_arg(arg) if arg else 'null'}"
    return "{" + body + "}" if flow else body


def _paths(items: list[Any]) -> tuple[list[int], int]:
    """Indexes of the alternative paths that Weval keeps, and the number of required items."""
    paths: list[int] = []
    required = 0
    for i, item in enumerate(items):
        if isinstance(item, list):
            if any(not (e is None or (isinstance(e, list) and not e)) for e in item):
                paths.append(i)
        elif isinstance(item, str | dict):
            required += 1
    return paths, required


def _kept(path: list[Any]) -> list[Any]:
    return [e for e in path if not (e is None or (isinstance(e, list) and not e))]


def _flatten(src: SourceText, path: YList, span: Span) -> str | None:
    """The text of a one-point path's point, written as a normal item (None if not mechanical)."""
    if len(path) != 1 or not path.item_spans or isinstance(path[0], list):
        return None
    element = src.extent(path[0], path.item_spans[0])
    text = src.slice(element)
    if src.is_flow(span):
        return text
    if element.line != span.line:
        return None
    dedent = element.column - span.column
    lines = text.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        strip = min(dedent, len(line) - len(line.lstrip(" ")))
        out.append(line[strip:])
    return "\n".join(out)


KEEP_COMMENT = ignore_comment("single-element-path")
"""Marks a one-point path as a deliberate alternative (the Form writes it on the OR it builds)."""
KEEP_TITLE = "Keep as alternatives: either is enough"


def _keep(ctx: LintContext, span: Span) -> tuple[Fix, ...]:
    """The fix that keeps a one-point path as an alternative: the ignore comment on its line."""
    rest = ctx.src.line_text(span.end_line)[span.end_column - 1 :]
    if span.line != span.end_line or (rest.strip() and not rest.lstrip().startswith("#")):
        return ()  # more on the line (a flow list): only the YAML view can mark it
    text = ctx.src.slice(span)
    return (Fix(title=KEEP_TITLE, replacement=f"{text}  {KEEP_COMMENT}", score_neutral=True),)


def _kept_on_purpose(
    ctx: LintContext, items: Any, index: int, fallback: Span, quiet: dict[int, frozenset[str]]
) -> bool:
    """True when a one-point path is marked `# lint: ignore[single-element-path]`."""
    return "single-element-path" in quiet.get(ctx.item_span(items, index, fallback).line, ())


def _lists(prompt: PromptRef) -> list[tuple[str, Any]]:
    keys = [k for k in (used_point_key(prompt.raw), "should_not") if k is not None]
    return [(k, prompt.raw[k]) for k in keys if isinstance(prompt.raw.get(k), list)]


def alternative_paths(ctx: LintContext) -> None:
    """One-point paths (OR, not AND) and OR blocks beside required points."""
    quiet = silenced(ctx.src)
    for prompt in ctx.prompts:
        for key, items in _lists(prompt):
            paths, required = _paths(items)
            single = [i for i in paths if len(_kept(items[i])) == 1]
            for i in single:
                if len(paths) == 1 and required == 0:
                    continue  # alone in its list, a one-point path scores like a required point
                span = ctx.item_span(items, i, prompt.span)
                others = len(paths) - 1
                if others:
                    effect = (
                        f"so it is OR-ed with the {others} other path{'s' if others > 1 else ''} "
                        "in this list instead of being required: an answer that matches any one "
                        "path gets full marks for all of them (two such paths score 1.0 when "
                        "either matches, not 0.5)."
                    )
                else:
                    effect = (
                        f"so it is not required like the {required} point"
                        f"{'s' if required > 1 else ''} beside it: alone in its OR block it "
                        "counts for half of the final score, and they share the other half."
                    )
                message = (
                    "This nested list (`- - ...`) is an alternative path with only one point, "
                    f"{effect} Two readings: if any one of these paths is enough (an OR), keep "
                    f"it and mark it `{KEEP_COMMENT}`; if the point is required, remove the "
                    "extra `-` to make it a normal point."
                )
                flat = _flatten(ctx.src, items[i], span) if isinstance(items[i], YList) else None
                fix = ("Make it a required point", flat) if flat is not None else None
                ctx.add(
                    "single-element-path", span, message, fix=fix, alternatives=_keep(ctx, span)
                )
            kept = [i for i in single if not _kept_on_purpose(ctx, items, i, prompt.span, quiet)]
            if paths and required and len(kept) < len(paths):
                span = ctx.item_span(items, paths[0], prompt.span)
                ctx.add(
                    "or-block-with-required",
                    span,
                    f"The {len(paths)} alternative path{'s' if len(paths) > 1 else ''} in "
                    f"`{key}` count as ONE item: the best path's score is averaged with the "
                    f"group of {required} required point{'s' if required > 1 else ''}, so the "
                    "OR block is half of the final score, however many required points there are.",
                )


def _flow_parent(ctx: LintContext, point: PointRef) -> bool:
    container = point.container
    return (
        isinstance(container, YList)
        and container.span is not None
        and ctx.src.is_flow(container.span)
    )


def dollar_strings(ctx: LintContext) -> None:
    """`"$fn: arg"` in quotes (an unknown function), and `$` text inside a path (judged text)."""
    for point in ctx.points:
        value = point.value
        if not isinstance(value, str) or not value.startswith("$") or len(value) < 2:
            continue
        parts = split_function_text(value)
        span = ctx.extent(value, point.span)
        if point.path is None:
            if parts is None or parts[1] is None:
                continue  # `$name` alone is a zero-argument function: fine
            name, arg = parts
            message = (
                f"This text is read as ONE function named `{excerpt(value[1:], quote=False)}`, which does not exist: "
                "the point reports an error and is left out of the score. To call "
                f"`${excerpt(name, quote=False)}` with its argument, write it without quotes: "
                f"`{excerpt(f'${name}: {arg}', quote=False)}`."
            )
            code = "quoted-function"
        else:
            shown = f"${parts[0]}" if parts else value
            message = (
                "Inside an alternative path (a nested list), text starting with `$` is not a "
                f"function: the AI judge reads `{excerpt(value, quote=False)}` as a sentence, so "
                f"`{excerpt(shown, quote=False)}` is never "
                "checked exactly. Write it as a function, for example "
                f"`{excerpt(function_form(*parts, flow=False) if parts else value, quote=False)}`."
            )
            code = "function-text-in-path"
        fix = None
        if parts is not None:
            fix = ("Write it as a function", function_form(*parts, flow=_flow_parent(ctx, point)))
        ctx.add(code, span, message, fix=fix)


def _weight_problem(value: Any) -> tuple[str, str | None] | None:
    """(what is wrong, replacement) for a weight outside 0.1-10, or None when it is fine."""
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return f"`{value}` is not a number", None
        if not math.isnan(number) and 0.1 <= number <= 10:
            return "it is written as text (in quotes)", js_number_str(number)
    else:
        return "it is not a number", None
    if math.isnan(number):
        return "it is not a number", None
    if 0.1 <= number <= 10:
        return None
    clamped = 10.0 if number > 10 else 0.1
    return f"it is {js_number_str(number)}", js_number_str(clamped)


def _check_weight(
    ctx: LintContext, container: YMap, keys: tuple[str, ...], what: str, fallback: Span
) -> None:
    key = next((k for k in keys if container.get(k) is not None), None)
    if key is None:
        return
    problem = _weight_problem(container[key])
    if problem is None:
        return
    reason, replacement = problem
    span = ctx.value_span(container, key, fallback)
    message = (
        f"{what} must be a number from 0.1 to 10, but {reason}: Weval refuses the blueprint. "
        "Use 1 for normal, up to 10 for the most important."
    )
    fix = (f"Use {replacement}", replacement) if replacement is not None else None
    same = "in quotes" in reason  # the number as written, without its quotes
    ctx.add("weight-out-of-range", span, message, fix=fix, neutral=same)


def weights(ctx: LintContext) -> None:
    """Point and prompt weights outside 0.1-10 (Weval rejects the blueprint)."""
    for prompt in ctx.prompts:
        if isinstance(prompt.raw, YMap):
            _check_weight(
                ctx,
                prompt.raw,
                ("weight", "importance", "multiplier"),
                "A prompt weight",
                prompt.span,
            )
    for point in ctx.points:
        value = point.value
        if not isinstance(value, YMap) or ("weight" not in value and "multiplier" not in value):
            continue
        if any(k.startswith("$") for k in value) or any(
            js_truthy(value.get(k)) for k in ("text", "point", "fn")
        ):
            _check_weight(ctx, value, ("weight", "multiplier"), "A point's weight", point.span)


def should_not_paths(ctx: LintContext) -> None:
    """`should_not` paths share `path_<i>` with `should` paths and are merged with them."""
    for prompt in ctx.prompts:
        lists = dict(_lists(prompt))
        used = used_point_key(prompt.raw)
        if "should_not" not in lists or used is None or used not in lists:
            continue
        should = {p.path for p in ctx.points_of(prompt, used) if p.path is not None}
        seen: set[int] = set()
        for point in ctx.points_of(prompt, "should_not"):
            if point.path is None or point.path not in should or point.path in seen:
                continue
            seen.add(point.path)
            items = lists["should_not"]
            index = next(i for i, item in enumerate(items) if item is point.container)
            ctx.add(
                "should-not-path-merge",
                ctx.item_span(items, index, prompt.span),
                f"This alternative path under `should_not` is item {index + 1} of its list, like "
                f"an alternative path under `{used}`, so Weval merges the two into ONE path: "
                "their points are averaged together, the inverted ones with the others, and "
                "neither is scored as you meant. Write these checks as normal items, or as "
                "`$not_...` functions under `should`.",
            )


def no_criteria(ctx: LintContext) -> None:
    """A prompt with no points gets no score, unless its ideal's key points are extracted."""
    for prompt in ctx.prompts:
        raw = prompt.raw
        if prompt.damaged or ctx.points_of(prompt):
            continue
        if js_truthy(raw.get("ideal")) or js_truthy(raw.get("idealResponse")):
            _key_points_note(ctx, prompt)
            continue
        ctx.add(
            "no-criteria",
            ctx.anchor(prompt),
            "This prompt has nothing to score: no `should` points and no `ideal` answer. The "
            "models answer it, but it gets no score. Add `should:` with the points a good "
            "answer makes.",
        )


def _key_points_note(ctx: LintContext, prompt: PromptRef) -> None:
    from engine.judge.keypoints import models_from_config

    models = models_from_config(ctx.header.get("evaluationConfig"))
    order = models[0] + "".join(f", then {m} if it fails" for m in models[1:])
    ctx.add(
        "ideal-key-points",
        ctx.anchor(prompt),
        "This prompt has an `ideal` answer and no `should` points, so an LLM will list the "
        f"key points of the ideal ({order}) and the judges score each answer against them. "
        "That costs one extra call for this prompt, plus a judge call per point found for "
        "every model. To choose the points yourself, add `should:`.",
    )


RULES = (alternative_paths, dollar_strings, weights, should_not_paths, no_criteria)
