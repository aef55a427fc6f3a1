"""Which HTTP header fields a blueprint may set (`$call`, custom models), and their bounds.

One policy for every place that sends or checks a blueprint's headers: the `$call` point
function, custom model objects, and `blueprint lint`. Fields that route or frame the request
(`Host`, `Content-Length`, `Transfer-Encoding`, `Connection`, ...) belong to the HTTP client:
a blueprint that set them could smuggle a second request past the address allow-list, which
checks the URL's host while a server routes on `Host`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, Final

from engine.js.values import js_string

__all__ = [
    "ENV_HELP",
    "ENV_VAR",
    "HEADER_NAME",
    "HEADER_VALUE",
    "MAX_HEADERS",
    "MAX_VALUE_CHARS",
    "MIN_SECRET",
    "header_problem",
    "header_text",
    "headers_problem",
    "refused_name",
    "value_problem",
]

HEADER_NAME: Final = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
"""An HTTP header field's name (a token)."""
HEADER_VALUE: Final = re.compile(r"[\t\x20-\x7e]*")
"""What a header field's value may hold: printable ASCII and tabs (never a line break)."""
ENV_VAR: Final = re.compile(r"\$\{([^}]+)\}")
"""`${NAME}` in a header value: the value of an allowed environment variable."""
ENV_HELP: Final = (
    "Blueprints may only use the environment variables the operator allows: list it in "
    "BLUEPRINT_CALL_ENV (comma-separated names) or in `[call] env = [...]` in "
    "$BLUEPRINT_HOME/settings.toml."
)
MIN_SECRET: Final = 6
"""Shorter values are not redacted (they would blank out ordinary words)."""
MAX_HEADERS: Final = 50
"""The most header fields one `$call` service or custom model may set."""
MAX_VALUE_CHARS: Final = 8192
"""The longest header value, as written and once `${NAME}` is substituted."""

_CLIENT_FIELDS: Final = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer"}
    | {"keep-alive"}
)
_NAME_SHOWN: Final = 60


def _shown(name: str) -> str:
    return json.dumps(name if len(name) <= _NAME_SHOWN else name[:_NAME_SHOWN] + "…")


def refused_name(name: str) -> bool:
    """Whether `name` is a field only the HTTP client may set (case-insensitive)."""
    lower = name.strip().lower()
    return lower in _CLIENT_FIELDS or lower.startswith("proxy-")


def header_text(value: Any) -> str | None:
    """A header value as sent (`String(value)` for a number or a boolean).

    None for a list, a mapping or null, which are not header values.
    """
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, list | dict):
        return None
    return js_string(value)


def value_problem(name: str, text: str) -> str | None:
    """Why a header value (after `${NAME}` substitution) cannot be sent; it is never quoted."""
    if len(text) > MAX_VALUE_CHARS:
        return (
            f"the value of the header {_shown(name)} is {len(text):,} characters long, more "
            f"than the {MAX_VALUE_CHARS:,} a header may hold"
        )
    if not HEADER_VALUE.fullmatch(text):
        return (
            f"the value of the header {_shown(name)} must be one line of plain ASCII text "
            "(no line breaks, control or non-ASCII characters)"
        )
    return None


def header_problem(name: str, value: Any) -> str | None:
    """Why a blueprint may not send the header `name: value` as written (plain words).

    `value` is the value as written, before `${NAME}` is substituted; it is never quoted.
    """
    if not HEADER_NAME.fullmatch(name):
        return (
            f"the header name {_shown(name)} is not a valid HTTP header name "
            "(letters, digits and - only, no spaces)"
        )
    if refused_name(name):
        return (
            f"the header {_shown(name)} is set by the HTTP client itself (it says where the "
            "request goes or how its body is framed), so a blueprint may not set it; remove it"
        )
    text = header_text(value)
    if text is None:
        return f"the value of the header {_shown(name)} must be one text, not a list or a mapping"
    if "${" in ENV_VAR.sub("", text):
        return (
            f"the value of the header {_shown(name)} has `${{` without a closing `}}`; write "
            "`${NAME}` to insert an environment variable"
        )
    return value_problem(name, ENV_VAR.sub("x", text))


def headers_problem(headers: Iterable[tuple[str, Any]]) -> str | None:
    """The first reason a blueprint's headers (name, value as written) cannot be sent, if any."""
    pairs = list(headers)
    if len(pairs) > MAX_HEADERS:
        return f"{len(pairs)} headers are set, more than the {MAX_HEADERS} allowed"
    for name, value in pairs:
        problem = header_problem(str(name), value)
        if problem is not None:
            return problem
    return None
