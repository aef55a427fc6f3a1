"""What a cell planned from a stored answer (a re-score) knows of it: the shared type of a plan.

`engine.run.plan.CellPlan.recorded` holds a `StoredAnswer`; `engine.run.recorded.Recorded` is
the one kind there is, and `engine.run.cell.Conversation.stored` rebuilds a conversation from
its `StoredTurns`. Kept apart so a plan, a conversation and a stored answer need not import
each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.evidence import ToolCall

__all__ = ["StoredAnswer", "StoredTurns"]


@dataclass(frozen=True)
class StoredTurns:
    """A stored conversation as the run scored it: its turns and which were generated.

    Attributes:
        history: Every turn (system, fixed and generated), as stored.
        generated: Indices in `history` of the generated turns (empty when not answered).
        tool_calls: The tool calls of the generated turns.
        durations: Each generated turn's latency (ms), as the original run had it.
        latency_ms: How long the whole answer took.
    """

    history: list[dict[str, Any]]
    generated: list[int] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    durations: list[float] = field(default_factory=list)
    latency_ms: float | None = None


class StoredAnswer(Protocol):
    """A stored answer to score instead of generating one (`engine.run.recorded.Recorded`)."""

    @property
    def answered(self) -> bool:
        """False when the run has no answer for this cell (its generation failed)."""
        ...

    @property
    def error(self) -> str | None:
        """Why there is nothing to score, for a cell the run could not answer."""
        ...

    def transcript(self) -> tuple[list[dict[str, Any]], list[int]]:
        """The stored conversation and the indices of its generated turns."""
        ...

    def turns(self) -> StoredTurns:
        """The conversation as the run scored it."""
        ...
