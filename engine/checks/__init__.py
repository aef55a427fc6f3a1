"""Point functions (the deterministic `$` checks): the table, evaluation and JS semantics."""

from engine.checks.context import CheckContext, CheckEnv, TTLCache
from engine.checks.docs import render_reference
from engine.checks.evaluate import convert_result, evaluate_function_points, evaluate_point
from engine.checks.jsengine import js_syntax_error
from engine.checks.jsregex import compile_js_regex, js_regex_error
from engine.checks.netguard import call_host_refusal
from engine.checks.outcome import Outcome
from engine.checks.registry import CATALOGUE, CheckDef, function_names, lookup
from engine.checks.tools import parse_tool_trace

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
    "parse_tool_trace",
    "render_reference",
]
