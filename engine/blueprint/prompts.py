"""One prompt to Weval's normalized prompt: messages, fields, aliases and hash ids (spec §1.8-1.10)."""

from __future__ import annotations

import hashlib
import math
from typing import Any

from engine.blueprint.header import RENDER_MODES
from engine.blueprint.points import PointSpans, expand_refs, normalize_point_list
from engine.blueprint.source import Span, positioned, span_of_item, span_of_key, span_of_value
from engine.blueprint.text import excerpt, short
from engine.js.values import (
    UNDEFINED,
    js_json_stringify,
    js_truthy,
    js_typeof,
    stable_stringify,
)

__all__ = ["NormalizedPrompt", "hash_prompt_id", "normalize_prompt"]

_SHORTHAND_ROLES = ("user", "assistant", "system", "ai")
_POINT_KEYS = ("should", "points", "expect", "expects", "expectations")


class NormalizedPrompt:
    """A prompt as Weval normalizes it, plus where its parts are written."""

    __slots__ = ("data", "message_spans", "point_spans", "should_not_spans", "span")

    def __init__(self, data: dict[str, Any], span: Span | None) -> None:
        self.data = data
        self.span = span
        self.message_spans: list[Span | None] = []
        self.point_spans: PointSpans = []
        self.should_not_spans: PointSpans = []


def _id(p: dict[str, Any]) -> str:
    return short(p.get("id", UNDEFINED))


def _id_or_unknown(p: dict[str, Any]) -> str:
    pid = p.get("id", UNDEFINED)
    return short(pid) if js_truthy(pid) else "unknown"


def hash_prompt_id(prompt: dict[str, Any]) -> str:
    """Return Weval's generated id: `hash-` + 12 hex of SHA-256 over the stable JSON (§1.10)."""
    body = {k: v for k, v in prompt.items() if k != "id"}
    digest = hashlib.sha256(stable_stringify(body).encode("utf-8", "surrogatepass")).hexdigest()
    return f"hash-{digest[:12]}"


def _messages(p: dict[str, Any], out: NormalizedPrompt) -> list[Any] | None:
    raw = p.get("messages", UNDEFINED)
    span = span_of_value(p, "messages")
    if not js_truthy(raw):
        source = p.get("prompt") if js_truthy(p.get("prompt")) else p.get("promptText", UNDEFINED)
        if js_truthy(source):
            key = "prompt" if js_truthy(p.get("prompt")) else "promptText"
            out.message_spans = [span_of_value(p, key)]
            return [{"role": "user", "content": source}]
        return None
    if not isinstance(raw, list):
        raise positioned(
            f"In prompt '{_id(p)}', `messages` must be a list of turns, for example "
            "`messages:\\n  - user: Hello\\n  - assistant: null`.",
            span,
        )
    messages: list[Any] = []
    for index, msg in enumerate(raw):
        msg_span = span_of_item(raw, index) or span
        out.message_spans.append(msg_span)
        if isinstance(msg, list):
            raise positioned(
                f"Message {index} in prompt '{_id(p)}' is a list; write each turn as "
                "`- user: ...` or `- role: user` with `content: ...`.",
                msg_span,
            )
        if (
            isinstance(msg, dict)
            and not js_truthy(msg.get("role"))
            and not js_truthy(msg.get("content"))
        ):
            keys = list(msg)
            if len(keys) != 1:
                up = (
                    "Each message in the shorthand format must have exactly one key (e.g., 'user', "
                    f"'assistant', 'ai', 'system'). Invalid message at index {index} in prompt "
                    f"'{_id(p)}'. Found: {excerpt(js_json_stringify(msg) or '', 60, quote=False)}"
                )
                raise positioned(up + ". Put each turn on its own `- ` line.", msg_span, up)
            role = keys[0]
            if role not in _SHORTHAND_ROLES:
                up = f"Invalid role '{role}' in message at index {index} in prompt '{_id(p)}'."
                raise positioned(up + " Use user, assistant (or ai) or system.", msg_span, up)
            messages.append({"role": "assistant" if role == "ai" else role, "content": msg[role]})
        else:
            messages.append(msg)
    return messages


