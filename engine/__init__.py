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

__all__ = [
    "Blueprint",
    "BlueprintError",
    "ConfigError",
    "EngineError",
    "InputError",
    "Message",
    "MissingKeyError",
    "Point",
    "Prompt",
    "ProviderError",
    "Span",
    "StoreError",
    "UnknownProviderError",
    "blueprint_id_from_path",
    "hash_prompt_id",
    "load_blueprint",
    "parse_blueprint",
]
