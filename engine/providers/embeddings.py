"""Embedding calls: the request, the answer, and the wire (OpenAI-compatible `POST /embeddings`).

OpenAI and every OpenAI-compatible provider get `POST {base}/embeddings`; Ollama gets its
OpenAI-compatible `POST {base}/v1/embeddings`. OpenAI's body carries `encoding_format: float`
and, for the `-3` models, Weval's `dimensions`. Anthropic has no embeddings endpoint, and a
blueprint's custom model objects are chat models: both are refused with a message.
`local:<name>` models are computed in this process (`engine.providers.local_embed`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

from engine.errors import ConfigError
from engine.modelids import PROVIDERS
from engine.providers.endpoints import Endpoint
from engine.providers.types import Usage
from engine.providers.wire import WireFormatError
from engine.records import Record, coerce_float_lists, coerce_floats

__all__ = [
    "EMBED_TIMEOUT_S",
    "MAX_DIMENSIONS",
    "OPENAI_DIMENSIONS",
    "EmbedRequest",
    "EmbedResponse",
    "EmbeddingReply",
    "LocalEmbedder",
    "build_embedding",
    "parse_embedding",
    "unsupported",
]

EMBED_TIMEOUT_S = 60.0
OPENAI_DIMENSIONS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072}
"""The `dimensions` OpenAI is asked for (Weval's; `float` is always the encoding asked for)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class EmbedRequest(Record):
    """One text to embed with one model."""

    model_id: str
    """`provider:model`, e.g. `openai:text-embedding-3-small`."""
    text: str
    """The text to embed."""
    timeout_s: float = field(default=EMBED_TIMEOUT_S, metadata={"gt": 0})
    """Deadline of an attempt."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("timeout_s",))
        if type(self.timeout_s) is not float or not self.timeout_s > 0:
            self.validate_fields()


@dataclass(frozen=True, kw_only=True, slots=True)
class EmbedResponse(Record):
    """A successful embedding call."""

    vector: list[float]
    """The embedding."""
    usage: Usage = field(default_factory=Usage)
    """Input tokens (0 when not said)."""
    latency_ms: float
    """Wall time of the successful attempt."""
    attempts: int = field(metadata={"ge": 1})
    """Attempts made, the successful one included."""
    model: str
    """The model the provider says it ran (else the requested one)."""
    cost_usd: float | None = None
    """Cost from the price table; None when the price is unknown."""

    def __post_init__(self) -> None:
        coerce_float_lists(self, ("vector",))
        coerce_floats(self, ("latency_ms", "cost_usd"))
        if type(self.attempts) is not int or self.attempts < 1:
            self.validate_fields()


@dataclass(frozen=True, kw_only=True, slots=True)
class EmbeddingReply(Record):
    """What a provider answered, before timing and cost are added."""

    extra_keys: ClassVar[Literal["forbid", "ignore"]] = "ignore"

    vector: list[float]
    usage: Usage
    model: str | None

    def __post_init__(self) -> None:
        coerce_float_lists(self, ("vector",))


class LocalEmbedder(Protocol):
    """An embedding model computed in this process (no key, no network)."""

    def check(self, model_id: str) -> str | None:
        """None if `model_id` can be embedded here, else why not (plain words)."""
        ...

    def embed(self, model_id: str, text: str) -> list[float]:
        """Return the embedding of `text`.

        Raises:
            EngineError: It cannot be computed (the message says why).
        """
        ...


def build_embedding(
    endpoint: Endpoint, request: EmbedRequest
) -> tuple[str, dict[str, str], dict[str, Any]]:
    """Return `(url, headers, body)` of an embedding call.

    Raises:
        ConfigError: The provider has no embeddings endpoint.
    """
    if endpoint.custom:
        raise ConfigError(
            f"'{endpoint.model_id}' is a custom chat model of the blueprint; an embeddingModel "
            "must be a provider's embedding model (for example openai:text-embedding-3-small) "
            "or local:wordllama."
        )
    why = unsupported(endpoint.model_id)
    if why is not None:
        raise ConfigError(why)
    headers = {"Authorization": f"Bearer {endpoint.key}"} if endpoint.key else {}
    body: dict[str, Any] = {"model": endpoint.model, "input": endpoint_text(endpoint, request)}
    if endpoint.provider == "openai":
        body["encoding_format"] = "float"
        if (size := OPENAI_DIMENSIONS.get(endpoint.model)) is not None:
            body["dimensions"] = size
    if endpoint.api == "ollama":
        return f"{endpoint.base_url}/v1/embeddings", headers, body
    return f"{endpoint.base_url}/embeddings", headers, body


def unsupported(model_id: str) -> str | None:
    """Why a known provider cannot embed `model_id` (it has no embeddings endpoint), if so."""
    info = PROVIDERS.get(model_id.partition(":")[0].strip().lower())
    if info is None or info.api != "anthropic":
        return None
    return (
        f"'{model_id}': Anthropic has no embeddings endpoint. Use an OpenAI-compatible "
        "embedding model (openai:text-embedding-3-small, ollama:nomic-embed-text) or "
        "local:wordllama."
    )


def endpoint_text(endpoint: Endpoint, request: EmbedRequest) -> str:
    """The text sent: as is, except that Together gets line breaks as spaces (as from Weval)."""
    if endpoint.provider == "together":
        return request.text.replace("\n", " ")
    return request.text


MAX_DIMENSIONS = 16_384
"""The most numbers an embedding may have (the largest common models use 3,072 or 4,096)."""


def parse_embedding(endpoint: Endpoint, data: Any) -> EmbeddingReply:
    """Read `{"data": [{"embedding": [...]}], "usage": {...}, "model"}`.

    Raises:
        WireFormatError: The body has no finite vector of numbers.
    """
    if not isinstance(data, dict) or not isinstance(data.get("data"), list) or not data["data"]:
        raise WireFormatError("no 'data' list in the embeddings answer")
    first = data["data"][0]
    vector = first.get("embedding") if isinstance(first, dict) else None
    if not isinstance(vector, list) or not vector:
        raise WireFormatError("no 'embedding' vector in the embeddings answer")
    if len(vector) > MAX_DIMENSIONS:
        raise WireFormatError(
            f"the embedding has {len(vector):,} numbers, more than the {MAX_DIMENSIONS:,} an "
            "embedding may have"
        )
    out: list[float] = []
    for value in vector:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise WireFormatError("the embedding holds something other than numbers")
        number = float(value)
        if not math.isfinite(number):
            raise WireFormatError("the embedding holds a number that is not finite")
        out.append(number)
    usage = data.get("usage")
    tokens = usage.get("prompt_tokens") if isinstance(usage, dict) else None
    model = data.get("model")
    return EmbeddingReply(
        vector=out,
        usage=Usage(input_tokens=tokens if isinstance(tokens, int) and tokens >= 0 else 0),
        model=model if isinstance(model, str) else None,
    )
