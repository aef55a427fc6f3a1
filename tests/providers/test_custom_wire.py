"""Custom model endpoints through the provider pool: shapes, prompt text, refusals, secrets."""

from __future__ import annotations

import asyncio

import pytest

from engine.errors import ConfigError
from engine.providers import ChatRequest, ProviderCallError, ProviderPool
from engine.providers.custom import CustomModel, custom_endpoints, custom_models
from engine.providers.wire import completions_prompt
from engine.settings import Settings

SECRET = "tok-8d1f0c2b"
SETTINGS = Settings(model_allow=("127.0.0.1",), call_env=("TOK",))
HI = [{"role": "user", "content": "hi"}]


def _model(url: str, **extra) -> CustomModel:
    entry = {"id": "mine", "url": url, "modelName": "tiny", "inherit": "openai", **extra}
    return custom_models([entry])["mine"]


def _call(model: CustomModel, messages=HI, environ=None):
    custom = custom_endpoints({model.id: model}, environ or {"TOK": SECRET}, SETTINGS)

    async def go():
        async with ProviderPool(environ={}, custom=custom, max_attempts=1) as pool:
            return await pool.chat(ChatRequest(model_id=model.id, messages=messages))

    return asyncio.run(go())


def test_completions_prompt_is_wevals_conversation_text():
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello."},
        {"role": "user", "content": "Bye"},
    ]
    assert completions_prompt(messages, None) == (
        "Be brief.\n\nUser: Hi\nAssistant: Hello.\nUser: Bye\nAssistant:"
    )
    assert completions_prompt(messages, "raw") == "Be brief.\n\nHi\n\nHello.\n\nBye"


def test_anthropic_shape_goes_to_the_given_url_and_the_answer_is_trimmed(fake_llm):
    fake_llm.reply_with(lambda r: "  spaced answer \n")
    model = _model(f"{fake_llm.url}/v1/messages", inherit="anthropic")
    messages = [{"role": "system", "content": "Be brief."}, *HI]
    response = _call(model, messages)
    assert response.text == "spaced answer"
    (call,) = fake_llm.calls
    assert (call.protocol, call.model, call.system) == ("anthropic", "tiny", "Be brief.")
    assert call.body["stream"] is False and call.auth_present is False


def test_a_refused_key_in_a_header_is_redacted_from_the_error(fake_llm):
    fake_llm.fail_next(1, "401")
    model = _model(
        f"{fake_llm.url}/v1/chat/completions", headers={"Authorization": "Bearer ${TOK}"}
    )
    with pytest.raises(ProviderCallError) as caught:
        _call(model)
    message = str(caught.value)
    assert SECRET not in message and "***" in message
    assert "refused the custom model 'mine'" in message and "`headers`" in message
    assert SECRET not in repr(custom_endpoints({"mine": model}, {"TOK": SECRET}, SETTINGS))


def test_a_refused_model_cannot_be_called_and_says_why():
    model = _model("http://10.0.0.8/v1/chat/completions")
    (reason,) = custom_endpoints({"mine": model}, {}, SETTINGS).values()
    assert isinstance(reason, str) and "not in the custom model allow-list" in reason

    async def go():
        pool = ProviderPool(environ={}, custom={"mine": reason})
        assert pool.check("mine") == reason
        with pytest.raises(ConfigError, match="allow-list"):
            await pool.chat(ChatRequest(model_id="mine", messages=HI))

    asyncio.run(go())


@pytest.mark.parametrize(
    ("headers", "environ", "needle"),
    [
        ({"X-Token": "a\r\nInjected: 1"}, {}, "must be one line of plain ASCII text"),
        ({"X-Token": "${TOK}"}, {"TOK": "line\nbreak-secret"}, "must be one line of plain ASCII"),
        ({"Bad Name": "v"}, {}, 'the header name "Bad Name" is not a valid HTTP header name'),
    ],
)
def test_headers_that_cannot_be_sent_are_refused_before_any_call(headers, environ, needle):
    model = _model("http://127.0.0.1:9/v1/chat/completions", headers=headers)
    (reason,) = custom_endpoints({"mine": model}, environ, SETTINGS).values()
    assert isinstance(reason, str) and needle in reason
    assert "break-secret" not in reason and "Injected" not in reason
