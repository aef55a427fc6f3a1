"""`should_not`: a function point moves to `should` as its `$not_` form; judged text stays.

Weval deprecates `should_not` in favour of `$not_` functions under `should`. A function point
under `should_not` gets a warning with a one-click fix that moves it there; judged text has no
`$not_` form, so its `should_not` list is noted once, not on every line.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.checks import opposite
from engine.lint.context import LintContext, PointRef, PromptRef
from engine.lint.diagnostics import Fix
from engine.lint.rules.fnpoint import FnPoint, function_point

__all__ = ["RULES"]

MAX_MOVE_FIXES = 20
"""Move fixes computed per lint at most (each composes its prompt's YAML); beyond, advice only."""


def _advice(ctx: LintContext, fp: FnPoint, new: str | None) -> str:
    arg = ""
    if fp.args_span is not None and fp.args_span.line == fp.args_span.end_line:
        arg = ": " + ctx.src.slice(fp.args_span)
    if new is None:
        return "Rephrase it as a check a good answer passes and move it under `should:`."
    if not new.startswith("not_"):
        return f"It is a double negative: write `${new}{arg}` under `should:` instead."
    return f"Move it under `should:` as `${new}{arg}`, which scores the same."


class _Mover:
    """Builds the fix that moves a point: rename it, then move it with the form's edit."""

    def __init__(self, ctx: LintContext) -> None:
        self.ctx = ctx
        self.made = 0

    def fix(self, fp: FnPoint, new: str) -> Fix | None:
        ctx, point = self.ctx, fp.point
        if ctx.fmt != "yaml" or point.path is not None or self.made >= MAX_MOVE_FIXES:
            return None
        from engine.edit import EditError, PointRef, ToggleInverted
        from engine.edit.points import apply_point_edit
        from engine.edit.scope import PromptScope

        prompt = point.prompt
        if ctx.src.is_flow(prompt.span):
            return None  # a prompt written `{...}`: only the YAML view can move its points
        self.made += 1
        text = ctx.src.text
        last = ctx.extent(prompt.raw, prompt.span)
        first = ctx.src.offset(prompt.span.line, 1)
        stop = ctx.src.offset(last.end_line + 1, 1)
        span = fp.name_span
        start, end = ctx.src.offset(span.line, span.column), ctx.src.offset(*span[2:4])
        written = ctx.src.slice(span)
        name = written.removeprefix("$")
        if not first <= start < end <= stop or (fp.form != "string" and name != fp.name):
            return None  # an alias or spelling the rename would not keep: advice only
        region = text[first:start] + written[: len(written) - len(name)] + new + text[end:stop]
        scope = PromptScope(region)
        try:
            apply_point_edit(scope, ToggleInverted(PointRef(prompt.index, point.index, True)))
        except (EditError, ValueError, IndexError):
            return None
        moved = text[:first] + scope.text + text[stop:]
        return _diff_fix(ctx, text, moved, f"Move it to `should` as `${new}`")


def _common(limit: int, same: Callable[[int], bool]) -> int:
    """The largest n <= limit with `same(n)` (true up to some n, false after), by halving."""
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        if same(mid):
            low = mid
        else:
            high = mid - 1
    return low


def _diff_fix(ctx: LintContext, old: str, new: str, title: str) -> Fix:
    """A fix that turns `old` into `new`, replacing only the part that differs."""
    limit = min(len(old), len(new))
    head = _common(limit, lambda n: old[:n] == new[:n])
    tail = _common(limit - head, lambda n: old[len(old) - n :] == new[len(new) - n :])
    line, column = ctx.src.position(head)
    end_line, end_column = ctx.src.position(len(old) - tail)
    return Fix(
        title=title,
        replacement=new[head : len(new) - tail],
        span=(line, column, end_line, end_column),
    )


def _text_note(ctx: LintContext, prompt: PromptRef, judged: list[PointRef]) -> None:
    n = len(judged)
    ctx.add(
        "should-not",
        ctx.key_span(prompt.raw, "should_not", judged[0].span),
        f"`should_not` is deprecated in Weval, but {'this' if n == 1 else f'these {n}'} judged "
        f"point{'' if n == 1 else 's'} ha{'s' if n == 1 else 've'} no `$not_` form, so "
        "`should_not` stays: each is scored, then turned around (1 - score). Where you can, "
        'say what a good answer does under `should:` instead ("Mentions a dosage" becomes '
        '"Avoids giving any dosage").',
        severity="info",
    )


def should_not(ctx: LintContext) -> None:
    """Each function point under `should_not`; one note per `should_not` list of judged text."""
    mover = _Mover(ctx)
    for prompt in ctx.prompts:
        judged: list[PointRef] = []
        for point in ctx.points_of(prompt, "should_not"):
            fp = function_point(ctx, point)
            if fp is None:
                judged.append(point)
                continue
            new = opposite(fp.name)
            fix = mover.fix(fp, new) if new is not None else None
            ctx.add(
                "should-not",
                ctx.extent(point.value, point.span),
                "`should_not` is deprecated in Weval: this point is scored, then turned around "
                f"(1 - score). {_advice(ctx, fp, new)}",
                fix=(fix.title, fix.replacement) if fix is not None else None,
                fix_span=fix.span if fix is not None else None,
                neutral=True,  # `should_not` scores 1 - s, and so does the `$not_` form
            )
        if judged:
            _text_note(ctx, prompt, judged)


RULES = (should_not,)
