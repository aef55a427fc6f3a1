"""A stored answer scored again (`blueprint rescore`): its conversation rebuilt, never generated.

A run's cell stores its whole conversation (system, fixed and generated turns) and its tool
calls. Replaying it against the cell's original plan gives back exactly the conversation the
run scored (same turns, same generated indices, same subject text), so the judges get the same
prompts and their cached answers are found again. Each generated turn's timing is read from
the original run's call log, by the call's cache key, as the run itself had it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.evidence import ToolCall
from engine.run.calls import call_key
from engine.run.plan import CellPlan
from engine.run.stored import StoredTurns
from engine.store import CallRow, CellRow

__all__ = ["CallTimes", "Recorded", "generated_turns"]


def generated_turns(cell: CellPlan) -> list[int]:
    """Indices, in a cell's conversation, of the turns a run generates (as `Conversation` builds it)."""
    index = 1 if cell.system is not None else 0
    out: list[int] = []
    messages = cell.prompt.messages
    for msg in messages:
        if msg.is_placeholder:
            out.append(index)
        index += 1
    if messages and messages[-1].role == "user":
        out.append(index)
    return out


@dataclass(frozen=True)
class CallTimes:
    """The latencies (ms) of a run's generation calls: by call key, and per cell in one list."""

    by_key: dict[str, float] = field(default_factory=dict)
    by_cell: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    @staticmethod
    def of(calls: Iterable[CallRow]) -> CallTimes:
        """Index the finished generation calls of a run's log."""
        times = CallTimes()
        for call in calls:
            if call.kind != "generate" or call.error is not None:
                continue
            latency = float(call.latency_ms or 0.0)
            times.by_key[call.key] = latency
            if call.prompt_id is not None and call.cell_model is not None:
                times.by_cell.setdefault((call.prompt_id, call.cell_model), []).append(latency)
        return times

    def one_turn(self, key: tuple[str, str]) -> float | None:
        """The latency of a cell's only generation call, when the log holds exactly one."""
        found = self.by_cell.get(key)
        return found[0] if found is not None and len(found) == 1 else None


@dataclass(frozen=True)
class Recorded:
    """One stored cell of an earlier run, ready to be scored again.

    Attributes:
        origin: The cell as the run that generated it planned it (system prompt, turns).
        row: The stored cell.
        times: The generating run's call latencies.
        tools: The tools the generating run offered (part of each call's key).
    """

    origin: CellPlan
    row: CellRow
    times: CallTimes = field(repr=False)
    tools: list[Any] | None = field(default=None, repr=False)

    @property
    def answered(self) -> bool:
        """False when the run has no answer for this cell (its generation failed)."""
        return not self.row.failed

    @property
    def error(self) -> str | None:
        """Why there is nothing to score, for a cell the run could not answer."""
        if self.answered:
            return None
        reason = (self.row.error or "").removeprefix("Generation failed: ").strip()
        where = f"not answered in run {self.row.run_id}; a re-score never generates"
        return f"{reason} ({where})" if reason else where.capitalize() + "."

    def transcript(self) -> tuple[list[dict[str, Any]], list[int]]:
        """The stored conversation and the indices of its generated turns.

        Raises:
            EngineError: The stored conversation does not fit the prompt it answered.
        """
        history = self.row.history
        generated = generated_turns(self.origin)
        if not generated or generated[-1] >= len(history):
            generated = [i for i, m in enumerate(history) if m.get("role") == "assistant"][-1:]
        if not generated or any(history[i].get("role") != "assistant" for i in generated):
            raise EngineError(
                f"The stored conversation of prompt '{self.row.prompt_id}' and model "
                f"'{self.row.model_id}' has no answer to score."
            )
        return history, generated

    def turns(self) -> StoredTurns:
        """The conversation as the run scored it (`engine.run.cell.Conversation.stored`).

        Nothing was spent on it here: its usage is zero, its latency the original one.

        Raises:
            EngineError: The stored conversation does not fit the prompt it answered.
        """
        if not self.answered:
            return StoredTurns(history=self.row.history, latency_ms=self.row.latency_ms)
        history, generated = self.transcript()
        calls: list[ToolCall] = []
        if self.row.tool_calls:
            raw = json.loads(self.row.tool_calls)
            calls = [ToolCall.model_validate(c) for c in raw if isinstance(c, dict)]
        single = self.times.one_turn(self.row.key) if len(generated) == 1 else None
        durations = (
            [single] if single is not None else [self._latency(history, i) for i in generated]
        )
        return StoredTurns(
            history=history,
            generated=generated,
            tool_calls=calls,
            durations=durations,
            latency_ms=self.row.latency_ms,
        )

    def _latency(self, history: list[dict[str, Any]], index: int) -> float:
        """The latency of the call that generated turn `index` (0 when not logged)."""
        request = self.origin.request(history[:index], self.tools)
        return self.times.by_key.get(call_key("generate", request, self.origin.repeat), 0.0)
