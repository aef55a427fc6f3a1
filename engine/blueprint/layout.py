"""Weval's four blueprint layouts: which YAML/JSON document is the header, which the prompts."""

from __future__ import annotations

from typing import Any, Literal

from engine.blueprint.source import Span, span_of_item, without_key
from engine.errors import BlueprintError
from engine.js.values import UNDEFINED, js_truthy, js_typeof

__all__ = ["RawPrompt", "split_layout"]

_PROMPT_KEYS_ONE = ("prompt", "messages", "should", "ideal", "points")
_PROMPT_KEYS_MANY = (*_PROMPT_KEYS_ONE, "expect")


def _looks_like_prompt(doc: dict[str, Any], keys: tuple[str, ...]) -> bool:
    return any(js_truthy(doc.get(k)) for k in keys)


RawPrompt = tuple[Any, Span | None]


def split_layout(
    docs: list[tuple[Any, Span]], fmt: Literal["yaml", "json"]
) -> tuple[dict[str, Any], list[RawPrompt]]:
    """Separate the header from the prompts, detecting Weval's four layouts (spec §1.2).

    Returns:
        The raw header mapping and each raw prompt with the span where it is written.
    """
    if not docs:
        up = "YAML blueprint is empty or contains only null documents."
        raise BlueprintError(
            "The blueprint is empty. Start with a header such as `title: My blueprint`, then "
            "`---` and a list of prompts (`- prompt: ...`).",
            line=1,
            column=1,
            upstream=f"Failed to parse YAML blueprint: {up}",
        )
    first, first_span = docs[0]
    header: dict[str, Any] = {}
    prompts: list[RawPrompt] = []

    def items_of(doc: Any, span: Span) -> list[RawPrompt]:
        if isinstance(doc, list):
            return [(item, span_of_item(doc, i) or span) for i, item in enumerate(doc)]
        return [(doc, span)]

    if len(docs) == 1:
        if isinstance(first, list):
            prompts = items_of(first, first_span)
        elif (
            isinstance(first, dict)
            and isinstance(first.get("prompts"), list)
            and js_truthy(first.get("prompts"))
        ):
            header = without_key(first, "prompts")
            prompts = items_of(first["prompts"], first_span)
        elif isinstance(first, dict) and fmt == "json":
            header = without_key(first, "prompts")
            raw = first.get("prompts", UNDEFINED)
            if js_truthy(raw) and not isinstance(raw, list):
                raise BlueprintError("`prompts` must be a list of prompts.", line=1, column=1)
            prompts = items_of(raw, first_span) if isinstance(raw, list) else []
        elif isinstance(first, dict):
            if _looks_like_prompt(first, _PROMPT_KEYS_ONE):
                prompts = [(first, first_span)]
            else:
                header = first
        else:
            up = f"Invalid YAML format: Document must be an object or array. Found: {js_typeof(first)}"
            raise BlueprintError(
                up + ". A blueprint is a header (`title: ...`) and a list of prompts, not a "
                "single value.",
                line=first_span.line,
                column=first_span.column,
                upstream=up,
            )
        return header, prompts

    if isinstance(first, dict) and not _looks_like_prompt(first, _PROMPT_KEYS_MANY):
        header = first
        rest = docs[1:]
    else:
        rest = docs
    for doc, span in rest:
        prompts.extend(items_of(doc, span))
    return header, prompts
