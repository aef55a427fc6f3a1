"""The data of a chat call: request, response, token usage, and per-provider statistics."""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator
from typing_extensions import TypedDict

from engine.evidence import ToolCall
from engine.modelids import DEFAULT_CONCURRENCY

__all__ = [
    "DEFAULT_CONCURRENCY",
    "ChatMessage",
    "ChatRequest",
    "ChatResponse",
    "LocalModel",
    "ProviderStats",
    "Usage",
]


class ChatMessage(TypedDict):
    """One conversation turn: `{"role": "system" | "user" | "assistant", "content": str}`.

    Other keys are dropped.
    """

    __pydantic_config__ = ConfigDict(extra="ignore")  # type: ignore[misc]

    role: Literal["system", "user", "assistant"]
    content: str


class ChatRequest(BaseModel):
    """One chat call to one model.

    `tools` are a blueprint's tool definitions (`{name, description?, schema?}`, where
    `schema` is a JSON Schema of the arguments); they are sent in each provider's native
    format. `temperature` and `max_tokens` are sent only when set (Anthropic requires a
    maximum, so it gets 1024 by default).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    model_id: str = Field(
        description="`provider:model`, e.g. `openai:gpt-4.1-mini` or `ollama:llama3.2`."
    )
    messages: list[ChatMessage] = Field(
        min_length=1, description="The conversation; a system message may come first."
    )
    temperature: float | None = Field(default=None, description="Sampling temperature, if set.")
    max_tokens: int | None = Field(default=None, ge=1, description="Output token cap, if set.")
    tools: list[dict[str, Any]] | None = Field(
        default=None, description="Tool definitions `{name, description?, schema?}`."
    )
    timeout_s: float = Field(default=60, gt=0, description="Deadline of one attempt, seconds.")
    prompt_id: str | None = Field(
        default=None,
        description="The blueprint prompt this call answers (local models answer by it; "
        "never sent to a provider, not part of the cache key).",
    )
    variant: str | None = Field(
        default=None,
        description="What else tells this model's answers apart (a custom model's address and "
        "name, hashed): part of the cache key, never sent.",
    )

    @field_validator("tools")
    @classmethod
    def _named_tools(cls, tools: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        for i, tool in enumerate(tools or ()):
            if not isinstance(tool.get("name"), str) or not tool["name"]:
                raise ValueError(f"tool {i} needs a 'name' string")
        return tools


class Usage(BaseModel):
    """Tokens a call consumed (0 when the provider does not say)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_tokens: int = Field(default=0, ge=0, description="Prompt tokens.")
    output_tokens: int = Field(default=0, ge=0, description="Generated tokens.")


class ChatResponse(BaseModel):
    """A successful chat call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(description="The answer's text ('' when it is only tool calls).")
    tool_calls: list[ToolCall] | None = Field(
        default=None, description="Native tool calls, normalized; None when there are none."
    )
    usage: Usage = Field(default_factory=Usage, description="Token usage.")
    latency_ms: float = Field(description="Wall time of the successful attempt.")
    attempts: int = Field(ge=1, description="Attempts made, the successful one included.")
    model: str = Field(description="The model the provider says it ran (else the requested one).")
    finish_reason: str | None = Field(default=None, description="Why generation stopped.")
    cost_usd: float | None = Field(
        default=None, description="Cost from the price table; None when the price is unknown."
    )


class ProviderStats(BaseModel):
    """What one provider has done in a pool so far (a snapshot; never holds keys)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str = Field(description="The provider prefix, e.g. `openai`.")
    calls: int = Field(default=0, description="Calls started (`chat` invocations).")
    succeeded: int = Field(default=0, description="Calls that returned a response.")
    failed: int = Field(default=0, description="Calls that raised after their attempts.")
    attempts: int = Field(default=0, description="HTTP attempts made.")
    retries: int = Field(default=0, description="Attempts beyond the first of each call.")
    rate_limited: int = Field(default=0, description="429 answers received.")
    errors: int = Field(default=0, description="Failed attempts of any kind (429s included).")
    limit: int = Field(description="The current adaptive concurrency limit.")
    in_flight: int = Field(default=0, description="Attempts running now.")
    max_in_flight: int = Field(default=0, description="The most attempts that ran at once.")
    input_tokens: int = Field(default=0, description="Prompt tokens of successful calls.")
    output_tokens: int = Field(default=0, description="Generated tokens of successful calls.")
    cost_usd: float = Field(default=0.0, description="Sum of the known costs.")


class LocalModel(Protocol):
    """A model answered in this process, without a network call (`ideal`, `replay:<file>`).

    It is registered with a `ProviderPool` under its provider prefix and called through the
    pool like any provider; its answers cost nothing and are neither cached nor counted as
    model calls.
    """

    def check(self, model_id: str) -> str | None:
        """None if `model_id` can be answered, else why not (plain words)."""
        ...

    async def chat(self, request: ChatRequest) -> ChatResponse:
        """Answer one request.

        Raises:
            EngineError: It cannot be answered (the message says why).
        """
        ...
