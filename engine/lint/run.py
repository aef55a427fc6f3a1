"""`lint(text)`: load, run the parser's stages and every rule, return sorted diagnostics."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Literal

from engine.blueprint.inputs import check_input_size, max_input_bytes
from engine.blueprint.source import Span
from engine.blueprint.text import bounded_message, excerpt
from engine.errors import BlueprintError
from engine.lint.context import LintContext
from engine.lint.diagnostics import Diagnostic, Fix
from engine.lint.ignore import without_ignored
from engine.lint.load import load_documents
from engine.lint.parser_pass import run_parser
from engine.lint.rules import RULES
from engine.lint.text import SourceText
from engine.settings import Settings

__all__ = ["lint"]

logger = logging.getLogger(__name__)

Rule = Callable[[LintContext], None]


def lint(
    text: str, *, source: str | None = None, settings: Settings | None = None
) -> list[Diagnostic]:
    """Find the problems in a blueprint's text, in plain words, with positions and fixes.

    Never raises for anything in the text: unreadable parts become diagnostics.

    Args:
        text: The YAML (or JSON) text.
        source: The file name; a name ending in `.json` is read as JSON.
        settings: Used for the `$call` allow-list; by default the user's settings.

    Returns:
        The diagnostics, sorted by position.
    """
    return run_lint(text, source=source, settings=settings)


def run_lint(
    text: str,
    *,
    source: str | None = None,
    settings: Settings | None = None,
    strict: bool = False,
    rules: tuple[Rule, ...] = RULES,
) -> list[Diagnostic]:
    """`lint`, with `strict=True` (for tests) re-raising a rule's unexpected exception."""
    fmt: Literal["yaml", "json"] = (
        "json" if source is not None and source.lower().endswith(".json") else "yaml"
    )
    bom = text.startswith("\ufeff")
    body = text[1:] if bom else text
    ctx = LintContext(SourceText(body), fmt, settings, strict)
    try:
        check_input_size(body, max_input_bytes(ctx.settings))
    except BlueprintError as exc:  # too large to read at all: say so, and nothing else
        ctx.add("yaml-syntax", Span(1, 1, 1, 1), exc.message)
        return _finish(ctx, bom)
    loaded = load_documents(ctx.src, fmt)
    for problem in loaded.syntax:
        ctx.add("yaml-syntax", problem.span, problem.message)
    for dup in loaded.duplicates:
        ctx.add(
            "duplicate-key",
            Span(dup.second.line, dup.second.column, dup.second.end_line, dup.second.end_column),
            f"`{excerpt(dup.key, quote=False)}` is written twice in this block (first on line {dup.first.line}). "
            "Weval refuses the whole file when a key is repeated. Keep one of them.",
        )
    ctx.blanked = loaded.blanked
    if loaded.docs or not loaded.syntax:
        run_parser(ctx, loaded.docs)
    for rule in rules:
        try:
            rule(ctx)
        except Exception:
            if strict:
                raise
            logger.exception("lint rule %s failed", getattr(rule, "__name__", rule))
    return _finish(ctx, bom)


def _finish(ctx: LintContext, bom: bool) -> list[Diagnostic]:
    found = list(ctx.diagnostics)
    for pending in ctx.pending:
        first, last = pending.scope
        explained = pending.covered_by is not None and any(
            d.code == pending.covered_by and first <= d.line <= last for d in found
        )
        if not explained:
            found.append(pending.diagnostic)
    unique: dict[tuple[object, ...], Diagnostic] = {}
    for d in found:
        unique.setdefault((*d.sort_key(), d.message), d)
    out = [_bounded(unique[key]) for key in sorted(unique)]
    out = without_ignored(ctx.src, out)
    if bom:
        out = [_shift(d) for d in out]
    return out


def _bounded(d: Diagnostic) -> Diagnostic:
    """Cut an overlong message (a rule that quoted too much of the input) to a bounded one."""
    message = bounded_message(d.message)
    return d if message is d.message else d.model_copy(update={"message": message})


def _shift_fix(f: Fix | None) -> Fix | None:
    if f is None or f.span is None or 1 not in (f.span[0], f.span[2]):
        return f
    line, column, end_line, end_column = f.span
    span = (line, column + (line == 1), end_line, end_column + (end_line == 1))
    return f.model_copy(update={"span": span})


def _shift(d: Diagnostic) -> Diagnostic:
    """Move positions on line 1 one column right, past a byte-order mark."""
    if any(f.span is not None for f in d.fixes):
        fix = _shift_fix(d.fix)
        moved = tuple(_shift_fix(f) or f for f in d.alternatives)
        d = d.model_copy(update={"fix": fix, "alternatives": moved})
    if d.line != 1 and d.end_line != 1:
        return d
    return d.model_copy(
        update={
            "column": d.column + 1 if d.line == 1 else d.column,
            "end_column": d.end_column + 1 if d.end_line == 1 else d.end_column,
        }
    )
