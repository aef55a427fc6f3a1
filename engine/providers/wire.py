"""The wire protocols: OpenAI chat completions, Anthropic messages, Ollama chat, completions.

Custom model objects of a blueprint (`Endpoint.custom`) are posted to their own `url` with
their own headers, as Weval's generic client does: chat in their `inherit` shape, or the
OpenAI-style completions format (`prompt` in, `choices[0].text` out); their answers are trimmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.evidence import ToolCall
from engine.jsonbound import loads_bounded
from engine.providers.endpoints import Endpoint
from engine.providers.types import ChatRequest, Usage

__all__ = [
    "ANTHROPIC_DEFAULT_MAX_TOKENS",
    "ANTHROPIC_VERSION",
    "REASONING_PREFIXES",
    "Reply",
    "build",
    "completions_prompt",
    "parse",
    "reasoning_model",
]

ANTHROPIC_VERSION = "2023-06-01"
ANTHROPIC_DEFAULT_MAX_TOKENS = 1024
OPENROUTER_TITLE = "Blueprint Studio"
REASONING_PREFIXES = ("o1", "o3", "o4", "gpt-5")
"""OpenAI model names that take `max_completion_tokens` and no `temperature`."""


class WireFormatError(ValueError):
    """A 2xx body that does not have the protocol's shape."""


@dataclass(frozen=True)
class Reply:
    """What a provider answered, before timing and cost are added."""

    text: str
    tool_calls: list[ToolCall] | None
    usage: Usage
    model: str | None
    finish_reason: str | None


def _schema(tool: dict[str, Any]) -> dict[str, Any]:
    for key in ("schema", "parameters", "input_schema"):
        value = tool.get(key)
        if isinstance(value, dict):
            return value
    return {"type": "object", "properties": {}}


