"""Headers a blueprint sets (`$call` services, custom models), checked by `engine.net.headers`."""

from __future__ import annotations

from typing import Any

from engine.blueprint.source import Span
from engine.blueprint.text import excerpt
from engine.lint.context import LintContext
from engine.lint.diagnostics import Severity
from engine.net.headers import ENV_HELP, ENV_VAR, MAX_HEADERS, header_problem, header_text

__all__ = ["check_headers"]


def check_headers(
    ctx: LintContext,
    headers: Any,
    fallback: Span,
    *,
    code: str,
    who: str,
    env_severity: Severity | None = None,
) -> None:
    """Report each header of `headers` that cannot be sent, at its line.

    Args:
        ctx: The lint context.
        headers: The `headers` mapping as written.
        fallback: Where to report when a header has no position.
        code: The diagnostic code.
        who: What sends them, for the message ("The custom model `x`", "This `$call`").
        env_severity: The severity of a `${NAME}` the settings do not allow (default: the
            code's own).
    """
    if not isinstance(headers, dict):
        return
    if len(headers) > MAX_HEADERS:
        ctx.add(
            code,
            fallback,
            f"{who} sets {len(headers)} headers, more than the {MAX_HEADERS} allowed, so it "
            "cannot be sent. Keep only the headers the service needs.",
        )
    allowed = set(ctx.settings.call_env)
    for key, value in headers.items():
        where = ctx.entry_span(headers, key, fallback)
        problem = header_problem(str(key), value)
        if problem is not None:
            ctx.add(code, where, f"{who} cannot be sent: {excerpt(problem, 300, quote=False)}.")
        for name in ENV_VAR.findall(header_text(value) or ""):
            if name not in allowed:
                ctx.add(
                    code,
                    where,
                    f"The header `{excerpt(str(key), 40, quote=False)}` of {who[0].lower()}"
                    f"{who[1:]} uses the variable {excerpt(name, 40, quote=False)}, which "
                    f"blueprints may not read. {ENV_HELP}",
                    severity=env_severity,
                )
