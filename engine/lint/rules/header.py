"""The header: model ids, temperatures and system-prompt permutations."""

from __future__ import annotations

import difflib
import os
from typing import Any

from engine.blueprint.source import Span, YList
from engine.blueprint.text import excerpt
from engine.js.values import js_number_str, js_string
from engine.lint.context import LintContext
from engine.lint.rules.headers import check_headers
from engine.modelids import PROVIDERS, is_collection, split_model_id
from engine.net.guard import call_host_refusal
from engine.providers.collections import model_collections
from engine.providers.custom import custom_models, url_problem

__all__ = ["RULES", "known_provider"]


def known_provider(prefix: str) -> bool:
    """A provider Blueprint Studio can call: a built-in one, or any with `<PREFIX>_BASE_URL` set."""
    env = f"{prefix.upper().replace('-', '_')}_BASE_URL"
    return prefix in PROVIDERS or bool(os.environ.get(env))


def _quoted_like(original: str, new: str, *, flow: bool) -> str:
    """`new` as a YAML string, quoted like `original` was (always quoted inside `[...]`)."""
    quote = original[:1] if original[:1] in ("'", '"') else ('"' if flow else "")
    if quote and quote in new:
        quote = "'" if quote == '"' else '"'
    return f"{quote}{new}{quote}"


def _flow(ctx: LintContext, container: Any) -> bool:
    return (
        isinstance(container, YList)
        and container.span is not None
        and ctx.src.is_flow(container.span)
    )


def _collection(ctx: LintContext, name: str, span: Span) -> None:
    known = model_collections(ctx.settings)
    shown = excerpt(name, quote=False)
    ids = known.get(name)
    if ids is None:
        close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.7)
        hint = f" Did you mean `{close[0]}`?" if close else ""
        ctx.add(
            "unknown-collection",
            span,
            f"`{shown}` is not a known model collection, so the run cannot start.{hint} Known "
            f"collections: {', '.join(known) or 'none'}. Define it under [collections] in "
            f'$BLUEPRINT_HOME/settings.toml (`{excerpt(name, 30, quote=False)} = ["provider:model"]`) '
            "or list model ids instead.",
        )
        return
    where = "your settings.toml" if name in ctx.settings.collections else "Weval's list"
    if not ids:
        ctx.add(
            "model-collection",
            span,
            f"The model collection `{shown}` is empty in {where}, so it adds no models. List "
            "the models you want, or define it under [collections] in settings.toml.",
        )
        return
    listed = ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
    ctx.add(
        "model-collection",
        span,
        f"`{shown}` is a model collection from {where}: it runs {len(ids)} model"
        f"{'s' * (len(ids) != 1)} ({excerpt(listed, 160, quote=False)}). Check the cost with "
        "`blueprint plan` before running.",
    )


def _model_string(ctx: LintContext, models: list[Any], model: str, span: Span) -> None:
    name = model.strip()
    if isinstance(models, list) and name in _custom_ids(models):
        return
    if is_collection(name):
        _collection(ctx, name, span)
        return
    split = split_model_id(model)
    known = ", ".join(sorted(PROVIDERS))
    shown = excerpt(name, quote=False)
    if split is None:
        ctx.add(
            "unknown-provider",
            span,
            f"`{shown}` does not say which provider serves it. Write model ids as "
            f"`provider:model`, for example `openai:{excerpt(name, 20, quote=False)}`. Known providers: {known}.",
        )
        return
    provider, rest = split
    if known_provider(provider):
        return
    cut = excerpt(provider, 30, quote=False)
    message = (
        f"Blueprint Studio does not know the provider `{cut}`, so `{shown}` cannot be run. "
        f"Known providers: {known}. For another OpenAI-compatible service, set "
        f"{cut.upper().replace('-', '_')}_BASE_URL to its address."
    )
    close = difflib.get_close_matches(provider.lower(), list(PROVIDERS), n=1, cutoff=0.7)
    if close:
        new = f"{close[0]}:{rest}"
        replacement = _quoted_like(ctx.src.slice(span), new, flow=_flow(ctx, models))
        ctx.add(
            "unknown-provider",
            span,
            f"{message} Did you mean `{excerpt(new, quote=False)}`?",
            fix=(f"Use `{excerpt(new, quote=False)}`", replacement),
        )
    else:
        ctx.add("unknown-provider", span, message)


def models(ctx: LintContext) -> None:
    """Model ids: unknown providers, collections, custom models, `{provider: model}` objects."""
    models = ctx.header.get("models")
    if not isinstance(models, list):
        return
    for i, model in enumerate(models):
        span = ctx.item_span(models, i, ctx.value_span(ctx.header, "models", ctx.header_span))
        if isinstance(model, str):
            _model_string(ctx, models, model, span)
        elif isinstance(model, dict) and isinstance(model.get("id"), str):
            _custom_model(ctx, model, span)
        elif isinstance(model, dict) and "id" not in model and len(model) == 1:
            ((provider, name),) = model.items()
            new = f"{provider}:{js_string(name)}"
            replacement = _quoted_like("", new, flow=_flow(ctx, models))
            ctx.add(
                "model-object",
                span,
                f"Write this model as one text, `{excerpt(new, quote=False)}`, not as a `provider: model` pair: "
                "Weval refuses the blueprint with a pair.",
                fix=(f"Write `{excerpt(new, quote=False)}`", replacement),
                neutral=True,
            )


