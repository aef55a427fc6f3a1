"""One cell's conversation: its turns generated in order, usage added up, and its stored row."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.blueprint.models import Message
from engine.evidence import Evidence, ToolCall
from engine.js.strings import is_js_blank
from engine.jsonfast import dumps_compact
from engine.run.calls import CallResult
from engine.run.plan import CellPlan
from engine.run.stored import StoredTurns
from engine.store import CellRow
from engine.store.migrations import now
from engine.store.rows import Usage

if TYPE_CHECKING:
    from engine.scoring.cells import CellScore

__all__ = ["Conversation", "cell_row"]

Answer = Callable[[list[dict[str, Any]], int], Awaitable[CallResult]]
"""Produces the answer to a history (the turn index counts generated turns from 0)."""


@dataclass
class Conversation:
    """A cell's history as it is generated: fixed turns, answers, tool calls, timings."""

    cell: CellPlan
    history: list[dict[str, Any]] = field(default_factory=list)
    generated: list[int] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    durations: list[float] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    started: float = field(default_factory=time.perf_counter)
    latency_ms: float | None = None
    """How long the answer took, when it was generated before (a re-score); else timed here."""

    def __post_init__(self) -> None:
        if self.cell.system is not None and not self.history:
            self.history.append({"role": "system", "content": self.cell.system})

    @classmethod
    def stored(cls, cell: CellPlan, turns: StoredTurns) -> Conversation:
        """The conversation of a stored answer (a re-score), for `cell`; nothing is generated."""
        return cls(
            cell=cell,
            history=turns.history,
            generated=turns.generated,
            tool_calls=turns.tool_calls,
            durations=turns.durations,
            latency_ms=turns.latency_ms,
        )

    async def generate(self, answer: Answer) -> None:
        """Walk the prompt's messages, generating each placeholder and the final answer."""
        messages = self.cell.prompt.messages
        # None marks the final answer, generated after a conversation that ends with the user.
        turns: list[Message | None] = list(messages)
        if messages and messages[-1].role == "user":
            turns.append(None)
        turn = 0
        for msg in turns:
            if msg is not None and not msg.is_placeholder:
                self.history.append({"role": msg.role, "content": msg.content})
                continue
            result = await answer(list(self.history), turn)
            turn += 1
            self.history.append({"role": "assistant", "content": result.text})
            index = len(self.history) - 1
            self.generated.append(index)
            self.durations.append(result.latency_ms)
            for c in result.tool_calls or []:
                self.tool_calls.append(c.model_copy(update={"message_index": index}))
            self.usage.add(result.input_tokens, result.output_tokens, result.cost_usd)

    @property
    def answer_ms(self) -> float:
        """How long the model took: the calls of its generated turns, summed.

        Not the wait for a free slot in the pool nor the scoring, which depend on the run, not
        on the model. A cached answer counts its original call's time. The cell's own time
        since it started when nothing was generated (a failed cell).
        """
        if self.latency_ms is not None:
            return self.latency_ms
        if self.durations:
            return sum(self.durations)
        return (time.perf_counter() - self.started) * 1000

    @property
    def final(self) -> str:
        """The last generated answer ('' when nothing was generated)."""
        return str(self.history[self.generated[-1]]["content"]) if self.generated else ""

    @property
    def empty(self) -> bool:
        """True when the final answer is blank and no tool was called."""
        return is_js_blank(self.final) and not self.tool_calls

    def evidence(self) -> Evidence:
        """What the points are checked against."""
        cell = self.cell
        # Every value is built here with its declared type: skip re-validation (hot path).
        return Evidence.model_construct(
            prompt_id=cell.prompt.id,
            model_id=cell.model_id,
            text="\n\n".join(str(self.history[i]["content"]) for i in self.generated),
            final_text=self.final,
            messages=self.history,
            generated_indices=self.generated,
            tool_calls=self.tool_calls or None,
            durations_ms=[d for d in self.durations if d > 0] or None,
            response_schema=cell.prompt.response_schema,
        )


def cell_row(run_id: str, conv: Conversation, score: CellScore) -> CellRow:
    """The stored row of a finished cell."""
    cell, history = conv.cell, conv.history
    final = next((m["content"] for m in reversed(history) if m["role"] == "assistant"), None)
    return CellRow(
        run_id=run_id,
        prompt_id=cell.prompt.id,
        model_id=cell.model_id,
        base_model=cell.base_model,
        status="failed" if score.failed else "scored",
        score=score.score,
        response=final,
        messages=dumps_compact(history),
        tool_calls=dumps_compact([c.model_dump() for c in conv.tool_calls])
        if conv.tool_calls
        else None,
        error=score.error if score.failed else None,
        latency_ms=conv.answer_ms,
        input_tokens=conv.usage.input_tokens,
        output_tokens=conv.usage.output_tokens,
        cost_usd=conv.usage.cost_usd,
        result=dumps_compact(score.to_weval()),
        updated_at=now(),
    )
