"""Conversations: which turns a model generated, the subject text, and evidence for scoring."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Sequence
from typing import Any, Final

from engine.blueprint.models import Blueprint, Prompt
from engine.evidence import Evidence, ToolCall

__all__ = [
    "build_evidence",
    "response_evidence",
    "subject_text",
    "system_prompt_for",
    "tool_calls_from_rows",
]

_SP_INDEX: Final = re.compile(r"\[sp_idx:(\d+)\]")


def subject_text(messages: Sequence[dict[str, Any]], generated: Sequence[int]) -> str:
    """Return Weval's subject text: the generated assistant turns joined by a blank line."""
    parts = [str(messages[i].get("content") or "") for i in generated if 0 <= i < len(messages)]
    return "\n\n".join(parts)


def _aligned_generated(prompt: Prompt, history: Sequence[dict[str, Any]]) -> list[int] | None:
    """Find the generated turns of `history` by aligning it with the prompt's messages.

    The history is the prompt's conversation with each `assistant: null` filled in and the
    model's final answer appended, optionally after a leading system message. Returns None
    when the two cannot be aligned.
    """
    template = list(prompt.messages)
    offset = 0
    if (
        history
        and history[0].get("role") == "system"
        and (not template or template[0].role != "system")
    ):
        offset = 1
    body = list(history[offset:])
    if len(body) < len(template):
        return None
    generated: list[int] = []
    for i, msg in enumerate(template):
        role = body[i].get("role")
        if role != msg.role:
            return None
        if msg.is_placeholder:
            generated.append(i + offset)
    generated += [
        i + offset for i in range(len(template), len(body)) if body[i].get("role") == "assistant"
    ]
    return generated


def tool_calls_from_rows(rows: Any) -> list[ToolCall] | None:
    """Normalize recorded tool calls (`[{name, arguments, id?, result?, error?}]`); None if absent.

    OpenAI-shaped entries (`{"function": {"name", "arguments": "<json>"}}`) are accepted too.
    """
    if rows is None:
        return None
    if not isinstance(rows, list):
        raise ValueError("`tool_calls` must be a list of {name, arguments} objects")
    calls: list[ToolCall] = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ValueError(f"tool call {i} must be an object with a `name`")
        fn = row.get("function") if isinstance(row.get("function"), dict) else None
        name = (fn or row).get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"tool call {i} has no `name`")
        arguments = (fn or row).get("arguments")
        if isinstance(arguments, str):
            with contextlib.suppress(ValueError):
                arguments = json.loads(arguments)
        error = row.get("error")
        calls.append(
            ToolCall.validated(  # a responses file's values: validated as pydantic did
                name=name,
                arguments=arguments,
                id=row.get("id") if isinstance(row.get("id"), str) else None,
                result=row.get("result"),
                error=str(error) if error not in (None, False, "") else None,
                message_index=row.get("message_index")
                if isinstance(row.get("message_index"), int)
                else None,
                source="native",
            )
        )
    return calls


def build_evidence(
    prompt: Prompt,
    model_id: str,
    *,
    response: str | None,
    messages: Sequence[dict[str, Any]] | None = None,
    system: str | None = None,
    tool_calls: list[ToolCall] | None = None,
    durations_ms: list[float] | None = None,
) -> Evidence:
    """Assemble what scoring needs about one response.

    Args:
        prompt: The prompt answered.
        model_id: The (effective) model id.
        response: The final answer, if known.
        messages: The full conversation, if recorded (with generated turns filled in).
        system: The system prompt used, when `messages` is not given.
        tool_calls: Native tool calls recorded for this response.
        durations_ms: Timed spans recorded for this response.
    """
    if messages:
        history = [dict(m) for m in messages]
        generated = _aligned_generated(prompt, history)
        if generated is None:
            last = max(
                (i for i, m in enumerate(history) if m.get("role") == "assistant"), default=None
            )
            generated = [] if last is None else [last]
        final = response
        if final is None and generated:
            final = str(history[generated[-1]].get("content") or "")
    else:
        history = []
        if system is not None:
            history.append({"role": "system", "content": system})
        history += [{"role": m.role, "content": m.content} for m in prompt.messages]
        history.append({"role": "assistant", "content": response or ""})
        generated = [len(history) - 1]
        final = response
    text = subject_text(history, generated) if generated else (final or "")
    if messages and response is not None and len(generated) <= 1:
        text = response
    return Evidence.validated(  # a responses file's values: validated as pydantic did
        prompt_id=prompt.id,
        model_id=model_id,
        text=text,
        final_text=final,
        messages=history,
        generated_indices=generated,
        tool_calls=tool_calls,
        durations_ms=durations_ms,
        response_schema=prompt.response_schema,
    )


def system_prompt_for(blueprint: Blueprint, prompt: Prompt, model_id: str = "") -> str | None:
    """Return the system prompt Weval uses for a prompt and an (effective) model id (spec §1.5).

    With a `systems` list (or a `system` list), the entry `[sp_idx:i]` of the model id names
    (the first when the id has none); otherwise the prompt's own `system` when it sets one (an
    explicit null means none), else the blueprint's `system`.
    """
    systems = blueprint.systems or (
        list(blueprint.system) if isinstance(blueprint.system, list) else None
    )
    if systems:
        found = _SP_INDEX.search(model_id)
        index = int(found.group(1)) if found else 0
        chosen = systems[index] if index < len(systems) else None
        return chosen if isinstance(chosen, str) else None
    if prompt.has_system:
        return prompt.system
    return blueprint.system if isinstance(blueprint.system, str) else None


def response_evidence(
    blueprint: Blueprint,
    prompt: Prompt,
    model_id: str,
    *,
    response: str | None,
    messages: Sequence[dict[str, Any]] | None = None,
    tool_calls: list[ToolCall] | None = None,
    durations_ms: list[float] | None = None,
) -> Evidence:
    """Evidence for a response given without a run, with the conversation a run would have had.

    Without recorded `messages`, the conversation is the system prompt `run` would send
    (`system_prompt_for`), the prompt's messages and the response, as Weval gives `$js` in
    `context.messages`. Used by `blueprint score` and the studio's "Try a response".
    """
    return build_evidence(
        prompt,
        model_id,
        response=response,
        messages=messages,
        system=None if messages else system_prompt_for(blueprint, prompt, model_id),
        tool_calls=tool_calls,
        durations_ms=durations_ms,
    )
