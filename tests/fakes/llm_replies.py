"""What the fake LLM server answers: recorded requests, deterministic replies, wire bodies.

The default reply is derived from the request only, so every run gives the same bytes:

    [<model>] <hash8> echo: <last user message>

where `<hash8>` is the first 8 hex digits of the SHA-256 of the last user message.

Judge mode: when the last user message (or, failing that, the system prompt) holds a
`<CRITERION>…</CRITERION>` section, the reply is a Weval judge answer
`<reflection>…</reflection>\\n<classification>CLASS_…</classification>`. The default rule
(`first_word_rule`) answers `CLASS_EXACT` when the criterion's first word (the first run of
letters or digits, compared case-insensitively as a whole word) appears in the last
`<TEXT>…</TEXT>` section, else `CLASS_UNMET`. Both class names are configurable.

Key-point mode: when the last user message holds an `<IDEAL_RESPONSE>…</IDEAL_RESPONSE>`
section, the reply lists each sentence (or line) of it as `<key_point>…</key_point>`, one
per line.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

WireProtocol = Literal["openai", "anthropic", "ollama", "completions", "embeddings"]

ROUTES: dict[str, WireProtocol] = {
    "/v1/chat/completions": "openai",
    "/chat/completions": "openai",
    "/v1/messages": "anthropic",
    "/messages": "anthropic",
    "/api/chat": "ollama",
    "/v1/completions": "completions",
    "/completions": "completions",
    "/v1/embeddings": "embeddings",
    "/embeddings": "embeddings",
}

AUTH_HEADERS = frozenset({"authorization", "x-api-key", "api-key"})

JudgeRule = Callable[[str, str], str]
"""Chooses a class name from (criterion, text)."""


@dataclass(frozen=True)
class FakeToolCall:
    """A native tool call the fake server should answer with."""

    name: str
    arguments: Any = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True)
class FakeReply:
    """An answer: text, native tool calls, and a finish reason (derived when None)."""

    text: str = ""
    tool_calls: tuple[FakeToolCall, ...] = ()
    finish_reason: str | None = None


@dataclass
class FakeRequest:
    """One request as the fake server saw it (auth values are never recorded).

    Attributes:
        path: The request path (`/v1/chat/completions`, `/v1/messages`, `/api/chat`).
        protocol: The wire protocol the path belongs to.
        model: The `model` field of the body.
        messages: The `messages` field as sent.
        system: Anthropic's top-level `system`, or the content of the first system message.
        body: The whole JSON body.
        headers: Request headers with lower-case names, auth headers left out.
        auth_present: Whether an `Authorization`, `x-api-key` or `api-key` header was sent.
        fault: The fault the server injected into its answer, if any.
        answered_at: `time.monotonic()` as the server wrote its answer (None: not answered).
    """

    path: str
    protocol: WireProtocol
    model: str
    messages: list[dict[str, Any]]
    system: str | None
    body: dict[str, Any]
    headers: dict[str, str]
    auth_present: bool
    fault: str | None = None
    answered_at: float | None = None

    @property
    def last_user(self) -> str:
        """The text of the last user message ('' when there is none)."""
        for message in reversed(self.messages):
            if message.get("role") == "user":
                return message_text(message.get("content"))
        return ""

    @property
    def tools(self) -> list[dict[str, Any]] | None:
        """The tool definitions offered by the request, if any."""
        tools = self.body.get("tools")
        return tools if isinstance(tools, list) and tools else None

    def to_json(self) -> dict[str, Any]:
        """The request as a JSON-ready dict (for the control endpoint)."""
        return {
            "path": self.path,
            "protocol": self.protocol,
            "model": self.model,
            "messages": self.messages,
            "system": self.system,
            "body": self.body,
            "headers": self.headers,
            "auth_present": self.auth_present,
            "fault": self.fault,
        }


def message_text(content: Any) -> str:
    """Return the text of a message content: a string, or a list of text blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text", "") for b in content if isinstance(b, dict)]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def parse_request(
    path: str, protocol: WireProtocol, body: dict[str, Any], headers: dict[str, str]
) -> FakeRequest:
    """Build a `FakeRequest` from a decoded body and lower-cased headers."""
    messages = body.get("messages")
    messages = messages if isinstance(messages, list) else []
    if protocol in ("completions", "embeddings"):  # one text: seen as one user message
        prompt = body.get("input" if protocol == "embeddings" else "prompt")
        messages = [{"role": "user", "content": prompt if isinstance(prompt, str) else ""}]
    system: str | None = None
    if protocol == "anthropic" and body.get("system") is not None:
        system = message_text(body.get("system"))
    else:
        for message in messages:
            if isinstance(message, dict) and message.get("role") == "system":
                system = message_text(message.get("content"))
                break
    return FakeRequest(
        path=path,
        protocol=protocol,
        model=str(body.get("model", "")),
        messages=[m for m in messages if isinstance(m, dict)],
        system=system,
        body=body,
        headers={k: v for k, v in headers.items() if k not in AUTH_HEADERS},
        auth_present=any(headers.get(h) for h in AUTH_HEADERS),
    )


