"""Blueprint Studio engine: parse, lint, check, judge, score, run and report Weval blueprints.

The names below are the main workflow (parse, lint, check, call models, run, score, report),
about as many as inspect_ai exports; everything else is public in its subpackage
(`engine.scoring`, `engine.judge`, `engine.run`, ...). Each is listed once, in the
`TYPE_CHECKING` imports (what type checkers read); `__all__` and `_WHERE` (each name's module)
are read from them on first use (`engine.lazy.typed_exports`). Submodules are imported on first
use, so `import engine` stays fast for the command line (scoring a file must not pay for the
HTTP client or the linter). `__version__` is read from `engine.version` (a leaf module).

The packages form layers, bottom to top; a module imports only from its own layer and the
ones below, type-only imports included (`tests/test_import_graph.py` checks it): the base
(`engine.errors`, `engine.lazy`, `engine.version`); `engine.js` (JavaScript's semantics); the
leaf modules (`engine.records`, `engine.settings`, `engine.output`, ...); `engine.net`;
`engine.blueprint`, `engine.store`; `engine.checks`;
`engine.providers`, `engine.judge`, `engine.scoring`; `engine.similarity`, `engine.stats`;
`engine.comparison`; `engine.summary`; `engine.lint`, `engine.run`; `engine.compare`,
`engine.edit`, `engine.publish`, `engine.queue`; `engine.report`; `engine.review`,
`engine.drafting`; and the command line (`engine.cli`) on top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import typed_exports
from engine.version import __version__ as __version__

if TYPE_CHECKING:
    from engine.assessment import PointAssessment as PointAssessment
    from engine.blueprint import Blueprint as Blueprint
    from engine.blueprint import load_blueprint as load_blueprint
    from engine.blueprint import parse_blueprint as parse_blueprint
    from engine.checks import CheckEnv as CheckEnv
    from engine.checks import evaluate_function_points as evaluate_function_points
    from engine.checks import evaluate_point as evaluate_point
    from engine.checks import function_names as function_names
    from engine.checks import lookup as lookup
    from engine.comparison import Comparison as Comparison
    from engine.comparison import build_comparison as build_comparison
    from engine.comparison import read_comparison as read_comparison
    from engine.errors import BlueprintError as BlueprintError
    from engine.errors import ConfigError as ConfigError
    from engine.errors import EngineError as EngineError
    from engine.js import js_regex_error as js_regex_error
    from engine.js import js_syntax_error as js_syntax_error
    from engine.lint import Diagnostic as Diagnostic
    from engine.lint import apply_fix as apply_fix
    from engine.lint import lint as lint
    from engine.net import call_host_refusal as call_host_refusal
    from engine.providers import ChatRequest as ChatRequest
    from engine.providers import ChatResponse as ChatResponse
    from engine.providers import ProviderCallError as ProviderCallError
    from engine.providers import ProviderPool as ProviderPool
    from engine.report import render_html as render_html
    from engine.run import RunOptions as RunOptions
    from engine.run import prepare_run as prepare_run
    from engine.run.service import run_sync as run_sync
    from engine.scoring.offline import score_rows as score_rows
    from engine.settings import Settings as Settings
    from engine.settings import load_settings as load_settings
    from engine.store import Store as Store

__getattr__, __dir__ = typed_exports(__name__, __file__)
