"""The lint rules, one module per area; `RULES` runs them all in a fixed order."""

from __future__ import annotations

from engine.lint.rules import embedding, functions, header, keys, points, prompts, should_not

__all__ = ["RULES"]

RULES = (
    *keys.RULES,
    *points.RULES,
    *functions.RULES,
    *should_not.RULES,
    *prompts.RULES,
    *header.RULES,
    *embedding.RULES,
)
