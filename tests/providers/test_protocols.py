"""Round trips of the three wire protocols against the fake server."""

from __future__ import annotations

import pytest

from engine.evidence import ToolCall
from engine.providers import ChatRequest
from tests.fakes.llm_replies import FakeReply, FakeToolCall, short_hash
from tests.fakes.llm_server import FakeLLM
from tests.providers.helpers import ask, chat, with_pool

CONVERSATION = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "What is 2+2?"},
    {"role": "assistant", "content": "4."},
    {"role": "user", "content": "And 3+3?"},
]
TOOLS = [
    {
        "name": "calculator",
        "description": "Adds numbers.",
        "schema": {"type": "object", "properties": {"a": {"type": "number"}}},
    },
    {"name": "clock"},
]


def test_openai_round_trip(fake_llm: FakeLLM) -> None:
    request = ChatRequest(
        model_id="openai:gpt-4.1-mini", messages=CONVERSATION, temperature=0.3, max_tokens=50
    )
    response = chat(fake_llm.env(), request)
    assert response.text == f"[gpt-4.1-mini] {short_hash('And 3+3?')} echo: And 3+3?"
    assert response.model == "gpt-4.1-mini"
    assert response.finish_reason == "stop"
    assert response.tool_calls is None
    assert response.attempts == 1
    assert response.latency_ms > 0
    prompt_chars = sum(len(m["content"]) for m in CONVERSATION)
    assert response.usage.input_tokens == -(-prompt_chars // 4)
    assert response.usage.output_tokens == -(-len(response.text) // 4)
    (call,) = fake_llm.calls
    assert call.path == "/v1/chat/completions"
    assert call.body["messages"] == CONVERSATION  # the system message stays first, in place
    assert call.body["temperature"] == 0.3
    assert call.body["max_tokens"] == 50  # Weval's OpenAI client caps gpt-4.1 with max_tokens
    assert "max_completion_tokens" not in call.body
    assert call.auth_present
    assert "authorization" not in call.headers


def test_openai_compatible_endpoints_get_max_tokens_and_openrouter_headers(
    fake_llm: FakeLLM,
) -> None:
    response = chat(fake_llm.env(), ask("openrouter:openai/gpt-4.1-mini", max_tokens=20))
    assert response.model == "openai/gpt-4.1-mini"
    (call,) = fake_llm.calls
    assert call.body["max_tokens"] == 20
    assert call.headers["x-title"] == "Blueprint Studio"


def test_temperature_and_max_tokens_are_omitted_when_none(fake_llm: FakeLLM) -> None:
    env = fake_llm.env()
    for model_id in ("openai:gpt-4.1-mini", "anthropic:claude-haiku-4.5", "ollama:llama3.2"):
        chat(env, ask(model_id))
    openai, anthropic, ollama = fake_llm.calls
    assert "temperature" not in openai.body
    assert "max_tokens" not in openai.body and "max_completion_tokens" not in openai.body
    assert "temperature" not in anthropic.body
    assert anthropic.body["max_tokens"] == 1024  # Anthropic requires a cap
    assert "options" not in ollama.body


def test_anthropic_round_trip_puts_system_messages_on_top(fake_llm: FakeLLM) -> None:
    request = ChatRequest(
        model_id="anthropic:claude-haiku-4.5",
        messages=[{"role": "system", "content": "Rule two."}, *CONVERSATION],
        temperature=0,
        max_tokens=200,
    )
    response = chat(fake_llm.env(), request)
    (call,) = fake_llm.calls
    assert call.path == "/v1/messages"
    assert call.body["system"] == "Rule two.\n\nYou are terse."
    assert [m["role"] for m in call.body["messages"]] == ["user", "assistant", "user"]
    assert call.body["temperature"] == 0
    assert call.body["max_tokens"] == 200
    assert call.headers["anthropic-version"] == "2023-06-01"
    assert call.auth_present and "x-api-key" not in call.headers
    assert call.model == "claude-haiku-4-5"  # Anthropic's API spells versions with a dash
    assert response.text.endswith("echo: And 3+3?")
    assert response.finish_reason == "end_turn"
    prompt_chars = sum(len(m["content"]) for m in CONVERSATION) + len("Rule two.")
    assert response.usage.input_tokens == -(-prompt_chars // 4)
    assert response.usage.output_tokens > 0


def test_ollama_round_trip_needs_no_key(fake_llm: FakeLLM) -> None:
    env = {"OLLAMA_BASE_URL": fake_llm.url}
    response = chat(env, ask("ollama:llama3.2", "hi", temperature=0.7, max_tokens=9))
    (call,) = fake_llm.calls
    assert call.path == "/api/chat"
    assert call.body["stream"] is False
    assert call.body["options"] == {"temperature": 0.7, "num_predict": 9}
    assert not call.auth_present
    assert response.text == f"[llama3.2] {short_hash('hi')} echo: hi"
    assert response.usage.input_tokens == 1
    assert response.cost_usd == 0.0  # local models are free


@pytest.mark.parametrize(
    ("model_id", "call_id"),
    [
        ("openai:gpt-4.1-mini", "call_"),
        ("anthropic:claude-haiku-4.5", "toolu_"),
        ("ollama:llama3.2", None),
    ],
)
def test_native_tool_calls_become_tool_calls(
    fake_llm: FakeLLM, model_id: str, call_id: str | None
) -> None:
    fake_llm.reply_with_tool_call("calculator", {"a": 2, "b": [3]})
    response = chat(fake_llm.env(), ask(model_id, "add", tools=TOOLS))
    assert response.text == ""
    assert response.tool_calls is not None
    (tool_call,) = response.tool_calls
    assert isinstance(tool_call, ToolCall)
    assert tool_call.name == "calculator"
    assert tool_call.arguments == {"a": 2, "b": [3]}
    assert tool_call.source == "native"
    if call_id is None:
        assert tool_call.id is None
    else:
        assert tool_call.id is not None and tool_call.id.startswith(call_id)
    assert response.finish_reason in ("tool_calls", "tool_use", "stop")


def test_tool_definitions_are_sent_natively(fake_llm: FakeLLM) -> None:
    env = fake_llm.env()
    for model_id in ("openai:gpt-4.1-mini", "anthropic:claude-haiku-4.5", "ollama:llama3.2"):
        chat(env, ask(model_id, tools=TOOLS))
    openai, anthropic, ollama = fake_llm.calls
    empty = {"type": "object", "properties": {}}
    assert openai.body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "calculator",
                "parameters": TOOLS[0]["schema"],
                "description": "Adds numbers.",
            },
        },
        {"type": "function", "function": {"name": "clock", "parameters": empty}},
    ]
    assert ollama.body["tools"] == openai.body["tools"]
    assert anthropic.body["tools"] == [
        {"name": "calculator", "description": "Adds numbers.", "input_schema": TOOLS[0]["schema"]},
        {"name": "clock", "input_schema": empty},
    ]