def short_hash(text: str) -> str:
    """The first 8 hex digits of the SHA-256 of `text`."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def echo_reply(request: FakeRequest) -> FakeReply:
    """The default answer: `[<model>] <hash8> echo: <last user message>`."""
    last = request.last_user
    return FakeReply(text=f"[{request.model}] {short_hash(last)} echo: {last}")


def _last_section(text: str, tag: str) -> str | None:
    end = text.rfind(f"</{tag}>")
    if end < 0:
        return None
    start = text.rfind(f"<{tag}>", 0, end)
    if start < 0:
        return None
    return text[start + len(tag) + 2 : end].strip()


def first_word_rule(met: str = "CLASS_EXACT", unmet: str = "CLASS_UNMET") -> JudgeRule:
    """Return the default judge rule: `met` if the criterion's first word is in the text."""

    def rule(criterion: str, text: str) -> str:
        word = re.search(r"\w+", criterion)
        if word is None:
            return unmet
        found = re.search(rf"\b{re.escape(word.group(0))}\b", text, re.IGNORECASE)
        return met if found else unmet

    return rule


def judge_reply(request: FakeRequest, rule: JudgeRule) -> FakeReply | None:
    """Answer as an LLM judge when the request holds a `<CRITERION>` section, else None."""
    sources = [message_text(m.get("content")) for m in reversed(request.messages)]
    sources = [s for s in sources if "</CRITERION>" in s]
    if not sources and request.system and "</CRITERION>" in request.system:
        sources = [request.system]
    if not sources:
        return None
    criterion = _last_section(sources[0], "CRITERION") or ""
    text = _last_section(sources[0], "TEXT") or ""
    klass = rule(criterion, text)
    first = re.search(r"\w+", criterion)
    word = first.group(0) if first else ""
    return FakeReply(
        text=(
            f"<reflection>Fake judge: looked for '{word}' in the text.</reflection>\n"
            f"<classification>{klass}</classification>"
        )
    )


def key_point_reply(request: FakeRequest) -> FakeReply | None:
    """Answer a key-point extraction: each sentence of the ideal as a `<key_point>` item."""
    ideal = _last_section(request.last_user, "IDEAL_RESPONSE")
    if ideal is None:
        return None
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", ideal) if s.strip()]
    return FakeReply(text="\n".join(f"<key_point>{s}</key_point>" for s in sentences))


def _tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def _usage(request: FakeRequest, reply: FakeReply) -> tuple[int, int]:
    prompt = sum(len(message_text(m.get("content"))) for m in request.messages)
    if request.protocol == "anthropic" and request.system:
        prompt += len(request.system)
    calls = "".join(json.dumps(c.arguments) + c.name for c in reply.tool_calls)
    return math.ceil(prompt / 4), max(1, _tokens(reply.text + calls))


def _call_id(call: FakeToolCall, prefix: str) -> str:
    return call.id or prefix + short_hash(call.name + json.dumps(call.arguments, sort_keys=True))


