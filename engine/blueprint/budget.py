"""How much work a blueprint may expand to: its prompts and points, counted before normalizing.

The alias limit (`compose.MAX_ALIAS_ITEMS`) bounds how many values a file expands to, but not
the work they cause: 900 prompts that each reference one list of 1,000 points (`should: *p`,
41 KB) stay under it, yet ask every reader to build, check and write 900,000 points. The
prompts and points are counted here, as they are written and before anything is built from
them, and a file past either limit is refused at the prompt that passes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine.blueprint.layout import RawPrompt
from engine.blueprint.source import Span, span_of_key
from engine.errors import BlueprintError

__all__ = ["MAX_POINTS", "MAX_PROMPTS", "PointBudget", "WorkLimitError", "check_prompt_count"]

MAX_PROMPTS: Final = 20_000
"""The most prompts a blueprint may have (a `*name` copy of a prompt counts as a prompt)."""
MAX_POINTS: Final = 100_000
"""The most points all prompts together may have, each `*name` copy of a list counted in full."""

_POINT_KEYS: Final = ("should", "points", "expect", "expects", "expectations", "should_not")
_ALIAS_NOTE: Final = (
    "each `*name` that repeats an anchored list or prompt counts as a full copy of it"
)


class WorkLimitError(BlueprintError):
    """The blueprint would expand to more prompts or points than any reader may build."""


def _refused(message: str, span: Span | None) -> WorkLimitError:
    return WorkLimitError(
        message, line=span.line if span else None, column=span.column if span else None
    )


def check_prompt_count(raw_prompts: Sequence[RawPrompt]) -> None:
    """Refuse a blueprint with more than `MAX_PROMPTS` prompts, at the first one too many.

    Raises:
        WorkLimitError: There are too many prompts.
    """
    if len(raw_prompts) > MAX_PROMPTS:
        raise _refused(
            f"This blueprint has {len(raw_prompts):,} prompts, more than the {MAX_PROMPTS:,} a "
            f"blueprint may have ({_ALIAS_NOTE}). Split it into several blueprints.",
            raw_prompts[MAX_PROMPTS][1],
        )


def _count(points: Any) -> int:
    if not isinstance(points, list):
        return 1
    return sum(len(item) if isinstance(item, list) else 1 for item in points)


class PointBudget:
    """Counts the points of a blueprint's prompts as they are read, up to `MAX_POINTS`."""

    def __init__(self) -> None:
        """Start with no point counted."""
        self.points = 0

    def spend(self, prompt: Any, span: Span | None) -> None:
        """Count the points of one raw prompt (its `should` and `should_not` lists).

        Raises:
            WorkLimitError: All prompts so far have more than `MAX_POINTS` points.
        """
        if not isinstance(prompt, dict):
            return
        for key in _POINT_KEYS:
            value = prompt.get(key)
            if not value:
                continue
            self.points += _count(value)
            if self.points > MAX_POINTS:
                raise _refused(
                    f"The prompts up to this one have {self.points:,} points, more than the "
                    f"{MAX_POINTS:,} a blueprint may have ({_ALIAS_NOTE}). Write fewer points "
                    "or split the blueprint.",
                    span_of_key(prompt, key) or span,
                )
