"""The blueprint linter: plain-words diagnostics with positions and mechanical fixes.

May import: `engine.checks`, `engine.providers`, `engine.judge` and everything below them (up to
`engine.summary`); never runs, reports or the command line.

`lint(text)` never raises for anything in the text; `apply_fix(text, diagnostic)` applies a
diagnostic's fix. Every code is listed in `CODES` and documented in `docs/lint.md`.
"""

from typing import TYPE_CHECKING, Any

from engine.lint.diagnostics import CODES, RUN_CODES, CodeInfo, Diagnostic, Fix, Severity, apply_fix
from engine.lint.run import lint

if TYPE_CHECKING:
    from engine.lint.schema import authoring_schema

__all__ = [
    "CODES",
    "RUN_CODES",
    "CodeInfo",
    "Diagnostic",
    "Fix",
    "Severity",
    "apply_fix",
    "authoring_schema",
    "lint",
]


def __getattr__(name: str) -> Any:
    """Import the schema (pydantic models built at import) only when it is asked for."""
    if name == "authoring_schema":
        from engine.lint.schema import authoring_schema

        return authoring_schema
    raise AttributeError(f"module 'engine.lint' has no attribute {name!r}")
