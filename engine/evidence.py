"""What was recorded for one response: conversation, tool calls, timings, structured output."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.records import Record, coerce_float_lists

__all__ = ["Evidence", "ToolCall"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCall(Record):
    """One tool operation, from a `TOOL_CALL {json}` trace line or a provider's native call."""

    name: str
    """The tool's name."""
    arguments: Any = None
    """The call's arguments (usually an object)."""
    id: str | None = None
    """The provider's call id, if any."""
    result: Any = None
    """The tool's output, if recorded."""
    error: str | None = None
    """The tool's error, if the call failed."""
    message_index: int | None = None
    """Index of the conversation turn that made the call."""
    source: Literal["trace", "native"] = "native"
    """`trace` for TOOL_CALL lines, `native` for provider calls."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Evidence(Record):
    """Everything observed about one response, given to every point function.

    `text` is Weval's "subject text": the generated assistant turns joined with a blank line
    (the final answer when only one turn is generated). Missing evidence is None, never an
    empty stand-in: evaluators that need it report `unverified`.
    """

    prompt_id: str
    """The prompt's id."""
    model_id: str
    """The effective model id (e.g. `openai:gpt-4o[temp:0]`)."""
    text: str
    """The subject text the functions and judges see."""
    final_text: str | None = None
    """The final assistant turn."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    """Full conversation: system, fixed and generated turns (`role`, `content`)."""
    generated_indices: list[int] = field(default_factory=list)
    """Indices in `messages` of the generated turns."""
    tool_calls: list[ToolCall] | None = None
    """Native tool calls recorded from the provider; None if none."""
    durations_ms: list[float] | None = None
    """Recorded timed spans in milliseconds; None if not timed."""
    response_schema: dict[str, Any] | None = None
    """The JSON Schema the structured output should satisfy."""

    def __post_init__(self) -> None:
        coerce_float_lists(self, ("durations_ms",))
