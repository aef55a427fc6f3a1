"""Variants (temperatures, system prompts) of one base model aggregated, as Weval's UI does (spec §6.3).

`aggregate_variants` is Weval's `aggregateCoverageByTemperature` over comparison JSON
(`llmCoverageScores`): for each prompt, the results of one base model and system-prompt index
(the `[temp:…]` suffix removed) are merged into one: the mean of `avgCoverageExtent`, its
population standard deviation when there are two or more, and each point's mean by its index
in the list, with `stdDev` (two or more values) and `sampleCount`. Other fields of a point come
from the first result that has points.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["VariantId", "aggregate_variants", "has_variants", "parse_variant_id"]

_TEMP = re.compile(r"\[temp:(\d+\.?\d*)\]")
_SP_IDX = re.compile(r"\[sp_idx:(\d+)\]")
_SYS = re.compile(r"\[sys:([a-zA-Z0-9]+)\]")
_IDEAL_IDS = ("IDEAL_BENCHMARK", "IDEAL_MODEL_ID")


@dataclass(frozen=True)
class VariantId:
    """An effective model id split as Weval's UI splits it."""

    base: str
    temperature: float | None
    system_index: int | None

    @property
    def bucket(self) -> str:
        """The id variants are grouped under: the base, plus `[sp_idx:i]` when there is one."""
        return (
            self.base if self.system_index is None else f"{self.base}[sp_idx:{self.system_index}]"
        )


def parse_variant_id(model_id: str) -> VariantId:
    """Split `[temp:T]`, `[sp_idx:i]` and `[sys:…]` (a numeric `sys` is an index) off an id."""
    if model_id in _IDEAL_IDS:
        return VariantId("IDEAL_MODEL_ID", None, None)
    rest = model_id
    temperature = index = None
    if (m := _TEMP.search(rest)) is not None:
        temperature = float(m.group(1))
        rest = rest[: m.start()] + rest[m.end() :]
    if (m := _SP_IDX.search(rest)) is not None:
        index = int(m.group(1))
        rest = rest[: m.start()] + rest[m.end() :]
    if (m := _SYS.search(rest)) is not None:
        if m.group(1).isdigit() and m.group(1).isascii():
            index = int(m.group(1))
        rest = rest[: m.start()] + rest[m.end() :]
    return VariantId(rest.strip(), temperature, index)


def _js_falsy(value: Any) -> bool:
    """JavaScript's falsy values (an empty object is truthy there)."""
    if value is None or value is False or value == "":
        return True
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value == 0 or math.isnan(value)
    return False


def _valid(result: Any) -> bool:
    return isinstance(result, Mapping) and "error" not in result


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if math.isnan(value) else float(value)


def _mean_sd(values: list[float]) -> tuple[float, float | None]:
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, None
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def _merge_points(group: list[Any], first: Mapping[str, Any]) -> list[dict[str, Any]]:
    merged = [dict(p) if isinstance(p, Mapping) else p for p in first["pointAssessments"]]
    for index, point in enumerate(merged):
        values = []
        for result in group:
            points = result.get("pointAssessments") if _valid(result) else None
            if (
                isinstance(points, list)
                and index < len(points)
                and isinstance(points[index], Mapping)
            ):
                value = points[index].get("coverageExtent")
                if isinstance(value, int | float) and not isinstance(value, bool):
                    values.append(float(value))
        if values and isinstance(point, dict):
            mean, sd = _mean_sd(values)
            point["coverageExtent"] = mean
            if sd is None:
                point.pop("stdDev", None)
            else:
                point["stdDev"] = sd
            point["sampleCount"] = len(values)
    return merged


def _aggregate(group: list[Any]) -> Any:
    numbers = [
        n for r in group if _valid(r) and (n := _number(r.get("avgCoverageExtent"))) is not None
    ]
    if not numbers:
        return group[0] if group else None
    mean, sd = _mean_sd(numbers)
    first = next(
        (
            r
            for r in group
            if _valid(r) and isinstance(r.get("pointAssessments"), list) and r["pointAssessments"]
        ),
        None,
    )
    out: dict[str, Any] = {}
    if first is not None and "keyPointsCount" in first:
        out["keyPointsCount"] = first["keyPointsCount"]
    out["avgCoverageExtent"] = mean
    if first is not None:
        out["pointAssessments"] = _merge_points(group, first)
    if sd is not None:
        out["stdDev"] = sd
    out["sampleCount"] = len(numbers)
    return out


def aggregate_variants(scores: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Aggregate `llmCoverageScores` by base model and system-prompt index, as Weval's UI does.

    Args:
        scores: `{promptId: {effectiveModelId: CoverageResult}}` (comparison JSON).

    Returns:
        `{promptId: {bucketId: CoverageResult}}` where the bucket is the base model id, plus
        `[sp_idx:i]` for system-prompt variants. Keys starting with `__` and null results are
        skipped; a bucket with no numeric score keeps its first result (e.g. an `{error}`).
    """
    out: dict[str, dict[str, Any]] = {}
    for pid, row in scores.items():
        out[pid] = {}
        if not isinstance(row, Mapping):
            continue
        buckets: dict[str, list[Any]] = {}
        for model_id, result in row.items():
            if str(model_id).startswith("__") or _js_falsy(result):
                continue
            buckets.setdefault(parse_variant_id(str(model_id)).bucket, []).append(result)
        for bucket, group in buckets.items():
            out[pid][bucket] = _aggregate(group)
    return out


def has_variants(model_ids: list[str]) -> bool:
    """True when two effective ids fall in the same bucket (something to aggregate)."""
    buckets = [parse_variant_id(m).bucket for m in model_ids]
    return len(set(buckets)) < len(buckets)
