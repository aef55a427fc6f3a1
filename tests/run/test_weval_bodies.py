"""The request bodies of a run, field by field, against the bodies Weval's code builds for it.

Each expected body below is written from Weval's clients at the commit docs/compat.md cites
(`weval-org/app` 51dc4d3), for the same blueprint: a generation call passes no `maxTokens`
(`comparison-pipeline-service.non-stream.ts` -> `getModelResponse`, temperature 0), so each
client's own default applies. Where we send something else on purpose, the difference is
spelled out next to the expected body and listed in docs/compat.md.
"""

from __future__ import annotations

import json

import pytest

from engine.judge.keypoints import EXTRACTION_SYSTEM
from engine.run import RunOptions
from engine.run.plan import GENERATION_MAX_TOKENS
from engine.run.service import prepare_run, run_sync
from engine.store import open_store

QUESTION = "How hot should the water be for green tea?"
IDEAL = "Water at about 80 degrees.\nSteep it for two minutes."
SYSTEM = "Be brief."


def blueprint(url: str) -> str:
    return f"""
title: Bodies
system: {SYSTEM}
embeddingModel: openai:text-embedding-3-small
models:
  - openai:gpt-4.1-mini
  - openai:gpt-5-mini
  - openrouter:openai/gpt-4.1-mini
  - id: team-chat
    url: {url}/v1/chat/completions
    modelName: tiny-chat
    inherit: openai
  - id: team-claude
    url: {url}/v1/messages
    modelName: tiny-claude
    inherit: anthropic
---
- id: tea
  prompt: {QUESTION}
  ideal: {json.dumps(IDEAL)}
"""


TURNS = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}]

WEVAL_GENERATION = {
    # src/lib/llm-clients/openai-client.ts: maxTokens = 1500, `max_tokens` but for the
    # o1/o3/gpt-5 hints, which get `max_completion_tokens` and no temperature
    "gpt-4.1-mini": {
        "model": "gpt-4.1-mini",
        "messages": TURNS,
        "stream": False,
        "temperature": 0,
        "max_tokens": 1500,
    },
    "gpt-5-mini": {
        "model": "gpt-5-mini",
        "messages": TURNS,
        "stream": False,
        "max_completion_tokens": 1500,
    },
    # src/lib/llm-clients/openrouter-client.ts: `max_tokens: maxTokens` (undefined: not sent)
    "openai/gpt-4.1-mini": {
        "model": "openai/gpt-4.1-mini",
        "messages": TURNS,
        "stream": False,
        "temperature": 0,
    },
    # src/lib/llm-clients/generic-client.ts: maxTokens = 1500; `inherit: openai` keeps the
    # system message in `messages`
    "tiny-chat": {
        "model": "tiny-chat",
        "messages": TURNS,
        "stream": False,
        "temperature": 0,
        "max_tokens": 1500,
    },
    # generic-client.ts, `inherit: anthropic`: `messages` keeps user and assistant turns
    # only, and `system` is set from a separate systemPrompt the pipeline never passes
    "tiny-claude": {
        "model": "tiny-claude",
        "messages": TURNS[1:],
        "stream": False,
        "temperature": 0,
        "max_tokens": 1500,
    },
}

OURS_ON_PURPOSE = {
    # docs/compat.md, "Runs": one output cap for every provider's model (Weval: each client's
    # default); custom models get Weval's 1500
    "gpt-4.1-mini": {"max_tokens": GENERATION_MAX_TOKENS},
    "gpt-5-mini": {"max_completion_tokens": GENERATION_MAX_TOKENS},
    "openai/gpt-4.1-mini": {"max_tokens": GENERATION_MAX_TOKENS},
    # docs/compat.md, "Runs": the system prompt is kept for `inherit: anthropic`
    "tiny-claude": {"system": SYSTEM},
}


@pytest.fixture
def bodies(fake_llm, monkeypatch, tmp_path):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("BLUEPRINT_MODEL_ALLOW", "127.0.0.1")
    store = open_store()
    options = RunOptions(judges=["openai:judge-1"], out_dir=tmp_path)
    prepared = prepare_run(store, blueprint(fake_llm.url), source="bp.yml", options=options)
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed", outcome.error
    assert json.loads(outcome.path.read_text())["extractedKeyPoints"]["tea"]
    return fake_llm.calls


@pytest.mark.parametrize("model", sorted(WEVAL_GENERATION))
def test_generation_bodies_are_wevals(bodies, model):
    [call] = [c for c in bodies if c.model == model]
    expected = {**WEVAL_GENERATION[model], **OURS_ON_PURPOSE.get(model, {})}
    assert sorted(call.body) == sorted(expected)
    for field in expected:
        assert call.body[field] == expected[field], field


def test_the_extraction_body_is_wevals(bodies):
    [call] = [c for c in bodies if c.model == "gpt-4o-mini"]
    # src/cli/services/llm-evaluation-service.ts: systemPrompt + one user message, temperature
    # 0.1, maxTokens 2000, through the OpenAI client (`max_tokens`, `stream: false`); the
    # wording is our own, the <PROMPT> and <IDEAL_RESPONSE> blocks carry what Weval's carry
    assert sorted(call.body) == ["max_tokens", "messages", "model", "stream", "temperature"]
    assert (call.body["temperature"], call.body["max_tokens"]) == (0.1, 2000)
    assert call.body["stream"] is False
    system, user = call.body["messages"]
    assert system == {"role": "system", "content": EXTRACTION_SYSTEM}
    assert user["role"] == "user"
    # llm-coverage-evaluator.ts getPromptContextString: every turn as `role: text`
    assert f"<PROMPT>\nuser: {QUESTION}\n</PROMPT>" in user["content"]
    assert f"<IDEAL_RESPONSE>\n{IDEAL}\n</IDEAL_RESPONSE>" in user["content"]


def test_embedding_bodies_are_wevals(bodies):
    calls = [c for c in bodies if c.protocol == "embeddings"]
    # src/lib/embedding-clients/openai-client.ts: input, model, dimensions (3072 for
    # text-embedding-3-large, else 1536) and encoding_format "float"
    texts = sorted(c.body["input"] for c in calls)
    assert IDEAL in texts and len(texts) == 1 + len(WEVAL_GENERATION)
    for call in calls:
        assert call.body == {
            "input": call.body["input"],
            "model": "text-embedding-3-small",
            "dimensions": 1536,
            "encoding_format": "float",
        }
