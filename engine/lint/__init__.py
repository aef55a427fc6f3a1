"""The blueprint linter: plain-words diagnostics with positions and mechanical fixes.

`lint(text)` never raises for anything in the text; `apply_fix(text, diagnostic)` applies a
diagnostic's fix. Every code is listed in `CODES` and documented in `docs/lint.md`.
"""

from engine.lint.diagnostics import CODES, CodeInfo, Diagnostic, Fix, Severity, apply_fix
from engine.lint.run import lint
from engine.lint.schema import authoring_schema

__all__ = [
    "CODES",
    "CodeInfo",
    "Diagnostic",
    "Fix",
    "Severity",
    "apply_fix",
    "authoring_schema",
    "lint",
]