def _custom_ids(models: list[Any]) -> set[str]:
    return {m["id"] for m in models if isinstance(m, dict) and isinstance(m.get("id"), str)}


def _custom_model(ctx: LintContext, entry: dict[str, Any], span: Span) -> None:
    """A custom model object: its shape, its address (the guard) and its header variables."""
    found = custom_models([entry])
    if not found:
        return  # Weval's parser reports the missing fields
    (model,) = found.values()
    shown = excerpt(model.id, 40, quote=False)
    if model.api is None:
        ctx.add(
            "custom-model",
            ctx.value_span(entry, "inherit", span),
            f"The custom model `{shown}` uses Google's chat shape (`inherit: google`), which "
            "Blueprint Studio cannot send. Point `url` at Gemini's OpenAI-compatible endpoint and "
            "write `inherit: openai`, or use `format: completions`.",
        )
    credentials = url_problem(model.url)
    if credentials is not None:
        ctx.add(
            "custom-model",
            ctx.value_span(entry, "url", span),
            f"The custom model `{shown}` cannot be called: {credentials}",
        )
    refusal = call_host_refusal(model.url, ctx.settings, "model")
    if refusal is not None:
        ctx.add(
            "model-host-refused",
            ctx.value_span(entry, "url", span),
            f"The custom model `{shown}` cannot be called here. {excerpt(refusal, 400, quote=False)}",
        )
    who = f"The custom model `{shown}`"
    check_headers(ctx, entry.get("headers"), span, code="custom-model", who=who)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_temperature(ctx: LintContext, value: Any, span: Span) -> None:
    if _is_number(value) and 0 <= value <= 2:
        return
    if _is_number(value) and value == value:
        clamped = js_number_str(2 if value > 2 else 0)
        ctx.add(
            "temperature-out-of-range",
            span,
            f"A temperature must be from 0 to 2; providers refuse {js_number_str(value)}, so "
            "these calls fail. Use 0 for the most repeatable answers, 0.7 for varied ones.",
            fix=(f"Use {clamped}", clamped),
        )
    else:
        ctx.add(
            "temperature-out-of-range",
            span,
            "A temperature must be a number from 0 to 2 (for example `0.7`, without quotes); "
            "providers refuse anything else, so these calls fail.",
        )


def temperatures(ctx: LintContext) -> None:
    """Temperatures outside 0-2, and temperatures that another setting overrides."""
    header = ctx.header
    has_temperature = header.get("temperature") is not None
    listed = header.get("temperatures")
    if has_temperature:
        _check_temperature(
            ctx, header["temperature"], ctx.value_span(header, "temperature", ctx.header_span)
        )
    if isinstance(listed, list):
        for i, value in enumerate(listed):
            _check_temperature(ctx, value, ctx.item_span(listed, i, ctx.header_span))
    permuted = isinstance(listed, list) and bool(listed)
    if has_temperature and permuted:
        ctx.add(
            "temperature-ignored",
            ctx.entry_span(header, "temperature", ctx.header_span),
            "Both `temperature` and `temperatures` are set; Weval ignores `temperature` and runs "
            "every temperature in `temperatures`. Remove one of them.",
        )
    for prompt in ctx.prompts:
        raw = prompt.raw
        if "temperature" not in raw:
            continue
        value = raw["temperature"]
        if _is_number(value):
            _check_temperature(ctx, value, ctx.value_span(raw, "temperature", prompt.span))
        if has_temperature or permuted:
            which = "temperatures" if permuted else "temperature"
            ctx.add(
                "temperature-ignored",
                ctx.entry_span(raw, "temperature", prompt.span),
                f"The header sets `{which}`, which wins over a prompt's own `temperature`: this "
                "one is ignored. Remove it, or remove the header's setting.",
            )


def systems(ctx: LintContext) -> None:
    """More than one `null` (no system prompt) among the system prompts to compare."""
    header = ctx.header
    for key in ("systems", "system"):
        values = header.get(key)
        if not isinstance(values, YList | list):
            continue
        nulls = [i for i, v in enumerate(values) if v is None]
        for i in nulls[1:]:
            ctx.add(
                "systems-multiple-null",
                ctx.item_span(values, i, ctx.value_span(header, key, ctx.header_span)),
                f"`{key}` may hold only one `null` (meaning: no system prompt); Weval refuses the "
                "blueprint with two. Remove this one.",
            )
        if key == "systems" and values:
            return  # a `system` list is then ignored


def services(ctx: LintContext) -> None:
    """The headers of each `externalServices` entry (used by `$call: {service: name}`)."""
    found = ctx.header.get("externalServices")
    if not isinstance(found, dict):
        return
    fallback = ctx.value_span(ctx.header, "externalServices", ctx.header_span)
    for name, service in found.items():
        if isinstance(service, dict):
            check_headers(
                ctx,
                service.get("headers"),
                ctx.value_span(found, name, fallback),
                code="call-header",
                who=f"The external service `{excerpt(str(name), 40, quote=False)}`",
                env_severity="warning",
            )


RULES = (models, temperatures, systems, services)
