"""Run Weval's parser stages on the already-loaded documents, prompt by prompt.

`parse_blueprint` stops at the first problem; here each prompt is normalized on its own,
so one broken prompt does not hide the others, and the documents are not loaded twice.
"""

from __future__ import annotations

import re
from typing import Any

from engine.blueprint.budget import PointBudget, WorkLimitError, check_prompt_count
from engine.blueprint.header import normalize_header, validate_external_services
from engine.blueprint.layout import split_layout
from engine.blueprint.prompts import normalize_prompt
from engine.blueprint.source import Span, YMap
from engine.blueprint.text import bounded_message
from engine.errors import BlueprintError
from engine.js.values import js_truthy, js_typeof
from engine.lint.context import LintContext, PendingParserError, PromptRef
from engine.lint.diagnostics import Diagnostic

__all__ = ["run_parser"]

_COMMENT = re.compile(r"\s+#.*$")

# A parser error that a more specific rule explains better, keyed by upstream's wording.
_COVERED = (
    ("Point multiplier must be", "weight-out-of-range"),
    ("Prompt weight must be", "weight-out-of-range"),
    ("Per-prompt 'system' must be a string or null, not an array", "prompt-system-list"),
    ("Invalid custom model definition: 'id' is required", "model-object"),
    ("Invalid role '", "invalid-role"),
)


def _covered_by(exc: BlueprintError) -> str | None:
    text = exc.upstream or exc.message
    return next((code for start, code in _COVERED if start in text), None)


def _report(
    ctx: LintContext, exc: BlueprintError, fallback: Span, scope: Span, message: str | None = None
) -> None:
    line = exc.line if exc.line is not None else fallback.line
    column = exc.column if exc.column is not None else fallback.column
    text = _COMMENT.sub("", ctx.src.line_text(line)).rstrip()
    end = max(len(text) + 1, column + (1 if column <= len(text) else 0))
    diagnostic = Diagnostic(
        line=line,
        column=column,
        end_line=line,
        end_column=end,
        severity="error",
        code="invalid-blueprint",
        message=bounded_message(message or exc.message),
    )
    extent = (min(scope.line, line), max(scope.end_line, line))
    ctx.pending.append(PendingParserError(diagnostic, _covered_by(exc), extent))


def _unexpected(ctx: LintContext, span: Span, what: str, error: Exception) -> None:
    if ctx.strict:
        raise error
    exc = BlueprintError(
        f"Weval's parser cannot read {what}. Check its indentation and the type of each value.",
        line=span.line,
        column=span.column,
    )
    _report(ctx, exc, span, span)


def run_parser(ctx: LintContext, docs: list[tuple[Any, Span]]) -> None:
    """Fill `ctx.header` and `ctx.prompts`, queueing the parser's errors as diagnostics."""
    start = docs[0][1] if docs else Span(1, 1, 1, 1)
    try:
        header, raw_prompts = split_layout(docs, ctx.fmt)
    except BlueprintError as exc:
        _report(ctx, exc, start, start)
        return
    except Exception as error:  # the parser must never take the linter down
        _unexpected(ctx, start, "this blueprint's layout", error)
        return
    ctx.header = header
    if isinstance(header, YMap) and header.span is not None:
        ctx.header_span = ctx.extent(header, header.span)
    try:
        normalize_header(header)
    except BlueprintError as exc:
        _report(ctx, exc, ctx.header_span, ctx.header_span)
    except Exception as error:
        _unexpected(ctx, ctx.header_span, "the header", error)
    defs_source = (
        header.get("point_defs") if js_truthy(header.get("point_defs")) else header.get("defs")
    )
    defs: dict[str, Any] = dict(defs_source) if isinstance(defs_source, dict) else {}
    budget = PointBudget()
    try:
        check_prompt_count(raw_prompts)
    except WorkLimitError as exc:  # checking so much would take minutes: nothing more is read
        _report(ctx, exc, start, start)
        return
    for index, (raw, where) in enumerate(raw_prompts):
        span = where or start
        extent = ctx.extent(raw, span)
        try:
            budget.spend(raw, span)
        except WorkLimitError as exc:  # the prompts after it are not read
            _report(ctx, exc, span, extent)
            break
        if not isinstance(raw, dict):
            shown = (
                "an empty item"
                if raw is None
                else f"a {'list' if isinstance(raw, list) else js_typeof(raw)}"
            )
            problem = BlueprintError(
                f"Each prompt must be a mapping such as `- id: p1` with `prompt: ...`; this is "
                f"{shown}.",
                line=span.line,
                column=span.column,
            )
            _report(ctx, problem, span, extent)
            continue
        prompt = PromptRef(raw, span, index)
        prompt.damaged = any(
            span.line <= last and first <= span.end_line for first, last in ctx.blanked
        )
        try:
            prompt.normalized = normalize_prompt(raw, header, defs, span)
        except BlueprintError as exc:
            _report(ctx, exc, span, extent)
        except Exception as error:
            _unexpected(ctx, span, "this prompt", error)
        schema = raw.get("schema")
        if schema is not None and not isinstance(schema, dict):
            where_schema = ctx.value_span(raw, "schema", span)
            problem = BlueprintError(
                "`schema` must be a JSON Schema mapping, for example "
                "`schema: {type: object, required: [answer]}`.",
                line=where_schema.line,
                column=where_schema.column,
            )
            _report(ctx, problem, span, extent)
        ctx.prompts.append(prompt)
    try:
        validate_external_services(header)
    except BlueprintError as exc:
        _report(ctx, exc, ctx.header_span, ctx.header_span)
    except Exception as error:
        _unexpected(ctx, ctx.header_span, "`externalServices`", error)
