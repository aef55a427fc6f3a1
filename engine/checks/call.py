"""`$call` (alias `$external`): score the response with the user's own HTTP service.

Arguments: `service: <name>` (from the blueprint's `externalServices`) or an inline `url`, plus
`method`, `headers`, `timeout_ms`, `cache`, `max_retries`, `retry_backoff_ms`; every other key
is a user parameter. The JSON body is `{response, modelId, promptId, ...userParams}`, with
`{response}` `{modelId}` `{promptId}` `{messages}` `{promptText}` templates substituted. Before
any request the host must pass `engine.net.guard` (allow-list, no private addresses).
`${NAME}` in headers reads only the environment variables the operator allows
(`Settings.call_env`), and configured secrets are redacted from whatever the service returns.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from engine.checks.context import CheckContext, CheckEnv
from engine.checks.text import is_number, js_json_parse
from engine.js.values import (
    UNDEFINED,
    js_clean,
    js_number_str,
    js_string,
    js_truthy,
    js_typeof,
    stable_stringify,
)
from engine.jsonbound import BoundError, check_depth
from engine.net.guard import resolve_refusal
from engine.net.headers import (
    ENV_HELP,
    ENV_VAR,
    MIN_SECRET,
    header_text,
    headers_problem,
    value_problem,
)

__all__ = ["call", "call_arg_error", "check_secrets", "redact_secrets", "substitute_templates"]

CONFIG_KEYS: Final = (
    "service",
    "url",
    "method",
    "headers",
    "timeout_ms",
    "cache",
    "max_retries",
    "retry_backoff_ms",
)
_TEMPLATE: Final = re.compile(r"\{(response|modelId|promptId|messages|promptText)\}")
_NAME_SHOWN: Final = 60


class _CallError(Exception):
    """A failure upstream reports as `External service call failed: <message>`."""

    def __init__(self, message: str, retryable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable


def call_arg_error(args: Any, has_args: bool) -> str | None:
    """Validator: the argument must be an object."""
    if isinstance(args, dict | list):
        return None
    return "Argument for 'call' must be an object"


def substitute_templates(value: Any, data: dict[str, Any]) -> Any:
    """Replace `{response}`-style templates recursively through objects and arrays.

    A string that is exactly a template becomes the raw value (`{messages}` the message list);
    embedded templates are replaced by text (`{messages}` by its JSON), in one pass.
    """
    if isinstance(value, str):
        whole = _TEMPLATE.fullmatch(value)
        if whole:
            return data[whole.group(1)]

        def text(match: re.Match[str]) -> str:
            raw = data[match.group(1)]
            if match.group(1) == "messages":
                return json.dumps(raw, ensure_ascii=False, separators=(",", ":"))
            return js_string(raw)

        return _TEMPLATE.sub(text, value)
    if isinstance(value, list):
        return [substitute_templates(item, data) for item in value]
    if isinstance(value, dict):
        return {key: substitute_templates(item, data) for key, item in value.items()}
    return value


def _service(args: dict[str, Any], ctx: CheckContext) -> tuple[dict[str, Any], str]:
    if js_truthy(args.get("service")):
        name = js_string(args["service"])
        services = ctx.blueprint.external_services if ctx.blueprint is not None else {}
        config = services.get(name)
        if not isinstance(config, dict):
            available = ", ".join(services) if services else "none"
            raise _CallError(
                f"External service '{name}' not found in config. Available services: {available}"
            )
        return config, name
    if js_truthy(args.get("url")):
        config = {key: args.get(key) for key in CONFIG_KEYS if key not in ("service", "url")}
        config["url"] = args["url"]
        config["method"] = args.get("method") if js_truthy(args.get("method")) else "POST"
        return config, "inline"
    raise _CallError("Must provide either 'service' (named service) or 'url' (inline service)")


def check_secrets(env: CheckEnv) -> tuple[str, ...]:
    """Values that must never be stored or shown: allowed `$call` variables and service keys.

    The values of the variables in `Settings.call_env`, of every `*_API_KEY` variable (the
    providers' keys) and the fact-check token; values under `MIN_SECRET` characters are left.
    """
    names = set(env.settings.call_env)
    values = [v for k, v in env.environ.items() if k in names or k.endswith("_API_KEY")]
    values.append(env.settings.factcheck_token or "")
    return tuple(sorted({v for v in values if len(v) >= MIN_SECRET}, key=len, reverse=True))


def redact_secrets(value: Any, secrets: tuple[str, ...]) -> Any:
    """Replace every secret by `***` in the texts of `value` (through objects and arrays)."""
    if not secrets:
        return value
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, "***")
        return value
    if isinstance(value, list):
        return [redact_secrets(item, secrets) for item in value]
    if isinstance(value, dict):
        return {key: redact_secrets(item, secrets) for key, item in value.items()}
    return value


def _headers(config: dict[str, Any], ctx: CheckContext) -> dict[str, str]:
    headers = {"Content-Type": "application/json"}
    configured = config.get("headers")
    allowed = set(ctx.env.settings.call_env)
    if isinstance(configured, dict):
        problem = headers_problem((str(key), value) for key, value in configured.items())
        if problem is not None:
            raise _CallError(f"The headers cannot be sent: {problem}")
        for key, value in configured.items():

            def env(match: re.Match[str], key: str = key) -> str:
                name = match.group(1)
                shown = name if len(name) <= _NAME_SHOWN else name[:_NAME_SHOWN] + "…"
                prefix = f"Failed to substitute env var in header '{key}': Environment variable"
                if name not in allowed:  # the same words whether or not it exists
                    raise _CallError(f"{prefix} {shown} is not allowed. {ENV_HELP}")
                found = ctx.env.environ.get(name)
                if found is None:
                    raise _CallError(f"{prefix} {shown} is not defined")
                return found

            sent = ENV_VAR.sub(env, header_text(value) or "")
            problem = value_problem(key, sent)
            if problem is not None:
                raise _CallError(f"The headers cannot be sent: {problem}")
            headers[key] = sent
    return headers


def _validate(result: Any) -> Any:
    if not isinstance(result, dict | list):
        raise _CallError("Invalid service response: Response must be an object")
    data = result if isinstance(result, dict) else {}
    if js_truthy(data.get("error")):
        return data
    score = data.get("score", UNDEFINED)
    if not is_number(score):
        raise _CallError(
            f"Invalid service response: score must be a number, got {js_typeof(score)}"
        )
    if score < 0 or score > 1:
        raise _CallError(
            f"Invalid service response: score must be between 0 and 1, got {js_number_str(score)}"
        )
    return data


def _request_once(config: dict[str, Any], body: Any, ctx: CheckContext) -> Any:
    import httpx  # imported on first use: most runs never call a service

    headers = _headers(config, ctx)
    timeout_ms = config.get("timeout_ms")
    timeout_s = (timeout_ms if is_number(timeout_ms) and timeout_ms > 0 else 30000) / 1000
    method = js_string(config.get("method") or "POST").upper()
    content = json.dumps(js_clean(body), ensure_ascii=False, separators=(",", ":"))
    try:
        response = ctx.env.client().request(
            method, js_string(config["url"]), headers=headers, content=content, timeout=timeout_s
        )
    except httpx.TimeoutException:
        raise _CallError(
            f"The request timed out after {round(timeout_s * 1000)} ms", True
        ) from None
    except httpx.ConnectError as exc:
        raise _CallError(f"Connection failed: {exc}", True) from None
    except httpx.HTTPError as exc:
        raise _CallError(f"Request failed: {exc}") from None
    if not response.is_success:
        text = redact_secrets(response.text, check_secrets(ctx.env))  # before it is cut
        raise _CallError(f"HTTP {response.status_code}: {text[:200]}", response.status_code >= 500)
    ok, result = js_json_parse(response.text)
    if not ok:
        raise _CallError("Invalid service response: the body is not JSON")
    try:
        check_depth(response.text)
    except BoundError as exc:
        raise _CallError(f"Invalid service response: {exc}") from None
    return _validate(result)


def _request(config: dict[str, Any], body: Any, ctx: CheckContext) -> Any:
    max_retries = config.get("max_retries")
    retries = int(max_retries) if is_number(max_retries) else 2
    backoff = config.get("retry_backoff_ms")
    backoff_ms = backoff if is_number(backoff) and backoff else 1000
    attempt = 0
    while True:
        try:
            return _request_once(config, body, ctx)
        except _CallError as exc:
            if attempt >= retries or not exc.retryable:
                raise
            ctx.env.sleep(backoff_ms * (attempt + 1) / 1000)
            attempt += 1


def call(text: str, args: Any, ctx: CheckContext) -> Any:
    """Call the external service and return `{score, explain}` or `{error}`.

    Configured secrets (see `check_secrets`) are redacted from whatever comes back.
    """
    return redact_secrets(_call(text, args, ctx), check_secrets(ctx.env))


def _call(text: str, args: Any, ctx: CheckContext) -> Any:
    try:
        if not isinstance(args, dict):
            raise _CallError(
                "Must provide either 'service' (named service) or 'url' (inline service)"
            )
        config, name = _service(args, ctx)
        refusal = resolve_refusal(js_string(config.get("url")), ctx.env.settings, ctx.env.resolve)
        if refusal is not None:
            return {"error": f"External service call refused: {refusal}"}
        evidence = ctx.evidence
        data = {
            "response": text,
            "modelId": evidence.model_id,
            "promptId": ctx.prompt_id,
            "messages": js_clean(evidence.messages),
            "promptText": UNDEFINED,
        }
        params = {k: v for k, v in args.items() if k not in CONFIG_KEYS}
        body = {
            "response": text,
            "modelId": evidence.model_id,
            "promptId": ctx.prompt_id,
            **substitute_templates(params, data),
        }
        use_cache = config.get("cache") is not False
        key = stable_stringify(
            {"type": "call", "service": name, "url": config.get("url"), "body": body}
        )
        if use_cache and (cached := ctx.env.cache.get(key)) is not None:
            explain = cached.get("explain")
            hit: dict[str, Any] = {"score": cached.get("score")}
            if js_truthy(explain):
                hit["explain"] = f"{js_string(explain)} (cached)"
            return hit
        result = _request(config, body, ctx)
        if js_truthy(result.get("error")):
            return {"error": f"External service error: {js_string(result['error'])}"}
        if use_cache:
            ctx.env.cache.set(key, redact_secrets(dict(result), check_secrets(ctx.env)))
        out: dict[str, Any] = {"score": result["score"]}
        if "explain" in result:
            out["explain"] = result["explain"]
        return out
    except _CallError as exc:
        return {"error": f"External service call failed: {exc.message}"}
