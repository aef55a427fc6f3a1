"""Blueprint parsing: YAML/JSON text to a typed, normalized `Blueprint` (Weval-exact)."""

from engine.blueprint.models import Blueprint, Message, Point, Prompt
from engine.blueprint.parse import blueprint_id_from_path, load_blueprint, parse_blueprint
from engine.blueprint.prompts import hash_prompt_id
from engine.blueprint.source import Span

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
