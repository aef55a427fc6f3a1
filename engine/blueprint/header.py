"""The blueprint header: aliases, references, models, tools and services (spec §1.3, §2.6)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from engine.blueprint.source import Span, positioned, span_of_item, span_of_key, span_of_value
from engine.blueprint.text import excerpt, short
from engine.js.values import UNDEFINED, js_json_stringify, js_truthy, js_typeof

__all__ = ["RENDER_MODES", "normalize_header", "valid_url", "validate_external_services"]

RENDER_MODES = ("markdown", "html", "plaintext")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")
_SPECIAL = {"http", "https", "ws", "wss", "ftp"}


def _first_truthy(obj: dict[str, Any], *keys: str) -> Any:
    """Evaluate `obj.a || obj.b || ...` as JavaScript does (the last operand if none is truthy)."""
    value: Any = UNDEFINED
    for key in keys:
        value = obj.get(key, UNDEFINED)
        if js_truthy(value):
            return value
    return value


def valid_url(url: Any) -> bool:
    """Return whether `new URL(url)` would succeed (scheme, and a host for web schemes)."""
    if not isinstance(url, str):
        return False
    url = url.strip()
    scheme, sep, _ = url.partition(":")
    if not sep or not _SCHEME.fullmatch(scheme):
        return False
    if scheme.lower() in _SPECIAL:
        try:
            parts = urlsplit(url)
            return bool(parts.hostname) and " " not in (parts.hostname or "")
        except ValueError:
            return False
    return True


def _check_author(header: dict[str, Any]) -> None:
    if "author" not in header:
        return
    author = header["author"]
    span = span_of_value(header, "author")
    if isinstance(author, str):
        return
    if isinstance(author, dict | list) and js_truthy(author):
        name = author.get("name") if isinstance(author, dict) else None
        if not isinstance(name, str) or not name.strip():
            up = "Invalid 'author' object: missing 'name' string."
            raise positioned(
                up + " Write `author: {name: Your Name, url: ...}` or `author: Your Name`.",
                span,
                up,
            )
        return
    up = "Invalid 'author' field: must be a string or an object with 'name'."
    raise positioned(up + " For example `author: Jane Doe`.", span, up)


def _normalize_references(header: dict[str, Any], out: dict[str, Any]) -> None:
    value = _first_truthy(header, "reference", "citation", "references", "citations")
    if value is UNDEFINED:
        return
    key = next(
        (
            k
            for k in ("reference", "citation", "references", "citations")
            if header.get(k, UNDEFINED) is value
        ),
        "references",
    )
    span = span_of_value(header, key)
    items = value if isinstance(value, list) else [value]
    refs: list[dict[str, Any]] = []
    for i, ref in enumerate(items):
        item_span = span_of_item(value, i) or span
        if isinstance(ref, str):
            refs.append({"title": ref})
        elif isinstance(ref, dict) and js_truthy(ref):
            title = ref.get("title") if js_truthy(ref.get("title")) else ref.get("name")
            if not isinstance(title, str) or not title.strip():
                up = "Invalid 'reference'/'citation' object: missing 'title' or 'name' string."
                raise positioned(
                    up + " Write `- {title: Source name, url: https://...}`.", item_span, up
                )
            entry: dict[str, Any] = {"title": title}
            if "url" in ref:
                entry["url"] = ref["url"]
            refs.append(entry)
        else:
            up = (
                "Invalid 'reference'/'citation' field: must be a string, an object with "
                "'title'/'name', or an array of these."
            )
            raise positioned(
                up + " For example `references: [{title: Source, url: https://...}]`.",
                item_span,
                up,
            )
    out["references"] = refs
    for alias in ("citation", "citations", "reference"):
        out.pop(alias, None)


def _check_models(header: dict[str, Any]) -> None:
    models = header.get("models", UNDEFINED)
    if not js_truthy(models):
        return
    span = span_of_value(header, "models")
    if not isinstance(models, list):
        up = "The 'models' field must be an array of strings or custom model objects."
        raise positioned(
            up + " Write one model id per line: `models:\\n  - openai:gpt-4.1-mini`.", span, up
        )
    for i, model in enumerate(models):
        _check_model(model, span_of_item(models, i) or span)


def _check_model(model: Any, span: Span | None) -> None:
    if isinstance(model, str):
        return
    if not isinstance(model, dict):
        up = "Invalid model definition: must be a string or an object."
        raise positioned(up + " Write a model id such as `openai:gpt-4.1-mini`.", span, up)
    mid = model.get("id")
    if not js_truthy(mid) or not isinstance(mid, str):
        up = (
            "Invalid custom model definition: 'id' is required and must be a string. "
            f"Found: {excerpt(js_json_stringify(model) or '', 60, quote=False)}"
        )
        hint = ""
        if len(model) == 1:
            ((provider, name),) = model.items()
            hint = f" To name a model, write it as one string: `{provider}:{name}`."
        raise positioned(up + "." + hint, span, up)
    for field in ("url", "modelName", "inherit"):
        value = model.get(field)
        if not js_truthy(value) or not isinstance(value, str):
            up = f"Invalid custom model definition for '{short(mid)}': '{field}' is required and must be a string."
            raise positioned(up, span, up)
    fmt = model.get("format", UNDEFINED)
    if js_truthy(fmt) and not isinstance(fmt, str):
        up = f"Invalid custom model definition for '{short(mid)}': 'format', if provided, must be a string."
        raise positioned(up, span, up)
    if js_truthy(fmt) and fmt not in ("chat", "completions"):
        up = (
            f"Invalid custom model definition for '{short(mid)}': 'format' must be either 'chat' or "
            f"'completions'. Found: '{short(fmt)}'"
        )
        raise positioned(up, span, up)
    headers = model.get("headers", UNDEFINED)
    if js_truthy(headers) and not isinstance(headers, dict):
        up = f"Invalid custom model definition for '{short(mid)}': 'headers', if provided, must be an object."
        raise positioned(up, span, up)


def _check_tools(header: dict[str, Any]) -> None:
    if "tools" in header:
        tools = header["tools"]
        span = span_of_value(header, "tools")
        if not isinstance(tools, list):
            up = "The 'tools' field must be an array of tool definitions."
            raise positioned(up + " Write `tools:\\n  - name: calculator`.", span, up)
        for i, tool in enumerate(tools):
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
                up = f"Invalid tool definition at index {i}: each tool must have a 'name' string."
                raise positioned(up, span_of_item(tools, i) or span, up)
    if "toolUse" in header:
        tool_use = header["toolUse"]
        span = span_of_value(header, "toolUse")
        if not isinstance(tool_use, dict):
            up = "The 'toolUse' field must be an object."
            raise positioned(
                up + " For example `toolUse: {enabled: true, mode: trace-only}`.", span, up
            )
        if "mode" in tool_use and tool_use["mode"] != "trace-only":
            up = "The 'toolUse.mode' field, if provided, must be 'trace-only'."
            raise positioned(
                up
                + f" Found '{short(tool_use['mode'])}'. Write `mode: trace-only` (the model prints "
                "TOOL_CALL lines that the $tool_* functions read).",
                span_of_value(tool_use, "mode") or span,
                up,
            )
        if "outputFormat" in tool_use and tool_use["outputFormat"] != "json-line":
            up = "The 'toolUse.outputFormat' field, if provided, must be 'json-line'."
            raise positioned(up, span_of_value(tool_use, "outputFormat") or span, up)
        if "maxSteps" in tool_use:
            steps = tool_use["maxSteps"]
            if not isinstance(steps, int | float) or isinstance(steps, bool) or not steps >= 1:
                up = "The 'toolUse.maxSteps' field, if provided, must be a positive number."
                raise positioned(up, span_of_value(tool_use, "maxSteps") or span, up)


def normalize_header(header: dict[str, Any]) -> dict[str, Any]:
    """Return Weval's normalized header (everything but prompts and services validation).

    Unknown keys pass through unchanged, as upstream.

    Raises:
        BlueprintError: A header field has the wrong shape.
    """
    out: dict[str, Any] = dict(header)
    out["id"] = _first_truthy(header, "id", "configId")
    out["title"] = _first_truthy(header, "title", "configTitle")
    out["system"] = _first_truthy(header, "system", "systemPrompt")
    if js_truthy(header.get("defs")):
        out.pop("defs", None)
    _check_author(header)
    _normalize_references(header, out)
    for alias in ("configId", "configTitle", "systemPrompt"):
        out.pop(alias, None)
    _check_models(header)
    _check_tools(header)
    render_as = header.get("render_as", UNDEFINED)
    if js_truthy(render_as) and render_as not in RENDER_MODES:
        up = "Invalid global 'render_as' value. Must be one of: markdown, html, plaintext."
        raise positioned(up, span_of_value(header, "render_as"), up)
    return {k: v for k, v in out.items() if v is not UNDEFINED}


def validate_external_services(header: dict[str, Any]) -> None:
    """Check `externalServices` entries as Weval does, after the prompts (spec §2.6)."""
    services = header.get("externalServices", UNDEFINED)
    if not isinstance(services, dict):
        return
    for name, service in services.items():
        span = span_of_key(services, name) or span_of_value(header, "externalServices")
        if not isinstance(service, dict) or not js_truthy(service.get("url")):
            up = f"External service '{short(name)}' must have a 'url' field"
            raise positioned(
                up + ", for example `url: https://checker.example.org/score`.", span, up
            )
        url = service["url"]
        if not valid_url(url):
            up = f"External service '{short(name)}' has invalid URL: {short(url)}"
            hint = (
                " Environment variables are not substituted in URLs; write the full address."
                if isinstance(url, str) and "${" in url
                else " Write a full address such as https://checker.example.org/score."
            )
            raise positioned(up + "." + hint, span_of_value(service, "url") or span, up)
        method = service.get("method", UNDEFINED)
        if js_truthy(method) and method not in ("GET", "POST", "PUT"):
            up = f"External service '{short(name)}' has invalid method: {short(method)}. Must be GET, POST, or PUT"
            raise positioned(up + ".", span_of_value(service, "method") or span, up)
        timeout = service.get("timeout_ms", UNDEFINED)
        if timeout is not UNDEFINED and (js_typeof(timeout) != "number" or not timeout > 0):
            up = f"External service '{short(name)}' has invalid timeout_ms: {short(timeout)}. Must be a positive number"
            raise positioned(up + ".", span_of_value(service, "timeout_ms") or span, up)
