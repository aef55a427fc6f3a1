"""Blueprint Studio engine: parse, lint, check, judge, score, run and report Weval blueprints.

The names below are the main workflow (parse, lint, check, call models, run, score, report),
about as many as inspect_ai exports; everything else is public in its subpackage
(`engine.scoring`, `engine.judge`, `engine.run`, ...). `__all__` is the list; `_WHERE` says
where each name lives and the `TYPE_CHECKING` imports repeat it for type checkers (a test keeps
the three equal). Submodules are imported on first use, so `import engine` stays fast for the
command line (scoring a file must not pay for the HTTP client or the linter).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
"""The package's version (pyproject.toml reads it from here; no `importlib.metadata` needed)."""

if TYPE_CHECKING:
    from engine.assessment import PointAssessment
    from engine.blueprint import Blueprint, load_blueprint, parse_blueprint
    from engine.checks import (
        CheckEnv,
        evaluate_function_points,
        evaluate_point,
        function_names,
        lookup,
    )
    from engine.errors import BlueprintError, ConfigError, EngineError
    from engine.js import js_regex_error, js_syntax_error
    from engine.lint import Diagnostic, apply_fix, lint
    from engine.net import call_host_refusal
    from engine.offline import build_comparison, score_rows
    from engine.providers import ChatRequest, ChatResponse, ProviderCallError, ProviderPool
    from engine.report import Comparison, read_comparison, render_html
    from engine.run import RunOptions, prepare_run
    from engine.run.service import run_sync
    from engine.settings import Settings, load_settings
    from engine.store import Store

_WHERE: dict[str, str] = {
    "PointAssessment": "engine.assessment",
    "Blueprint": "engine.blueprint",
    "load_blueprint": "engine.blueprint",
    "parse_blueprint": "engine.blueprint",
    "CheckEnv": "engine.checks",
    "call_host_refusal": "engine.net",
    "evaluate_function_points": "engine.checks",
    "evaluate_point": "engine.checks",
    "function_names": "engine.checks",
    "js_regex_error": "engine.js",
    "js_syntax_error": "engine.js",
    "lookup": "engine.checks",
    "BlueprintError": "engine.errors",
    "ConfigError": "engine.errors",
    "EngineError": "engine.errors",
    "Diagnostic": "engine.lint",
    "apply_fix": "engine.lint",
    "lint": "engine.lint",
    "build_comparison": "engine.offline",
    "score_rows": "engine.offline",
    "ChatRequest": "engine.providers",
    "ChatResponse": "engine.providers",
    "ProviderCallError": "engine.providers",
    "ProviderPool": "engine.providers",
    "Comparison": "engine.report",
    "read_comparison": "engine.report",
    "render_html": "engine.report",
    "RunOptions": "engine.run",
    "prepare_run": "engine.run",
    "run_sync": "engine.run.service",
    "Settings": "engine.settings",
    "load_settings": "engine.settings",
    "Store": "engine.store",
}

__all__ = [
    "Blueprint",
    "BlueprintError",
    "ChatRequest",
    "ChatResponse",
    "CheckEnv",
    "Comparison",
    "ConfigError",
    "Diagnostic",
    "EngineError",
    "PointAssessment",
    "ProviderCallError",
    "ProviderPool",
    "RunOptions",
    "Settings",
    "Store",
    "apply_fix",
    "build_comparison",
    "call_host_refusal",
    "evaluate_function_points",
    "evaluate_point",
    "function_names",
    "js_regex_error",
    "js_syntax_error",
    "lint",
    "load_blueprint",
    "load_settings",
    "lookup",
    "parse_blueprint",
    "prepare_run",
    "read_comparison",
    "render_html",
    "run_sync",
    "score_rows",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use (PEP 562)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
