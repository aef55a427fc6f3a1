"""What was recorded for one response: conversation, tool calls, timings, structured output."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Evidence", "ToolCall"]


class ToolCall(BaseModel):
    """One tool operation, from a `TOOL_CALL {json}` trace line or a provider's native call."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str = Field(description="The tool's name.")
    arguments: Any = Field(default=None, description="The call's arguments (usually an object).")
    id: str | None = Field(default=None, description="The provider's call id, if any.")
    result: Any = Field(default=None, description="The tool's output, if recorded.")
    error: str | None = Field(default=None, description="The tool's error, if the call failed.")
    message_index: int | None = Field(
        default=None, description="Index of the conversation turn that made the call."
    )
    source: Literal["trace", "native"] = Field(
        default="native", description="`trace` for TOOL_CALL lines, `native` for provider calls."
    )


class Evidence(BaseModel):
    """Everything observed about one response, given to every point function.

    `text` is Weval's "subject text": the generated assistant turns joined with a blank line
    (the final answer when only one turn is generated). Missing evidence is None, never an
    empty stand-in: evaluators that need it report `unverified`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    prompt_id: str = Field(description="The prompt's id.")
    model_id: str = Field(description="The effective model id (e.g. `openai:gpt-4o[temp:0]`).")
    text: str = Field(description="The subject text the functions and judges see.")
    final_text: str | None = Field(default=None, description="The final assistant turn.")
    messages: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Full conversation: system, fixed and generated turns (`role`, `content`).",
    )
    generated_indices: list[int] = Field(
        default_factory=list, description="Indices in `messages` of the generated turns."
    )
    tool_calls: list[ToolCall] | None = Field(
        default=None, description="Native tool calls recorded from the provider; None if none."
    )
    durations_ms: list[float] | None = Field(
        default=None, description="Recorded timed spans in milliseconds; None if not timed."
    )
    response_schema: dict[str, Any] | None = Field(
        default=None, description="The JSON Schema the structured output should satisfy."
    )
