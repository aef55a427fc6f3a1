"""The per-base-model view of a run's variants (temperatures, system prompts), as plain rows.

The numbers come from the engine (`Comparison.variants()`, Weval's aggregation); this module
only arranges them for the Results page. Pure: no Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.comparison import IDEAL_MODEL_ID
from engine.scoring.variants import parse_variant_id
from studio.core.resultdata import Results

__all__ = ["VariantGroup", "variant_groups"]


@dataclass(frozen=True)
class VariantGroup:
    """One base model (and system prompt) with its variants and per-prompt rows."""

    bucket: str
    models: list[str]
    rows: list[dict[str, Any]]


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def variant_groups(results: Results) -> list[VariantGroup]:
    """The groups that have two or more variants, with one row per prompt (empty if none)."""
    merged = results.comparison.variants()
    if merged is None:
        return []
    members: dict[str, list[str]] = {}
    for model in results.models:
        if model != IDEAL_MODEL_ID:
            members.setdefault(parse_variant_id(model).bucket, []).append(model)
    groups = []
    for bucket, models in members.items():
        if len(models) < 2:
            continue
        rows = []
        for pid in results.prompt_ids:
            cell = merged.get(pid, {}).get(bucket)
            score = cell if isinstance(cell, dict) else {}
            rows.append(
                {
                    "Prompt": pid,
                    "Mean score": _num(score.get("avgCoverageExtent")),
                    "Spread (std-dev)": _num(score.get("stdDev")),
                    "Variants scored": int(score.get("sampleCount") or 0),
                }
            )
        groups.append(VariantGroup(bucket, models, rows))
    return groups
