"""Lint of the header's `embeddingModel`: what cannot embed is an error at its value."""

from __future__ import annotations

import pytest

from tests.lint.helpers import find, span

BODY = "---\n- id: p1\n  prompt: Capital of France?\n  ideal: Paris.\n  should: [Names Paris.]\n"


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("anthropic:claude-haiku-4.5", "no embeddings endpoint"),
        ("text-embedding-3-small", "does not say which provider"),
        ("local:minilm", "Known: local:wordllama"),
        ("opnai:text-embedding-3-small", "provider is not one it knows"),
        ("ideal:x", "provider is not one it knows"),
        ("[1, 2]", "must be a model id written as text"),
        ('""', "must be a model id written as text"),
    ],
)
def test_what_cannot_embed_is_an_error_at_the_value(value, words):
    text = f"models: [openai:m]\nembeddingModel: {value}\n{BODY}"
    (diag,) = find(text, "embedding-model")
    assert diag.severity == "error" and words in diag.message
    assert span(diag)[:2] == (2, len("embeddingModel: ") + 1)


@pytest.mark.parametrize(
    "value",
    ["openai:text-embedding-3-small", "ollama:nomic-embed-text", "local:wordllama", "openrouter:x"],
)
def test_embedding_models_that_work_pass(value):
    assert find(f"models: [openai:m]\nembeddingModel: {value}\n{BODY}", "embedding-model") == []


def test_an_openai_compatible_service_with_a_base_url_passes(monkeypatch):
    text = f"models: [openai:m]\nembeddingModel: vllm:e5\n{BODY}"
    assert len(find(text, "embedding-model")) == 1
    monkeypatch.setenv("VLLM_BASE_URL", "http://127.0.0.1:9/v1")
    assert find(text, "embedding-model") == []