def _citation(p: dict[str, Any], out: dict[str, Any]) -> None:
    value = p.get("citation") if js_truthy(p.get("citation")) else p.get("reference", UNDEFINED)
    if value is UNDEFINED:
        return
    key = "citation" if js_truthy(p.get("citation")) else "reference"
    span = span_of_value(p, key)
    if isinstance(value, str):
        out["citation"] = value
    elif isinstance(value, dict | list) and js_truthy(value):
        title = None
        if isinstance(value, dict):
            title = value.get("title") if js_truthy(value.get("title")) else value.get("name")
        if not isinstance(title, str) or not title.strip():
            up = f"Invalid 'citation'/'reference' object in prompt '{_id(p)}': missing 'title' or 'name' string."
            raise positioned(up + " Write `citation: {title: Source, url: https://...}`.", span, up)
        out["citation"] = value
    else:
        up = (
            f"Invalid 'citation'/'reference' field in prompt '{_id(p)}': must be a string or an "
            "object with 'title'/'name'."
        )
        raise positioned(up, span, up)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def normalize_prompt(
    p: dict[str, Any], header: dict[str, Any], defs: dict[str, Any], span: Span | None
) -> NormalizedPrompt:
    """Normalize one raw prompt mapping exactly as Weval's parser does.

    Args:
        p: The raw prompt mapping.
        header: The raw header (for the `render_as` and `noCache` defaults).
        defs: The `point_defs` map used to expand `$ref`.
        span: Where the prompt is written.

    Raises:
        BlueprintError: A field has the wrong shape; the message says what to write instead.
    """
    result = NormalizedPrompt({}, span)
    data = result.data
    messages = _messages(p, result)
    if messages is not None:
        data["messages"] = messages
    data["id"] = p.get("id", UNDEFINED)
    if "description" in p:
        data["description"] = p["description"]
    ideal = p.get("ideal") if js_truthy(p.get("ideal")) else p.get("idealResponse", UNDEFINED)
    data["idealResponse"] = ideal

    if "system" in p:
        system = p["system"]
        if isinstance(system, list):
            up = (
                f"Invalid 'system' field in prompt '{_id_or_unknown(p)}': Per-prompt 'system' must "
                "be a string or null, not an array. Did you mean to use 'systems' (plural) at the "
                "global config level instead?"
            )
            raise positioned(up, span_of_value(p, "system"), up)
        if system is not None and not isinstance(system, str):
            up = (
                f"Invalid 'system' field in prompt '{_id_or_unknown(p)}': Must be a string or null. "
                f"Found: {js_typeof(system)}"
            )
            raise positioned(
                up + ". Put the system prompt in quotes.", span_of_value(p, "system"), up
            )
        data["system"] = system

    _citation(p, data)

    weight: Any = UNDEFINED
    weight_key = "weight"
    for key in ("weight", "importance", "multiplier"):
        value = p.get(key, UNDEFINED)
        if value is not None and value is not UNDEFINED:
            weight = value
            weight_key = key
            break
    if weight is not UNDEFINED:
        if not _is_number(weight) or math.isnan(weight) or not 0.1 <= weight <= 10:
            up = (
                f"Prompt weight must be a number between 0.1 and 10. Found {short(weight)}. "
                f"Prompt ID: '{_id_or_unknown(p)}'"
            )
            raise positioned(
                up + ". Use 1 for a normal prompt, up to 10 for the most important.",
                span_of_value(p, weight_key),
                up,
            )
        data["weight"] = weight

    render_as = p.get("render_as", UNDEFINED)
    if js_truthy(render_as):
        if render_as not in RENDER_MODES:
            up = (
                f"Invalid 'render_as' value on prompt '{_id_or_unknown(p)}'. Must be one of: "
                "markdown, html, plaintext."
            )
            raise positioned(up, span_of_value(p, "render_as"), up)
        data["render_as"] = render_as
    else:
        global_render = header.get("render_as", UNDEFINED)
        data["render_as"] = global_render if js_truthy(global_render) else "markdown"

    if "temperature" in p:
        temperature = p["temperature"]
        if not _is_number(temperature):
            up = (
                f"Prompt temperature must be a number. Found {js_typeof(temperature)}. "
                f"Prompt ID: '{_id_or_unknown(p)}'"
            )
            raise positioned(
                up + ". For example `temperature: 0.7`.", span_of_value(p, "temperature"), up
            )
        data["temperature"] = temperature

    if "noCache" in p:
        data["noCache"] = js_truthy(p["noCache"])
    elif "noCache" in header:
        data["noCache"] = js_truthy(header["noCache"])

    for key in ("requiredTools", "prohibitedTools"):
        if key in p:
            if not isinstance(p[key], list):
                up = f"Prompt '{key}' must be an array. Prompt ID: '{_id_or_unknown(p)}'"
                raise positioned(
                    up + f". For example `{key}: [calculator]`.", span_of_value(p, key), up
                )
            data[key] = p[key]
    if "maxCalls" in p:
        max_calls = p["maxCalls"]
        if not _is_number(max_calls) or not max_calls >= 0:
            up = (
                f"Prompt 'maxCalls' must be a non-negative number. Found {short(max_calls)}. "
                f"Prompt ID: '{_id_or_unknown(p)}'"
            )
            raise positioned(up, span_of_value(p, "maxCalls"), up)
        data["maxCalls"] = max_calls

    points_key = next((k for k in _POINT_KEYS if js_truthy(p.get(k))), None)
    if points_key is not None:
        source = p[points_key]
        points, spans = normalize_point_list(
            source, p.get("id", UNDEFINED), span_of_value(p, points_key)
        )
        data["points"] = expand_refs(points, spans, defs, p.get("id", UNDEFINED))
        result.point_spans = spans
    if js_truthy(p.get("should_not")):
        source = p["should_not"]
        points, spans = normalize_point_list(
            source, p.get("id", UNDEFINED), span_of_value(p, "should_not")
        )
        data["should_not"] = expand_refs(points, spans, defs, p.get("id", UNDEFINED))
        result.should_not_spans = spans

    for key in [k for k, v in data.items() if v is UNDEFINED]:
        del data[key]
    if not js_truthy(data.get("id", UNDEFINED)):
        data["id"] = hash_prompt_id(data)
    if result.span is None:
        result.span = span_of_key(p, "id")
    return result