def _described(tool: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    if tool.get("description"):
        out["description"] = str(tool["description"])
    return out


def _openai_tool(tool: dict[str, Any]) -> dict[str, Any]:
    function = _described(tool, {"name": str(tool["name"]), "parameters": _schema(tool)})
    return {"type": "function", "function": function}


def _anthropic_tool(tool: dict[str, Any]) -> dict[str, Any]:
    return _described(tool, {"name": str(tool["name"]), "input_schema": _schema(tool)})


def _bearer(endpoint: Endpoint) -> dict[str, str]:
    return {"Authorization": f"Bearer {endpoint.key}"} if endpoint.key else {}


def _anthropic_request(
    endpoint: Endpoint, request: ChatRequest, messages: list[dict[str, str]]
) -> tuple[str, dict[str, str], dict[str, Any]]:
    system = [m["content"] for m in messages if m["role"] == "system"]
    body: dict[str, Any] = {
        "model": endpoint.model,
        "max_tokens": request.max_tokens or ANTHROPIC_DEFAULT_MAX_TOKENS,
        "messages": [m for m in messages if m["role"] != "system"],
    }
    if system:
        body["system"] = "\n\n".join(system)
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if request.tools:
        body["tools"] = [_anthropic_tool(t) for t in request.tools]
    headers = {"anthropic-version": ANTHROPIC_VERSION}
    if endpoint.key:
        headers["x-api-key"] = endpoint.key
    return f"{endpoint.base_url}/messages", headers, body


def _ollama_request(
    endpoint: Endpoint, request: ChatRequest, messages: list[dict[str, str]]
) -> tuple[str, dict[str, str], dict[str, Any]]:
    body: dict[str, Any] = {"model": endpoint.model, "messages": messages, "stream": False}
    options: dict[str, Any] = {}
    if request.temperature is not None:
        options["temperature"] = request.temperature
    if request.max_tokens is not None:
        options["num_predict"] = request.max_tokens
    if options:
        body["options"] = options
    if request.tools:
        body["tools"] = [_openai_tool(t) for t in request.tools]
    return f"{endpoint.base_url}/api/chat", _bearer(endpoint), body


def reasoning_model(endpoint: Endpoint) -> bool:
    """True for OpenAI's own reasoning models (`o1…`, `o3…`, `o4…`, `gpt-5…`), not custom ones.

    Weval's OpenAI client sends these `max_completion_tokens` and no `temperature` (for `o4`
    it learns so from OpenAI's refusal of its first request and sends the same body again).
    """
    return (
        endpoint.provider == "openai"
        and not endpoint.custom
        and endpoint.model.lower().startswith(REASONING_PREFIXES)
    )


def _openai_request(
    endpoint: Endpoint, request: ChatRequest, messages: list[dict[str, str]]
) -> tuple[str, dict[str, str], dict[str, Any]]:
    body: dict[str, Any] = {"model": endpoint.model, "messages": messages, "stream": False}
    reasoning = reasoning_model(endpoint)
    if request.temperature is not None and not reasoning:
        body["temperature"] = request.temperature
    if request.max_tokens is not None:
        body["max_completion_tokens" if reasoning else "max_tokens"] = request.max_tokens
    if request.tools:
        body["tools"] = [_openai_tool(t) for t in request.tools]
    headers = _bearer(endpoint)
    if endpoint.provider == "openrouter" and not endpoint.custom:
        headers["X-Title"] = OPENROUTER_TITLE
    return f"{endpoint.base_url}/chat/completions", headers, body


def completions_prompt(messages: list[dict[str, str]], prompt_format: str | None) -> str:
    """One prompt text from a conversation, as Weval's generic client writes it.

    Conversational (the default): system texts first, then `User: ...` and `Assistant: ...`
    lines, ending with `Assistant:`. `raw`: the texts alone, separated by blank lines.
    """
    out = ""
    raw = prompt_format == "raw"
    for message in messages:
        role, content = message["role"], message["content"]
        if role == "system" or raw:
            out += content + "\n\n"
        elif role == "user":
            out += f"User: {content}\n"
        elif role == "assistant":
            out += f"Assistant: {content}\n"
    if not raw and messages and not out.endswith("Assistant: "):
        out += "Assistant:"
    return out.strip()


def _completions_request(
    endpoint: Endpoint, request: ChatRequest, messages: list[dict[str, str]]
) -> tuple[str, dict[str, str], dict[str, Any]]:
    body: dict[str, Any] = {
        "model": endpoint.model,
        "prompt": completions_prompt(messages, endpoint.prompt_format),
    }
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if request.max_tokens is not None:
        body["max_tokens"] = request.max_tokens
    return f"{endpoint.base_url}/completions", _bearer(endpoint), body


def build(endpoint: Endpoint, request: ChatRequest) -> tuple[str, dict[str, str], dict[str, Any]]:
    """Return the (url, headers, JSON body) of `request` in `endpoint`'s protocol.

    Temperature is sent only when set. OpenAI-style bodies say `stream: false` and cap the
    answer with `max_tokens`, except OpenAI's own reasoning models (`reasoning_model`), which
    get `max_completion_tokens` and no temperature, as Weval's clients send them. Anthropic
    gets system messages in its top-level `system` field and a required
    `max_tokens` (default 1024).
    """
    messages = [{"role": m["role"], "content": m["content"]} for m in request.messages]
    if endpoint.api == "anthropic":
        url, headers, body = _anthropic_request(endpoint, request, messages)
    elif endpoint.api == "ollama":
        url, headers, body = _ollama_request(endpoint, request, messages)
    elif endpoint.api == "completions":
        url, headers, body = _completions_request(endpoint, request, messages)
    else:
        url, headers, body = _openai_request(endpoint, request, messages)
    if endpoint.url is not None:  # a custom model: its own address and headers, no streaming
        url = endpoint.url
        headers.update(endpoint.headers)
        body["stream"] = False
    return url, headers, body


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return loads_bounded(raw) if raw.strip() else {}
        except ValueError:
            return raw
    return raw


def _call(name: Any, arguments: Any, call_id: Any) -> ToolCall:
    if not isinstance(name, str) or not name:
        raise WireFormatError("a tool call has no name")
    return ToolCall(name=name, arguments=_arguments(arguments), id=_str(call_id), source="native")


def _function_calls(raw: Any) -> list[ToolCall]:
    """OpenAI/Ollama `tool_calls`: `[{id?, function: {name, arguments}}]`."""
    calls = []
    for item in raw if isinstance(raw, list) else ():
        function = _dict(item.get("function")) if isinstance(item, dict) else {}
        call_id = item.get("id") if isinstance(item, dict) else None
        calls.append(_call(function.get("name"), function.get("arguments"), call_id))
    return calls


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts, as some compatible servers send
        return "".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""


def _first_choice(data: dict[str, Any]) -> dict[str, Any]:
    """`choices[0]` of an OpenAI-style answer (chat or completions)."""
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise WireFormatError("no choices[0] in the answer")
    return choices[0]


def _openai_usage(data: dict[str, Any]) -> Usage:
    usage = _dict(data.get("usage"))
    return Usage(
        input_tokens=_int(usage.get("prompt_tokens")),
        output_tokens=_int(usage.get("completion_tokens")),
    )


def _openai(data: dict[str, Any]) -> Reply:
    choice = _first_choice(data)
    message = choice.get("message")
    if not isinstance(message, dict):
        raise WireFormatError("no choices[0].message in the answer")
    calls = _function_calls(message.get("tool_calls"))
    return Reply(
        text=_text(message.get("content")),
        tool_calls=calls or None,
        usage=_openai_usage(data),
        model=_str(data.get("model")),
        finish_reason=_str(choice.get("finish_reason")),
    )


def _anthropic(data: dict[str, Any]) -> Reply:
    blocks = data.get("content")
    if not isinstance(blocks, list):
        raise WireFormatError("no content blocks in the answer")
    texts = [b["text"] for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
    calls = [
        _call(b.get("name"), b.get("input"), b.get("id"))
        for b in blocks
        if isinstance(b, dict) and b.get("type") == "tool_use"
    ]
    usage = _dict(data.get("usage"))
    return Reply(
        text="\n".join(t for t in texts if isinstance(t, str)),
        tool_calls=calls or None,
        usage=Usage(
            input_tokens=_int(usage.get("input_tokens")),
            output_tokens=_int(usage.get("output_tokens")),
        ),
        model=_str(data.get("model")),
        finish_reason=_str(data.get("stop_reason")),
    )


def _ollama(data: dict[str, Any]) -> Reply:
    message = data.get("message")
    if not isinstance(message, dict):
        raise WireFormatError("no message in the answer")
    calls = _function_calls(message.get("tool_calls"))
    return Reply(
        text=_text(message.get("content")),
        tool_calls=calls or None,
        usage=Usage(
            input_tokens=_int(data.get("prompt_eval_count")),
            output_tokens=_int(data.get("eval_count")),
        ),
        model=_str(data.get("model")),
        finish_reason=_str(data.get("done_reason")),
    )


def _completions(data: dict[str, Any]) -> Reply:
    choice = _first_choice(data)
    text = choice.get("text")
    if not isinstance(text, str):
        raise WireFormatError("no choices[0].text in the answer")
    return Reply(
        text=text,
        tool_calls=None,
        usage=_openai_usage(data),
        model=_str(data.get("model")),
        finish_reason=_str(choice.get("finish_reason")),
    )


def _trimmed(reply: Reply) -> Reply:
    return Reply(
        reply.text.strip(), reply.tool_calls, reply.usage, reply.model, reply.finish_reason
    )


def parse(endpoint: Endpoint, data: Any) -> Reply:
    """Parse a decoded 2xx body in `endpoint`'s protocol (a custom model's text is trimmed).

    Raises:
        WireFormatError: The body does not have the protocol's shape.
    """
    if not isinstance(data, dict):
        raise WireFormatError("the answer is not a JSON object")
    if endpoint.api == "anthropic":
        reply = _anthropic(data)
    elif endpoint.api == "ollama":
        reply = _ollama(data)
    elif endpoint.api == "completions":
        reply = _completions(data)
    else:
        reply = _openai(data)
    return _trimmed(reply) if endpoint.custom else reply