def render(request: FakeRequest, reply: FakeReply, serial: int) -> dict[str, Any]:
    """Return the JSON body answering `request` with `reply` in the request's protocol."""
    prompt_tokens, completion_tokens = _usage(request, reply)
    calls = reply.tool_calls
    if request.protocol == "anthropic":
        blocks: list[dict[str, Any]] = []
        if reply.text or not calls:
            blocks.append({"type": "text", "text": reply.text})
        blocks += [
            {"type": "tool_use", "id": _call_id(c, "toolu_"), "name": c.name, "input": c.arguments}
            for c in calls
        ]
        return {
            "id": f"msg_fake_{serial}",
            "type": "message",
            "role": "assistant",
            "model": request.model,
            "content": blocks,
            "stop_reason": reply.finish_reason or ("tool_use" if calls else "end_turn"),
            "stop_sequence": None,
            "usage": {"input_tokens": prompt_tokens, "output_tokens": completion_tokens},
        }
    if request.protocol == "ollama":
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        if calls:
            message["tool_calls"] = [
                {"function": {"name": c.name, "arguments": c.arguments}} for c in calls
            ]
        return {
            "model": request.model,
            "created_at": "1970-01-01T00:00:00Z",
            "message": message,
            "done": True,
            "done_reason": reply.finish_reason or "stop",
            "prompt_eval_count": prompt_tokens,
            "eval_count": completion_tokens,
        }
    if request.protocol == "completions":
        return {
            "id": f"cmpl-fake-{serial}",
            "object": "text_completion",
            "created": 0,
            "model": request.model,
            "choices": [{"index": 0, "text": reply.text, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
        }
    openai_message: dict[str, Any] = {
        "role": "assistant",
        "content": reply.text if (reply.text or not calls) else None,
    }
    if calls:
        openai_message["tool_calls"] = [
            {
                "id": _call_id(c, "call_"),
                "type": "function",
                "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
            }
            for c in calls
        ]
    return {
        "id": f"chatcmpl-fake-{serial}",
        "object": "chat.completion",
        "created": 0,
        "model": request.model,
        "choices": [
            {
                "index": 0,
                "message": openai_message,
                "finish_reason": reply.finish_reason or ("tool_calls" if calls else "stop"),
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def request_matcher(fields: dict[str, Any]) -> Callable[[FakeRequest], bool]:
    """A predicate true for requests whose `model`, `protocol` and `path` equal the given
    ones and whose last user message contains `contains` (absent fields match anything).

    Raises:
        ValueError: A field is not one of those four.
    """
    unknown = set(fields) - {"model", "protocol", "path", "contains"}
    if unknown:
        raise ValueError(f"unknown fail_when fields: {sorted(unknown)}")

    def matches(r: FakeRequest) -> bool:
        return (
            fields.get("model", r.model) == r.model
            and fields.get("protocol", r.protocol) == r.protocol
            and fields.get("path", r.path) == r.path
            and str(fields.get("contains", "")) in r.last_user
        )

    return matches


def fault_body(kind: str, request: FakeRequest, presented_key: str) -> tuple[int, bytes]:
    """The status and body of an injected fault (`hang` and `drop` send nothing).

    The 401 body echoes `presented_key`, as some providers partly do, so that leak tests
    have something to catch.
    """
    if kind == "invalid_json":
        return 200, b'{"id": "truncated", "choices": [{"message": {"content": "cut'
    status = int(kind)
    messages = {
        400: "Invalid request: 'messages' is malformed",
        401: f"Incorrect API key provided: {presented_key}",
        404: f"The model `{request.model}` does not exist",
        429: "Rate limit reached",
    }
    message = messages.get(status, "The server had an error")
    return status, json.dumps(error_body(request.protocol, status, message)).encode()


def error_body(protocol: WireProtocol | None, status: int, message: str) -> dict[str, Any]:
    """Return an error body shaped like the protocol's own errors."""
    kinds = {401: "authentication_error", 404: "not_found_error", 429: "rate_limit_error"}
    kind = kinds.get(status, "api_error" if status >= 500 else "invalid_request_error")
    if protocol == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    if protocol == "ollama":
        return {"error": message}
    return {"error": {"message": message, "type": kind, "code": status}}
