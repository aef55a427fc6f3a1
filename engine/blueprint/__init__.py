"""Blueprint parsing: YAML/JSON text to a typed, normalized `Blueprint` (Weval-exact).

May import: the leaf modules (`engine.errors`, `engine.records`, `engine.settings`, ...),
and `engine.js` (JavaScript's values and strings); nothing above.

The names load on first use (PEP 562): `blueprint lint` reads the text with
`engine.blueprint.source` and the normalizers, and never builds the typed models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.blueprint.models import Blueprint, Message, Point, Prompt
    from engine.blueprint.parse import blueprint_id_from_path, load_blueprint, parse_blueprint
    from engine.blueprint.prompts import hash_prompt_id
    from engine.blueprint.source import Span

_HOMES = {
    "Blueprint": "models",
    "Message": "models",
    "Point": "models",
    "Prompt": "models",
    "blueprint_id_from_path": "parse",
    "load_blueprint": "parse",
    "parse_blueprint": "parse",
    "hash_prompt_id": "prompts",
    "Span": "source",
}

__all__ = [
    "Blueprint",
    "Message",
    "Point",
    "Prompt",
    "Span",
    "blueprint_id_from_path",
    "hash_prompt_id",
    "load_blueprint",
    "parse_blueprint",
]

__getattr__ = lazy_names(__name__, _HOMES)
