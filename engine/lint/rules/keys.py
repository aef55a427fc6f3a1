"""Keys: unknown keys at every level (with "did you mean"), aliases set twice, the header id."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from engine.blueprint.source import Span, YMap
from engine.blueprint.text import excerpt
from engine.js.values import js_truthy
from engine.lint.context import POINT_KEYS, LintContext

__all__ = ["RULES", "one_edit", "suggest"]

HEADER_KEYS = frozenset(
    {
        "id", "configId", "title", "configTitle", "description", "author", "reference",
        "citation", "references", "citations", "tags", "models", "system", "systemPrompt",
        "systems", "temperature", "temperatures", "concurrency", "evaluationConfig",
        "embeddingModel", "point_defs", "defs", "tools", "toolUse", "context", "render_as",
        "noCache", "externalServices", "prompts",
    }
)  # fmt: skip
PROMPT_KEYS = frozenset(
    {
        "id", "prompt", "promptText", "messages", "ideal", "idealResponse", "description",
        "system", "citation", "reference", "weight", "importance", "multiplier", "render_as",
        "temperature", "noCache", "requiredTools", "prohibitedTools", "maxCalls", *POINT_KEYS,
        "should_not", "schema",
    }
)  # fmt: skip
FULL_POINT_KEYS = frozenset(
    {"text", "point", "fn", "fnArgs", "arg", "weight", "multiplier", "citation"}
)
FUNCTION_POINT_KEYS = frozenset({"weight", "multiplier", "citation"})
_NESTED: dict[str, frozenset[str]] = {
    "author": frozenset({"name", "url", "image_url"}),
    "reference": frozenset({"title", "name", "url"}),
    "evaluationConfig": frozenset({"llm-coverage", "embedding"}),
    "llm-coverage": frozenset({"judges", "useExperimentalScale", "judgeModels", "judgeMode"}),
    "judge": frozenset({"id", "model", "approach"}),
    "toolUse": frozenset({"enabled", "mode", "maxSteps", "outputFormat"}),
    "tool": frozenset({"name", "description", "schema"}),
    "service": frozenset(
        {"url", "method", "headers", "timeout_ms", "cache", "max_retries", "retry_backoff_ms"}
    ),
    "message": frozenset({"role", "content"}),
    "model": frozenset(
        {
            "id",
            "url",
            "modelName",
            "inherit",
            "format",
            "promptFormat",
            "headers",
            "parameters",
            "parameterMapping",
        }
    ),
}
_WHERE = {
    "header": "in the header",
    "prompt": "on a prompt",
    "point": "in a point",
    "author": "in `author`",
    "reference": "in a reference",
    "evaluationConfig": "in `evaluationConfig`",
    "llm-coverage": "in `llm-coverage`",
    "judge": "in a judge",
    "toolUse": "in `toolUse`",
    "tool": "in a tool",
    "service": "in an external service",
    "model": "in a custom model",
    "message": "in a message",
}


def suggest(name: str, options: Iterable[str]) -> str | None:
    """The closest known name (case-insensitive first), or None."""
    options = list(options)
    lowered = {o.lower(): o for o in options}
    if name.lower() in lowered:
        return lowered[name.lower()]
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.75)
    if not close:
        close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
        close = [lowered[c] for c in close]
    return close[0] if close else None


def _unknown(
    ctx: LintContext, container: Any, known: frozenset[str], where: str, fallback: Span
) -> None:
    if not isinstance(container, YMap):
        return
    for key in container:
        if key in known:
            continue
        span = ctx.key_span(container, key, fallback)
        effect = "Weval drops it" if where == "prompt" else "it has no effect"
        message = (
            f"`{excerpt(key, quote=False)}` is not a key Weval knows {_WHERE[where]}, so {effect}."
        )
        if where == "evaluationConfig" and key in _NESTED["llm-coverage"]:
            ctx.add(
                "unknown-key",
                span,
                f"{message} It belongs one level down, under `llm-coverage:` (indent it there).",
            )
            continue
        if where == "prompt" and _points_typo(ctx, container, key, span):
            continue
        guess = suggest(key, known)
        if guess is not None and guess not in container:
            ctx.add(
                "unknown-key",
                span,
                f"{message} Did you mean `{guess}`?",
                fix=(f"Rename to `{guess}`", guess),
            )
        else:
            ctx.add("unknown-key", span, message + " Remove it, or check its spelling.")


def one_edit(a: str, b: str) -> bool:
    """True when `a` becomes `b` by one insertion, deletion, change or swap of two neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _points_typo(ctx: LintContext, prompt: YMap, key: str, span: Span) -> bool:
    """A key one edit from `should`/`should_not` is an error: every point under it is dropped."""
    target = next((k for k in ("should", "should_not") if one_edit(key, k)), None)
    if target is None:
        return False
    count = len(prompt[key]) if isinstance(prompt[key], list) else 0
    dropped = f"its {count} point{'s' if count != 1 else ''}" if count else "what it holds"
    message = (
        f"`{excerpt(key, quote=False)}` is not `{target}`: Weval drops this key and {dropped} "
        f"with it, so nothing under it is scored. Rename it to `{target}`."
    )
    free = target not in prompt
    fix = (f"Rename to `{target}`", target) if free else None
    if not free:
        message += f" (This prompt already has `{target}`: move these points there.)"
    ctx.add("unknown-key", span, message, fix=fix, severity="error", neutral=True)
    return True


