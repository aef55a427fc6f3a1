"""People's picks between two answers of a run (Weval's pairs): the typed row and its queries."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from typing import Any, Literal

from engine.store.writer import upsert

__all__ = ["Choice", "PreferenceQueries", "PreferenceRow"]

Choice = Literal["a", "b", "same"]
"""A pick in canonical terms: `a` (the first model of the pair is better), `b`, or `same`."""

_COLUMNS = "run_id, prompt_id, model_a, model_b, reviewer, choice, created_at"
_SAVE = upsert("preferences", _COLUMNS, "run_id, prompt_id, model_a, model_b, reviewer")


@dataclass(frozen=True)
class PreferenceRow:
    """One reviewer's pick between two models' answers to one prompt of a run.

    Attributes:
        run_id: The run whose answers were compared.
        prompt_id: The prompt.
        model_a: The first model of the pair in canonical (sorted) order, whatever was shown first.
        model_b: The second model (`model_a < model_b`).
        reviewer: Who picked (the member's e-mail in team mode, `me` in personal mode).
        choice: `a` (model_a's answer is better), `b`, or `same` (about the same).
        created_at: When (ISO-8601, UTC); a new pick of the same reviewer replaces the old one.
    """

    run_id: str
    prompt_id: str
    model_a: str
    model_b: str
    reviewer: str
    choice: Choice
    created_at: str

    def __post_init__(self) -> None:
        if not self.model_a < self.model_b:
            raise ValueError(
                f"a preference names its models in sorted order (got {self.model_a!r}, "
                f"{self.model_b!r})"
            )
        if self.choice not in ("a", "b", "same"):
            raise ValueError(f"a preference's choice is a, b or same (got {self.choice!r})")


def _row(values: Sequence[Any]) -> PreferenceRow:
    v = [str(x) for x in values]
    choice: Choice = "a" if v[5] == "a" else "b" if v[5] == "b" else "same"
    return PreferenceRow(v[0], v[1], v[2], v[3], v[4], choice, v[6])


class PreferenceQueries(ABC):
    """People's picks between two answers, over a backend's `_query` (see `Store`)."""

    @abstractmethod
    def _query(
        self, sql: str, params: tuple[Any, ...] = (), *, writing: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one statement in its own transaction; return the column names and the rows."""

    def save_preference(self, row: PreferenceRow) -> None:
        """Record a pick; it replaces the same reviewer's earlier pick on the same pair."""
        self._query(_SAVE, astuple(row), writing=True)

    def preferences(self, run_id: str) -> list[PreferenceRow]:
        """Every pick on a run's answers, oldest first."""
        rows = self._query(
            f"SELECT {_COLUMNS} FROM preferences WHERE run_id=? "
            "ORDER BY created_at, prompt_id, model_a, model_b, reviewer",
            (run_id,),
        )[1]
        return [_row(r) for r in rows]
