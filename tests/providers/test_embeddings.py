"""Embedding calls through the pool: wire, retries, errors, redaction, costs, local models."""

from __future__ import annotations

import importlib.util

import pytest

from engine.errors import ConfigError, MissingKeyError
from engine.providers import ProviderCallError, ProviderPool
from engine.providers.embeddings import (
    MAX_DIMENSIONS,
    EmbedRequest,
    EmbedResponse,
    parse_embedding,
)
from engine.providers.endpoints import resolve
from engine.providers.local_embed import LocalEmbeddings
from engine.providers.wire import WireFormatError
from engine.similarity import cosine_similarity
from tests.fakes.llm_embeddings import fake_vector
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import FAST, with_pool

MODEL = "openai:text-embedding-3-small"


def embed(environ, request: EmbedRequest, **kwargs) -> EmbedResponse:
    async def body(pool: ProviderPool) -> EmbedResponse:
        return await pool.embed(request)

    return with_pool(environ, body, **kwargs)


def test_openai_embeddings_wire_usage_and_cost(fake_llm: FakeLLM) -> None:
    response = embed(fake_llm.env(), EmbedRequest(model_id=MODEL, text="The capital is Paris"))
    (call,) = fake_llm.calls
    # Weval's OpenAIEmbeddingClient (src/lib/embedding-clients/openai-client.ts) sends this body
    assert call.path == "/v1/embeddings" and call.body == {
        "model": "text-embedding-3-small",
        "input": "The capital is Paris",
        "dimensions": 1536,
        "encoding_format": "float",
    }
    assert call.auth_present
    assert response.vector == fake_vector("The capital is Paris")
    assert response.usage.input_tokens == 4
    assert response.cost_usd == pytest.approx(4 * 0.02 / 1_000_000)


def test_an_unpriced_embedding_model_has_unknown_cost(fake_llm: FakeLLM) -> None:
    env = {**fake_llm.env(), "VLLM_BASE_URL": f"{fake_llm.url}/v1"}
    response = embed(env, EmbedRequest(model_id="vllm:my-embedder", text="hi"))
    assert response.cost_usd is None
    assert fake_llm.calls[0].model == "my-embedder"


def test_ollama_uses_its_openai_compatible_endpoint(fake_llm: FakeLLM) -> None:
    response = embed(fake_llm.env(), EmbedRequest(model_id="ollama:nomic-embed-text", text="hi"))
    assert fake_llm.calls[0].path == "/v1/embeddings"
    assert response.cost_usd == 0.0


@pytest.mark.parametrize("kind", ["500", "429", "invalid_json", "drop"])
def test_transient_failures_are_retried(fake_llm: FakeLLM, kind: str) -> None:
    fake_llm.fail_next(2, kind, retry_after="0")
    response = embed(fake_llm.env(), EmbedRequest(model_id=MODEL, text="hello"), **FAST)
    assert response.attempts == 3
    assert [c.fault for c in fake_llm.calls] == [kind, kind, None]


def test_a_refused_key_is_final_and_never_quoted(fake_llm: FakeLLM) -> None:
    fake_llm.fail_next(1, "401")
    secret = "sk-embedding-secret-123"
    with pytest.raises(ProviderCallError) as caught:
        embed(fake_llm.env(secret), EmbedRequest(model_id=MODEL, text="hello"), **FAST)
    assert caught.value.kind == "auth" and caught.value.attempts == 1
    assert "OPENAI_API_KEY" in str(caught.value) and secret not in str(caught.value)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"choices": []}, "no 'data' list"),
        ({"data": [{"embedding": []}]}, "no 'embedding' vector"),
        ({"data": [{"embedding": [1, "2"]}]}, "other than numbers"),
        ({"data": [{"embedding": [1, True]}]}, "other than numbers"),
        ({"data": [{"embedding": [1.0, float("inf")]}]}, "not finite"),
        ({"data": [{"embedding": [0.5] * (MAX_DIMENSIONS + 1)}]}, "more than the 16,384"),
        ({"data": [{"embedding": [0.5] * 2_000_000}]}, "2,000,000 numbers"),
    ],
)
def test_a_body_without_a_usable_vector_is_refused(body, words) -> None:
    endpoint = resolve(MODEL, {"OPENAI_API_KEY": "k"})
    with pytest.raises(WireFormatError, match=words):
        parse_embedding(endpoint, body)


def test_an_embedding_at_the_dimension_cap_is_read() -> None:
    endpoint = resolve(MODEL, {"OPENAI_API_KEY": "k"})
    reply = parse_embedding(endpoint, {"data": [{"embedding": [0.5] * MAX_DIMENSIONS}]})
    assert len(reply.vector) == MAX_DIMENSIONS


def test_a_usable_body_is_read_with_its_tokens() -> None:
    endpoint = resolve(MODEL, {"OPENAI_API_KEY": "k"})
    body = {"data": [{"embedding": [1, 0.5]}], "usage": {"prompt_tokens": 3}, "model": "m"}
    reply = parse_embedding(endpoint, body)
    assert (reply.vector, reply.usage.input_tokens, reply.model) == ([1.0, 0.5], 3, "m")


def test_missing_key_and_unsupported_providers_are_explained() -> None:
    pool = ProviderPool(environ={})
    assert "OPENAI_API_KEY" in (pool.check_embedding(MODEL) or "")
    assert "no embeddings endpoint" in (pool.check_embedding("anthropic:claude-haiku-4.5") or "")
    with pytest.raises(MissingKeyError):
        embed({}, EmbedRequest(model_id=MODEL, text="hello"))
    with pytest.raises(ConfigError, match="no embeddings endpoint"):
        embed({"ANTHROPIC_API_KEY": "k"}, EmbedRequest(model_id="anthropic:x", text="hello"))


def test_unknown_local_models_are_listed() -> None:
    why = LocalEmbeddings().check("local:minilm")
    assert why is not None and "local:wordllama" in why


needs_wordllama = pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None,
    reason="the local-embeddings extra is not installed (pip install -e '.[local-embeddings]')",
)


@needs_wordllama
def test_local_wordllama_embeds_without_key_or_network() -> None:
    # no environment at all: no key, no endpoint, and no provider is called
    texts = ["Paris is the capital of France.", "France's capital city is Paris.", "I like trains."]

    async def body(pool: ProviderPool) -> list[EmbedResponse]:
        assert pool.check_embedding("local:wordllama") is None
        out = [await pool.embed(EmbedRequest(model_id="local:wordllama", text=t)) for t in texts]
        assert pool.stats() == {}
        return out

    paris, capital, trains = (r.vector for r in with_pool({}, body))
    assert len(paris) == 256
    assert cosine_similarity(paris, capital) > cosine_similarity(paris, trains) + 0.1
