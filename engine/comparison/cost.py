"""What a run cost, one figure for every page: the comparison JSON's `blueprintStudio.cost`.

A run's total is every call it paid for: generating the answers, judging them, extracting key
points from ideals, embeddings and the executive summary. A model's cost is its answers plus
the judging of them. A call answered from the cache (or shared with an identical call of the
same run) cost nothing this run. A figure that includes a call whose model has no known price
is unknown (None here, null in the JSON), never $0. Pages word it with `money_text`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.store.rows import CallCost

__all__ = ["MONEY_DIGITS", "UNKNOWN", "RunCost", "money_text"]

UNKNOWN = "cost unknown"
"""What a cost with a missing price reads as (never "$0"; `engine.report.costs` words the rest)."""

MONEY_DIGITS = 4
"""Dollars are shown with 4 decimals everywhere a person reads them ($0.0466)."""

GENERATE = "generate"
JUDGE = "judge"


@dataclass(frozen=True)
class RunCost:
    """A run's cost: total, per model (answers + their judging), judging, and the rest.

    Each figure is USD, or None when part of it has no known price.
    """

    total: float | None
    per_model: dict[str, float | None] = field(default_factory=dict)
    judging: float | None = 0.0
    other: float | None = 0.0
    unpriced: tuple[str, ...] = ()
    """The models called without a known price (ids as called)."""

    @staticmethod
    def from_calls(calls: Iterable[CallCost], models: Iterable[str] = ()) -> RunCost:
        """Sum the calls of a run; `models` (effective ids) are listed even if they cost 0."""
        sums: dict[str, float] = {}
        unknown: set[str] = set()
        unpriced: list[str] = []

        def add(name: str, call: CallCost) -> None:
            sums[name] = sums.get(name, 0.0) + call.cost_usd
            if call.unpriced:
                unknown.add(name)

        per_model = dict.fromkeys(models, 0.0)
        for call in calls:
            add("total", call)
            if call.unpriced and call.model_id not in unpriced:
                unpriced.append(call.model_id)
            if call.kind == JUDGE:
                add("judging", call)
            elif call.kind != GENERATE:
                add("other", call)
            if call.kind in (GENERATE, JUDGE) and call.cell_model is not None:
                per_model.setdefault(call.cell_model, 0.0)
                add(f"model:{call.cell_model}", call)

        def figure(name: str) -> float | None:
            return None if name in unknown else round(sums.get(name, 0.0), 10)

        return RunCost(
            total=figure("total"),
            per_model={m: figure(f"model:{m}") for m in per_model},
            judging=figure("judging"),
            other=figure("other"),
            unpriced=tuple(unpriced),
        )

    def to_json(self) -> dict[str, Any]:
        """`blueprintStudio.cost` (USD; null where a price is unknown)."""
        out: dict[str, Any] = {
            "total": self.total,
            "perModel": dict(self.per_model),
            "judging": self.judging,
            "other": self.other,
        }
        if self.unpriced:
            out["unpriced"] = list(self.unpriced)
        return out

    @staticmethod
    def from_json(data: Any) -> RunCost | None:
        """Read `blueprintStudio.cost` (None when absent or not of this shape)."""
        if not isinstance(data, Mapping) or "total" not in data:
            return None
        per_model = data.get("perModel")
        unpriced = data.get("unpriced")
        return RunCost(
            total=_usd(data.get("total")),
            per_model={str(m): _usd(v) for m, v in per_model.items()}
            if isinstance(per_model, Mapping)
            else {},
            judging=_usd(data.get("judging")),
            other=_usd(data.get("other")),
            unpriced=tuple(str(m) for m in unpriced) if isinstance(unpriced, list) else (),
        )

    def model_text(self, model: str) -> str:
        """A model's cost as shown ("$0.0123", "cost unknown", or "—" when not recorded)."""
        if model not in self.per_model:
            return "—"
        return money_text(self.per_model[model])

    def breakdown(self) -> str:
        """One phrase: "cost $0.0466 (judging $0.0102, key points, embeddings, summary $0.0011)".

        "cost unknown" when a price is missing; the parts that cost nothing are left out.
        """
        if self.total is None:
            return UNKNOWN
        parts = [
            f"{label} {money_text(value)}"
            for label, value in (
                ("judging", self.judging),
                ("key points, embeddings, summary", self.other),
            )
            if value != 0
        ]
        return f"cost {money_text(self.total)}" + (f" ({', '.join(parts)})" if parts else "")


def _usd(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def money_text(value: float | None) -> str:
    """Dollars as every page shows them: `$0.0466` (4 decimals), or "cost unknown".

    An amount too small for 4 decimals is "< $0.0001", so nothing paid for reads as $0.
    """
    if value is None:
        return UNKNOWN
    if 0 < value < 0.5 * 10**-MONEY_DIGITS:
        return f"< ${10**-MONEY_DIGITS:.{MONEY_DIGITS}f}"
    return f"${value:.{MONEY_DIGITS}f}"
