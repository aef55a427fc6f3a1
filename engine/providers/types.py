"""The data of a chat call: request, response, token usage, and per-provider statistics."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Protocol

from typing_extensions import TypedDict

from engine.evidence import ToolCall
from engine.modelids import DEFAULT_CONCURRENCY
from engine.records import Record, coerce_floats

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

    role: Literal["system", "user", "assistant"]
    content: str


ChatMessage.__pydantic_config__ = {"extra": "ignore"}  # type: ignore[attr-defined]
"""Read by pydantic when a request is validated by it (`engine.records_pydantic`)."""


def _named_tools(tools: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Refuse a tool definition without a non-empty `name` string."""
    for i, tool in enumerate(tools or ()):
        if not isinstance(tool.get("name"), str) or not tool["name"]:
            raise ValueError(f"tool {i} needs a 'name' string")
    return tools


@dataclass(frozen=True, kw_only=True, slots=True)
class ChatRequest(Record):
    """One chat call to one model.

    `tools` are a blueprint's tool definitions (`{name, description?, schema?}`, where
    `schema` is a JSON Schema of the arguments); they are sent in each provider's native
    format. `temperature` and `max_tokens` are sent only when set (Anthropic requires a
    maximum, so it gets 1024 by default).
    """

    model_id: str
    """`provider:model`, e.g. `openai:gpt-4.1-mini` or `ollama:llama3.2`."""
    messages: list[ChatMessage] = field(metadata={"min_length": 1})
    """The conversation; a system message may come first."""
    temperature: float | None = None
    """Sampling temperature, if set."""
    max_tokens: int | None = field(default=None, metadata={"ge": 1})
    """Output token cap, if set."""
    tools: list[dict[str, Any]] | None = None
    """Tool definitions `{name, description?, schema?}`."""
    timeout_s: float = field(default=60, metadata={"gt": 0})
    """Deadline of one attempt, seconds."""
    prompt_id: str | None = None
    """The blueprint prompt this call answers (local models answer by it; never sent to a provider,
    not part of the cache key)."""
    variant: str | None = None
    """What else tells this model's answers apart (a custom model's address and name, hashed): part
    of the cache key, never sent."""

    field_checks: ClassVar[Mapping[str, Callable[[Any], Any]]] = MappingProxyType(
        {"tools": _named_tools}
    )

    def __post_init__(self) -> None:
        self.validate_fields()  # as pydantic did: a bad request raises its ValidationError


@dataclass(frozen=True, kw_only=True, slots=True)
class Usage(Record):
    """Tokens a call consumed (0 when the provider does not say)."""

    input_tokens: int = field(default=0, metadata={"ge": 0})
    """Prompt tokens."""
    output_tokens: int = field(default=0, metadata={"ge": 0})
    """Generated tokens."""

    def __post_init__(self) -> None:
        tokens = (self.input_tokens, self.output_tokens)
        if not all(type(n) is int and n >= 0 for n in tokens):
            self.validate_fields()


@dataclass(frozen=True, kw_only=True, slots=True)
class ChatResponse(Record):
    """A successful chat call."""

    text: str
    """The answer's text ('' when it is only tool calls)."""
    tool_calls: list[ToolCall] | None = None
    """Native tool calls, normalized; None when there are none."""
    usage: Usage = field(default_factory=Usage)
    """Token usage."""
    latency_ms: float
    """Wall time of the successful attempt."""
    attempts: int = field(metadata={"ge": 1})
    """Attempts made, the successful one included."""
    model: str
    """The model the provider says it ran (else the requested one)."""
    finish_reason: str | None = None
    """Why generation stopped."""
    cost_usd: float | None = None
    """Cost from the price table; None when the price is unknown."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("latency_ms", "cost_usd"))
        if type(self.attempts) is not int or self.attempts < 1:
            self.validate_fields()


@dataclass(frozen=True, kw_only=True, slots=True)
class ProviderStats(Record):
    """What one provider has done in a pool so far (a snapshot; never holds keys)."""

    provider: str
    """The provider prefix, e.g. `openai`."""
    calls: int = 0
    """Calls started (`chat` invocations)."""
    succeeded: int = 0
    """Calls that returned a response."""
    failed: int = 0
    """Calls that raised after their attempts."""
    attempts: int = 0
    """HTTP attempts made."""
    retries: int = 0
    """Attempts beyond the first of each call."""
    rate_limited: int = 0
    """429 answers received."""
    errors: int = 0
    """Failed attempts of any kind (429s included)."""
    limit: int
    """The current adaptive concurrency limit."""
    in_flight: int = 0
    """Attempts running now."""
    max_in_flight: int = 0
    """The most attempts that ran at once."""
    input_tokens: int = 0
    """Prompt tokens of successful calls."""
    output_tokens: int = 0
    """Generated tokens of successful calls."""
    cost_usd: float = 0.0
    """Sum of the known costs."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("cost_usd",))


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