def test_text_and_several_tool_calls_together(fake_llm: FakeLLM) -> None:
    fake_llm.reply_with(
        lambda r: FakeReply(
            text="Let me check.",
            tool_calls=(FakeToolCall("clock", {}, "c1"), FakeToolCall("calculator", {"a": 1})),
        )
    )
    env = fake_llm.env()
    for model_id in ("openai:gpt-4.1-mini", "anthropic:claude-haiku-4.5"):
        response = chat(env, ask(model_id, tools=TOOLS))
        assert response.text == "Let me check."
        assert response.tool_calls is not None
        assert [(c.name, c.arguments) for c in response.tool_calls] == [
            ("clock", {}),
            ("calculator", {"a": 1}),
        ]
        assert response.tool_calls[0].id == "c1"


def test_unparseable_tool_arguments_are_kept_as_text(fake_llm: FakeLLM) -> None:
    fake_llm.reply_with(lambda r: FakeReply(tool_calls=(FakeToolCall("calc", "not json {"),)))
    response = chat(fake_llm.env(), ask("ollama:llama3.2", tools=TOOLS))
    assert response.tool_calls is not None
    assert response.tool_calls[0].arguments == "not json {"


def test_any_prefix_with_a_base_url_is_openai_compatible(fake_llm: FakeLLM) -> None:
    env = {"VLLM_BASE_URL": f"{fake_llm.url}/v1"}
    response = chat(env, ask("vllm:my-model", "x"))
    assert response.model == "my-model"
    assert response.cost_usd is None  # no price known for it
    (call,) = fake_llm.calls
    assert call.path == "/v1/chat/completions"
    assert not call.auth_present
    chat({**env, "VLLM_API_KEY": "local-key"}, ask("vllm:my-model"))
    assert fake_llm.calls[-1].auth_present


def test_judge_prompts_get_a_deterministic_classification(fake_llm: FakeLLM) -> None:
    prompt = (
        "Judge the <TEXT> below against the following <CRITERION>.\n"
        "<TEXT>\nParis is the capital of France.\n</TEXT>\n"
        "<CRITERION>\n{criterion}\n</CRITERION>\n"
    )
    env = fake_llm.env()

    async def both(pool):  # type: ignore[no-untyped-def]
        met = await pool.chat(ask("openai:judge", prompt.format(criterion="Paris is named")))
        unmet = await pool.chat(ask("openai:judge", prompt.format(criterion="Berlin is named")))
        return met.text, unmet.text

    met, unmet = with_pool(env, both)
    assert met.endswith("<classification>CLASS_EXACT</classification>")
    assert met.startswith("<reflection>")
    assert unmet.endswith("<classification>CLASS_UNMET</classification>")


def test_pool_reuses_connections(fake_llm: FakeLLM) -> None:
    async def body(pool):  # type: ignore[no-untyped-def]
        for _ in range(5):
            await pool.chat(ask("openai:gpt-4.1-mini"))

    with_pool(fake_llm.env(), body)
    assert fake_llm.connections == 1


def test_requests_are_validated() -> None:
    from pydantic import ValidationError

    request = ChatRequest(
        model_id="openai:x", messages=[{"role": "user", "content": "x", "name": "dropped"}]
    )
    assert request.messages == [{"role": "user", "content": "x"}]
    for bad in (
        {"messages": []},
        {"messages": [{"role": "tool", "content": "x"}]},
        {"messages": [{"role": "user"}]},
        {"messages": [{"role": "user", "content": "x"}], "tools": [{"description": "no name"}]},
        {"messages": [{"role": "user", "content": "x"}], "timeout_s": 0},
    ):
        with pytest.raises(ValidationError):
            ChatRequest(model_id="openai:x", **bad)
