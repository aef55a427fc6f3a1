"""`should_not`: a function point moves to `should` as its `$not_` form; judged text stays.

Weval deprecates `should_not` in favour of `$not_` functions under `should`. A function point
under `should_not` gets a warning with a one-click fix that moves it there; judged text has no
`$not_` form, so its `should_not` list is noted once, not on every line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.blueprint.source import YList, YMap
from engine.checks import opposite
from engine.lint.context import POINT_KEYS, LintContext, PointRef, PromptRef, used_point_key
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
    """Builds the fix that moves a one-line point from a block `should_not` list to `should`."""

    def __init__(self, ctx: LintContext) -> None:
        self.ctx = ctx
        self.made = 0

    def _item_line(self, items: Any, index: int) -> tuple[int, str, str] | None:
        """(line, its indent, the text after `- `) of a one-line block item, else None."""
        src = self.ctx.src
        if not isinstance(items, YList) or items.span is None or src.is_flow(items.span):
            return None
        span = self.ctx.item_span(items, index, items.span)
        text = src.line_text(span.line)
        indent = text[: len(text) - len(text.lstrip(" "))]
        if span.end_line != span.line or not text.lstrip(" ").startswith("- "):
            return None
        if text[len(indent) + 2 :].lstrip(" ") != text[span.column - 1 :]:
            return None  # `- - x` or another node before the point: not a plain item
        return span.line, indent, text[span.column - 1 :]

    def fix(self, fp: FnPoint, new: str) -> Fix | None:
        ctx, point = self.ctx, fp.point
        raw = point.prompt.raw
        if ctx.fmt != "yaml" or point.path is not None or self.made >= MAX_MOVE_FIXES:
            return None
        items = raw.get("should_not")
        if not isinstance(items, YList):
            return None
        moved = self._item_line(items, point.index)
        name = fp.name_span
        if moved is None or name.line != moved[0] or not isinstance(raw, YMap):
            return None
        self.made += 1
        line, _indent, content = moved
        written = ctx.src.slice(name)
        bare = written.removeprefix("$")
        if fp.form != "string" and bare != fp.name:
            return None  # an alias or spelling the rename would not keep: advice only
        start = ctx.src.offset(line, 1)
        at = name.column - 1 - (len(ctx.src.line_text(line)) - len(content))
        renamed = (
            content[:at] + written[: len(written) - len(bare)] + new + content[at + len(written) :]
        )
        edits = self._insert(raw, renamed)
        if edits is None:
            return None
        if len(items) == 1:  # the whole `should_not:` entry goes
            key = ctx.key_span(raw, "should_not", point.span)
            if key.line == line:
                return None
            cut = (ctx.src.offset(key.line, 1), ctx.src.offset(line + 1, 1))
        else:
            cut = (start, ctx.src.offset(line + 1, 1))
        text = ctx.src.text
        changes = sorted([*edits, (cut[0], cut[1], "")], reverse=True)
        out = text
        for begin, end, put in changes:
            out = out[:begin] + put + out[end:]
        return _diff_fix(ctx, text, out, f"Move it to `should` as `${new}`")

    def _insert(self, raw: YMap, content: str) -> list[tuple[int, int, str]] | None:
        """Where and what to write so that `content` becomes the last `should` item."""
        ctx = self.ctx
        key = used_point_key(raw) or next((k for k in POINT_KEYS if k in raw), None)
        if key is None:  # no `should` yet: a new entry right above `should_not:`
            span = raw.key_spans.get("should_not")
            if span is None:
                return None
            at = ctx.src.offset(span.line, 1)
            pad = " " * (span.column - 1)
            return [(at, at, f"{pad}should:\n{pad}  - {content}\n")]
        target = raw.get(key)
        if not isinstance(target, YList) or not target:
            return None
        last = self._item_line(target, len(target) - 1)
        if last is None:
            return None
        end = ctx.extent(
            target[-1], ctx.item_span(target, len(target) - 1, target.span or ctx.header_span)
        )
        at = ctx.src.offset(end.end_line + 1, 1)
        return [(at, at, f"{last[1]}- {content}\n")]


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
