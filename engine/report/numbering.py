"""Number a cell's points as the blueprint writes them (the numbers the judges' records use).

A cell lists its assessments in Weval's order (function points first, then the points judged
in words), but the blueprint, the editor and the judges' raw answers number the points in the
order they are written (`should`, then `should_not`). `point_numbers` maps one to the other so
every page, the report and the CSV show one numbering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.assessment import PointAssessment

__all__ = ["point_kinds", "point_numbers"]


def point_kinds(config: Mapping[str, Any], prompt_id: str) -> list[bool] | None:
    """For each point of the prompt, in written order: True for a function point.

    Args:
        config: The blueprint in Weval's form (a comparison's `config`).
        prompt_id: The prompt.

    Returns:
        The kinds, or None when the config does not describe the prompt's points.
    """
    prompts = config.get("prompts")
    if not isinstance(prompts, list):
        return None
    entry = next((p for p in prompts if isinstance(p, dict) and p.get("id") == prompt_id), None)
    if entry is None:
        return None
    kinds: list[bool] = []
    for key in ("points", "should_not"):
        items = entry.get(key)
        for item in items if isinstance(items, list) else []:
            for point in item if isinstance(item, list) else [item]:
                if isinstance(point, dict):
                    kinds.append("fn" in point)
                elif isinstance(point, str):
                    kinds.append(False)
    return kinds


def point_numbers(
    assessments: Sequence[PointAssessment], kinds: Sequence[bool] | None
) -> list[int]:
    """The 1-based written position of each assessment (its index + 1 when unknown).

    Args:
        assessments: A cell's assessments in Weval's order (functions first).
        kinds: `point_kinds` of the prompt, or None.
    """
    fallback = list(range(1, len(assessments) + 1))
    if kinds is None or len(kinds) != len(assessments):
        return fallback
    order = [i for i, k in enumerate(kinds) if k] + [i for i, k in enumerate(kinds) if not k]
    if any((a.kind == "function") != kinds[i] for a, i in zip(assessments, order, strict=True)):
        return fallback
    return [i + 1 for i in order]