def _each_dict(value: Any) -> list[Any]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def header_keys(ctx: LintContext) -> None:
    """Unknown keys in the header and in its nested blocks."""
    h = ctx.header
    fallback = ctx.header_span
    _unknown(ctx, h, HEADER_KEYS, "header", fallback)
    _unknown(ctx, h.get("author"), _NESTED["author"], "author", fallback)
    for key in ("reference", "citation", "references", "citations"):
        value = h.get(key)
        for ref in [value] if isinstance(value, dict) else _each_dict(value):
            _unknown(ctx, ref, _NESTED["reference"], "reference", fallback)
    evaluation = h.get("evaluationConfig")
    _unknown(ctx, evaluation, _NESTED["evaluationConfig"], "evaluationConfig", fallback)
    coverage = evaluation.get("llm-coverage") if isinstance(evaluation, dict) else None
    _unknown(ctx, coverage, _NESTED["llm-coverage"], "llm-coverage", fallback)
    if isinstance(coverage, dict):
        for judge in _each_dict(coverage.get("judges")):
            _unknown(ctx, judge, _NESTED["judge"], "judge", fallback)
    _unknown(ctx, h.get("toolUse"), _NESTED["toolUse"], "toolUse", fallback)
    for tool in _each_dict(h.get("tools")):
        _unknown(ctx, tool, _NESTED["tool"], "tool", fallback)
    services = h.get("externalServices")
    if isinstance(services, dict):
        for service in services.values():
            _unknown(ctx, service, _NESTED["service"], "service", fallback)
    for model in _each_dict(h.get("models")):
        if "id" in model:
            _unknown(ctx, model, _NESTED["model"], "model", fallback)


def prompt_keys(ctx: LintContext) -> None:
    """Unknown keys on prompts, in their citation objects and in `role`/`content` messages."""
    for prompt in ctx.prompts:
        _unknown(ctx, prompt.raw, PROMPT_KEYS, "prompt", prompt.span)
        for key in ("citation", "reference"):
            _unknown(ctx, prompt.raw.get(key), _NESTED["reference"], "reference", prompt.span)
        for message in _each_dict(prompt.raw.get("messages")):
            if js_truthy(message.get("role")) or js_truthy(message.get("content")):
                _unknown(ctx, message, _NESTED["message"], "message", prompt.span)


def point_keys(ctx: LintContext) -> None:
    """Unknown keys in point objects; a second `$function` in one point is ignored too."""
    for point in ctx.points:
        value = point.value
        if not isinstance(value, YMap) or len(value) < 2:
            continue  # one key: a function, a full point or a citation shorthand, all fine
        functions = [k for k in value if k.startswith("$")]
        if functions:
            for extra in functions[1:]:
                ctx.add(
                    "unknown-key",
                    ctx.key_span(value, extra, point.span),
                    f"Only the first function of a point is used (`{excerpt(functions[0], quote=False)}`); "
                    f"`{excerpt(extra, quote=False)}` is ignored and never checked. Put it on its own `- ` line.",
                )
            _unknown(ctx, value, FUNCTION_POINT_KEYS | frozenset(functions), "point", point.span)
        elif any(js_truthy(value.get(k)) for k in ("text", "point", "fn")):
            _unknown(ctx, value, FULL_POINT_KEYS, "point", point.span)


def _conflict(
    ctx: LintContext, container: Any, keys: tuple[str, ...], fallback: Span, *, nullish: bool
) -> None:
    """Report every key after the one Weval reads (`a || b` or, with `nullish`, `a ?? b`)."""
    if not isinstance(container, dict):
        return
    present = [
        k
        for k in keys
        if k in container and (container[k] is not None if nullish else js_truthy(container[k]))
    ]
    for ignored in present[1:]:
        ctx.add(
            "conflicting-keys",
            ctx.key_span(container, ignored, fallback),
            f"`{ignored}` means the same as `{present[0]}`, and only `{present[0]}` is read: "
            f"`{ignored}` is ignored. Keep one of them.",
        )


def aliases(ctx: LintContext) -> None:
    """Two spellings of the same setting: Weval reads one and silently ignores the other."""
    h = ctx.header
    for keys in (
        ("id", "configId"),
        ("title", "configTitle"),
        ("system", "systemPrompt"),
        ("reference", "citation", "references", "citations"),
        ("point_defs", "defs"),
    ):
        _conflict(ctx, h, keys, ctx.header_span, nullish=False)
    for prompt in ctx.prompts:
        raw = prompt.raw
        _conflict(ctx, raw, POINT_KEYS, prompt.span, nullish=False)
        _conflict(ctx, raw, ("messages", "prompt"), prompt.span, nullish=False)
        _conflict(ctx, raw, ("prompt", "promptText"), prompt.span, nullish=False)
        _conflict(ctx, raw, ("ideal", "idealResponse"), prompt.span, nullish=False)
        _conflict(ctx, raw, ("citation", "reference"), prompt.span, nullish=False)
        _conflict(ctx, raw, ("weight", "importance", "multiplier"), prompt.span, nullish=True)
    for point in ctx.points:
        value = point.value
        if not isinstance(value, dict) or len(value) < 2:
            continue
        both = ("point" in value and "text" in value) or ("arg" in value and "fnArgs" in value)
        if both and not any(k.startswith("$") for k in value):
            _conflict(ctx, value, ("text", "point"), point.span, nullish=False)
            _conflict(ctx, value, ("fnArgs", "arg"), point.span, nullish=False)
        if "multiplier" in value and "weight" in value:
            _conflict(ctx, value, ("weight", "multiplier"), point.span, nullish=True)


def header_id(ctx: LintContext) -> None:
    """The header `id` is replaced by the id derived from the file name."""
    for key in ("id", "configId"):
        if key in ctx.header:
            ctx.add(
                "header-id",
                ctx.entry_span(ctx.header, key, ctx.header_span),
                f"Weval ignores this `{key}`: a blueprint's id comes from its file name "
                "(`my-test.yml` becomes `my-test`). You can remove this line.",
            )
            return


RULES = (header_keys, prompt_keys, point_keys, aliases, header_id)
