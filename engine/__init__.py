"""Blueprint Studio engine: parse, lint, check, judge, score, run and report Weval blueprints.

Everything a caller needs is importable from here; the names are listed in `__all__`.
"""

from engine.blueprint import (
    Blueprint,
    Message,
    Point,
    Prompt,
    Span,
    blueprint_id_from_path,
    hash_prompt_id,
    load_blueprint,
    parse_blueprint,
)
from engine.checks import (
    CheckDef,
    CheckEnv,
    call_host_refusal,
    evaluate_function_points,
    evaluate_point,
    function_names,
    js_regex_error,
    js_syntax_error,
    lookup,
)
from engine.errors import (
    BlueprintError,
    ConfigError,
    EngineError,
    InputError,
    MissingKeyError,
    ProviderError,
    StoreError,
    UnknownProviderError,
)
from engine.lint import Diagnostic, apply_fix, authoring_schema, lint
from engine.providers import (
    ChatRequest,
    ChatResponse,
    PriceTable,
    ProviderCallError,
    ProviderPool,
    ProviderStats,
    Usage,
    estimate_tokens,
)

__all__ = [
    "Blueprint",
    "BlueprintError",
    "ChatRequest",
    "ChatResponse",
    "CheckDef",
    "CheckEnv",
    "ConfigError",
    "Diagnostic",
    "EngineError",
    "InputError",
    "Message",
    "MissingKeyError",
    "Point",
    "PriceTable",
    "Prompt",
    "ProviderCallError",
    "ProviderError",
    "ProviderPool",
    "ProviderStats",
    "Span",
    "StoreError",
    "UnknownProviderError",
    "Usage",
    "apply_fix",
    "authoring_schema",
    "blueprint_id_from_path",
    "call_host_refusal",
    "estimate_tokens",
    "evaluate_function_points",
    "evaluate_point",
    "function_names",
    "hash_prompt_id",
    "js_regex_error",
    "js_syntax_error",
    "lint",
    "load_blueprint",
    "lookup",
    "parse_blueprint",
]
