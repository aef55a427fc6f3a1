"""Point functions (the deterministic `$` checks): the table, the arguments, the evaluation.

JavaScript's semantics (QuickJS, `RegExp`, strings and values) are `engine.js`; which hosts
`$call` may reach and the header grammar are `engine.net`.

May import: the leaf modules (`engine.errors`, `engine.records`, `engine.settings`, ...),
`engine.js`, `engine.net`, `engine.blueprint` and `engine.store`; never the providers, the
judges, `engine.run` or anything above.

The names load on first use (PEP 562): `blueprint lint` needs the table and the argument
checks, not the evaluation (and the models it fills in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.checks.context import CheckContext, CheckEnv, TTLCache
    from engine.checks.docs import render_reference
    from engine.checks.evaluate import convert_result, evaluate_function_points, evaluate_point
    from engine.checks.outcome import Outcome
    from engine.checks.registry import CATALOGUE, CheckDef, function_names, lookup, opposite
    from engine.checks.tools import parse_tool_trace

_HOMES = {
    "CheckContext": "context",
    "CheckEnv": "context",
    "TTLCache": "context",
    "render_reference": "docs",
    "convert_result": "evaluate",
    "evaluate_function_points": "evaluate",
    "evaluate_point": "evaluate",
    "Outcome": "outcome",
    "CATALOGUE": "registry",
    "CheckDef": "registry",
    "function_names": "registry",
    "lookup": "registry",
    "opposite": "registry",
    "parse_tool_trace": "tools",
}

__all__ = [
    "CATALOGUE",
    "CheckContext",
    "CheckDef",
    "CheckEnv",
    "Outcome",
    "TTLCache",
    "convert_result",
    "evaluate_function_points",
    "evaluate_point",
    "function_names",
    "lookup",
    "opposite",
    "parse_tool_trace",
    "render_reference",
]

__getattr__ = lazy_names(__name__, _HOMES)
