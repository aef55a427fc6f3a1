"""Point functions (the deterministic `$` checks): the table, evaluation and JS semantics.

May import: the leaf modules (`engine.errors`, `engine.records`, `engine.settings`, ...),
`engine.blueprint`, `engine.store`, `engine.js` and `engine.net`; never the providers, the judges
or anything above.

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
    from engine.checks.jsengine import js_syntax_error
    from engine.checks.jsregex import compile_js_regex, js_regex_error
    from engine.checks.netguard import call_host_refusal
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
    "js_syntax_error": "jsengine",
    "compile_js_regex": "jsregex",
    "js_regex_error": "jsregex",
    "call_host_refusal": "netguard",
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
    "call_host_refusal",
    "compile_js_regex",
    "convert_result",
    "evaluate_function_points",
    "evaluate_point",
    "function_names",
    "js_regex_error",
    "js_syntax_error",
    "lookup",
    "opposite",
    "parse_tool_trace",
    "render_reference",
]

__getattr__ = lazy_names(__name__, _HOMES)
