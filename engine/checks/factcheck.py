"""`$factcheck`: ask the configured fact-check service to score the response's claims.

The service is the user's (`Settings.factcheck_url`, reached at `/api/internal/factcheck` with
the `X-Background-Function-Auth-Token` header), so it is trusted and not subject to the `$call`
allow-list. With no service configured the point is `unverified` (never a pass, never a fail).
"""

from __future__ import annotations

from typing import Any, Final

from engine.assessment import Finding
from engine.checks.call import check_secrets, redact_secrets
from engine.checks.context import CheckContext
from engine.checks.outcome import Outcome
from engine.checks.text import is_number, js_json_parse
from engine.js.values import js_number_str, js_string, stable_stringify
from engine.jsonbound import BoundError, check_depth

__all__ = ["factcheck", "factcheck_arg_error"]

TIMEOUT_S: Final = 65.0
ENDPOINT: Final = "/api/internal/factcheck"
NOT_CONFIGURED: Final = (
    "No fact-check service is configured, so this point was not checked. Set "
    "BLUEPRINT_FACTCHECK_URL (and BLUEPRINT_FACTCHECK_TOKEN), or `[factcheck] url = ...` and "
    "`token = ...` in $BLUEPRINT_HOME/settings.toml."
)


def factcheck_arg_error(args: Any, has_args: bool) -> str | None:
    """Validator: an instruction string, or nothing."""
    if args is None or isinstance(args, str):
        return None
    return (
        "Argument for 'factcheck' must be a string instruction (e.g., 'focus on city names "
        "only'), or omitted for general fact-checking"
    )


def _messages(ctx: CheckContext) -> list[dict[str, Any]]:
    generated = set(ctx.evidence.generated_indices)
    out = []
    for index, message in enumerate(ctx.evidence.messages):
        content = message.get("content")
        out.append(
            {
                "role": message.get("role"),
                "content": content if isinstance(content, str) and content else "",
                "generated": index in generated,
            }
        )
    return out


def factcheck(text: str, args: Any, ctx: CheckContext) -> Any:
    """Return `{score, explain}`, `{error}`, or an `unverified` outcome if no service is set.

    Configured secrets (the token, service keys) are redacted from what the service says.
    """
    return redact_secrets(_factcheck(text, args, ctx), check_secrets(ctx.env))


def _factcheck(text: str, args: Any, ctx: CheckContext) -> Any:
    settings = ctx.env.settings
    if not settings.factcheck_url:
        finding = Finding(code="not_configured", message=NOT_CONFIGURED)
        return Outcome(status="unverified", reflection=NOT_CONFIGURED, findings=(finding,))
    instruction = args if isinstance(args, str) else ""
    body: dict[str, Any] = {"claim": text, "instruction": instruction, "includeRaw": False}
    messages = _messages(ctx)
    if messages:
        body["messages"] = messages
    key = stable_stringify(
        {"type": "factcheck", "claim": text, "instruction": instruction, "messages": messages}
    )
    cached = ctx.env.cache.get(key)
    if cached is not None:
        previous = js_string(cached.get("explain", ""))
        return {**cached, "explain": previous + (" (cached)" if previous else "(cached)")}
    headers = {"Content-Type": "application/json"}
    if settings.factcheck_token:
        headers["X-Background-Function-Auth-Token"] = settings.factcheck_token
    url = settings.factcheck_url.rstrip("/") + ENDPOINT
    import httpx  # imported on first use

    try:
        response = ctx.env.client().post(url, json=body, headers=headers, timeout=TIMEOUT_S)
    except httpx.HTTPError as exc:
        return {"error": f"Factcheck failed: {exc or type(exc).__name__}"}
    ok, data = js_json_parse(response.text)
    if not response.is_success:
        server = data.get("error") if ok and isinstance(data, dict) else None
        if isinstance(server, str) and server:
            return {"error": server}
        return {"error": f"Factcheck service returned HTTP {response.status_code}"}
    if not ok or not isinstance(data, dict | list):
        return {"error": "Invalid response from factcheck service: no data"}
    try:
        check_depth(response.text)
    except BoundError as exc:
        return {"error": f"Invalid response from factcheck service: {exc}"}
    score = data.get("score") if isinstance(data, dict) else None
    if not is_number(score):
        return {"error": "Invalid response from factcheck service: missing or invalid score"}
    if score < 0 or score > 1:
        return {
            "error": f"Invalid score from factcheck service: {js_number_str(score)} (must be 0-1)"
        }
    explain = data.get("explain") if isinstance(data, dict) else None
    result: dict[str, Any] = {"score": score, "explain": explain or "No explanation provided"}
    ctx.env.cache.set(key, result)
    return result
