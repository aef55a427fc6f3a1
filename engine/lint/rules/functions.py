"""Point functions: unknown names, every argument rule, and `point_defs` code."""

from __future__ import annotations

import difflib

from engine.blueprint.source import YMap
from engine.blueprint.text import excerpt
from engine.checks import function_names, lookup
from engine.lint.context import LintContext
from engine.lint.rules.arguments import check_arguments
from engine.lint.rules.fnpoint import FnPoint, function_point, js_error

__all__ = ["RULES"]


def _rename(fp: FnPoint, new: str) -> str:
    return new if fp.form == "full" else f"${new}"


def unknown_function(ctx: LintContext, fp: FnPoint) -> None:
    """A `$name` that is not a point function."""
    names = function_names()
    # Weval's own docs spell these `imatches_*`; only `imatch_*` exists.
    respelled = "imatch" + fp.name[len("imatches") :] if fp.name.startswith("imatches_") else ""
    close = [respelled] if lookup(respelled) else []
    close = close or difflib.get_close_matches(fp.name, names, n=1, cutoff=0.75)
    message = (
        f"There is no point function `${excerpt(fp.name, quote=False)}`, so this point reports an error and is "
        "left out of the score."
    )
    if close:
        ctx.add(
            "unknown-function",
            fp.name_span,
            f"{message} Did you mean `${close[0]}`?",
            fix=(f"Use `${close[0]}`", _rename(fp, close[0])),
        )
    else:
        ctx.add(
            "unknown-function",
            fp.name_span,
            f"{message} Check the spelling; `blueprint schema` lists every function.",
        )


def functions(ctx: LintContext) -> None:
    """Every function point: the name, its arguments, regexes, `$js`, `$call`."""
    for point in ctx.points:
        fp = function_point(ctx, point)
        if fp is None or fp.name == "ref":
            continue
        check = lookup(fp.name)
        if check is None:
            unknown_function(ctx, fp)
            continue
        check_arguments(ctx, fp, check)


def definitions(ctx: LintContext) -> None:
    """`point_defs` written as JavaScript text must parse (they run as `$js`)."""
    for key in ("point_defs", "defs"):
        defs = ctx.header.get(key)
        if not isinstance(defs, YMap):
            continue
        for name, definition in defs.items():
            source = definition if isinstance(definition, str) else None
            if isinstance(definition, dict):
                js_key = next(
                    (k for k in ("$js", "$expr") if isinstance(definition.get(k), str)), None
                )
                source = definition[js_key] if js_key else None
                span = ctx.value_span(definition, js_key, ctx.header_span) if js_key else None
            else:
                span = ctx.value_span(defs, name, ctx.header_span)
            if source is None or span is None:
                continue
            error = js_error(source)
            if error is not None:
                ctx.add(
                    "js-syntax",
                    span,
                    f"The definition `{excerpt(name, quote=False)}` is JavaScript that does not parse ({error}); every "
                    "point that uses it (`$ref`) reports an error and is left out of the score.",
                )


RULES = (functions, definitions)
