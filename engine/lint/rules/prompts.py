"""Prompts: ids, the question itself, the conversation's turns, per-prompt system prompts."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from engine.blueprint.source import Span, YMap
from engine.blueprint.text import excerpt
from engine.js.values import js_string, js_truthy
from engine.lint.context import LintContext, PromptRef
from engine.lint.rules.keys import suggest

__all__ = ["RULES", "slugify"]

_ROLES = ("user", "assistant", "system")
_SHORTHAND = ("user", "assistant", "ai", "system")


def slugify(text: str, limit: int = 40) -> str:
    """A short id made from text: `What is the capital of France?` -> `what-is-the-capital-of`."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    slug = ""
    for word in words[:6]:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > limit:
            break
        slug = candidate
    return slug or (words[0][:limit] if words else "")


def _question(raw: dict[str, Any]) -> str:
    for key in ("prompt", "promptText"):
        if isinstance(raw.get(key), str):
            return str(raw[key])
    messages = raw.get("messages")
    if isinstance(messages, list):
        for message in messages:
            if isinstance(message, dict):
                if isinstance(message.get("user"), str):
                    return str(message["user"])
                if message.get("role") == "user" and isinstance(message.get("content"), str):
                    return str(message["content"])
    return ""


def _id_of(prompt: PromptRef) -> str | None:
    if prompt.normalized is not None:
        return js_string(prompt.normalized.data.get("id"))
    raw_id = prompt.raw.get("id")
    return js_string(raw_id) if js_truthy(raw_id) else None


def ids(ctx: LintContext) -> None:
    """Prompts without an id (suggest one from the text) and ids used twice."""
    taken = {js_string(p.raw.get("id")) for p in ctx.prompts if js_truthy(p.raw.get("id"))}
    seen: dict[str, PromptRef] = {}
    for prompt in ctx.prompts:
        raw = prompt.raw
        pid = _id_of(prompt)
        if pid is not None:
            first = seen.setdefault(pid, prompt)
            if first is not prompt:
                where = ctx.value_span(raw, "id", ctx.anchor(prompt))
                ctx.add(
                    "duplicate-id",
                    where if "id" in raw else ctx.anchor(prompt),
                    f"Another prompt (line {first.span.line}) already has the id `{excerpt(pid, quote=False)}`. "
                    "Results are stored by prompt id, so the two prompts' scores get mixed up. "
                    "Give each prompt its own id.",
                )
        if js_truthy(raw.get("id")) or not isinstance(raw, YMap) or not raw.key_spans:
            continue
        if prompt.damaged:
            continue
        base = slugify(_question(raw)) or f"prompt-{prompt.index + 1}"
        slug, n = base, 2
        while slug in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        anchor = ctx.anchor(prompt)
        if "id" in raw:  # `id:` written but empty: fill it in
            span = ctx.entry_span(raw, "id", anchor)
            replacement = f"id: {slug}"
        else:
            span = anchor
            flow = ctx.src.is_flow(raw.span) if raw.span is not None else False
            sep = ", " if flow else "\n" + " " * (anchor.column - 1)
            replacement = f"id: {slug}{sep}{ctx.src.slice(anchor)}"
        ctx.add(
            "missing-id",
            span,
            "This prompt has no `id`, so Weval makes one from a hash of its content: the id "
            "changes whenever you edit the prompt or its points, and results of different runs "
            f"can no longer be compared. Add a short id, for example `id: {slug}`.",
            fix=(f"Add `id: {slug}`", replacement),
            neutral=True,
        )


def _turns(ctx: LintContext, prompt: PromptRef, messages: list[Any]) -> list[tuple[str, Any, Span]]:
    """Each readable turn as (role, content, span); reports unknown roles."""
    turns: list[tuple[str, Any, Span]] = []
    for i, message in enumerate(messages):
        span = ctx.item_span(messages, i, prompt.span)
        if not isinstance(message, dict):
            continue
        if js_truthy(message.get("role")) or js_truthy(message.get("content")):
            role = message.get("role")
            if role not in _ROLES:
                where = ctx.value_span(message, "role", span)
                _bad_role(ctx, js_string(role), where, _ROLES, value=True)
                continue
            turns.append((str(role), message.get("content"), span))
            continue
        if len(message) != 1:
            continue  # Weval's parser reports this one
        (key,) = message
        if key not in _SHORTHAND:
            _bad_role(ctx, key, ctx.key_span(message, key, span), _SHORTHAND, value=False)
            continue
        turns.append(("assistant" if key == "ai" else key, message[key], span))
    return turns


def _bad_role(
    ctx: LintContext, role: str, span: Span, known: tuple[str, ...], *, value: bool
) -> None:
    guess = suggest(role, known)
    message = (
        f"`{excerpt(role, quote=False)}` is not a role Weval knows: each turn is `user`, `assistant` or `system`. "
        "Weval refuses to run this prompt."
    )
    fix = (f"Use `{guess}`", guess) if guess else None
    ctx.add("invalid-role", span, message + (f" Did you mean `{guess}`?" if guess else ""), fix=fix)


def _line_span(ctx: LintContext, span: Span) -> Span | None:
    """The whole line(s) of a block-list item, for removing it; None if not on its own line."""
    before = ctx.src.line_text(span.line)[: span.column - 1]
    after = ctx.src.line_text(span.end_line)[span.end_column - 1 :]
    if not re.fullmatch(r"\s*-\s+", before) or (
        after.strip() and not after.strip().startswith("#")
    ):
        return None
    if span.end_line < len(ctx.src.starts):
        return Span(span.line, 1, span.end_line + 1, 1)
    return Span(span.line, 1, span.end_line, len(ctx.src.line_text(span.end_line)) + 1)


def conversation(ctx: LintContext) -> None:
    """The turns Weval's CLI checks: a question exists, who speaks first and last, alternation."""
    for prompt in ctx.prompts:
        raw = prompt.raw
        messages = raw.get("messages")
        if not js_truthy(messages):
            if prompt.damaged:
                continue
            if not js_truthy(raw.get("prompt")) and not js_truthy(raw.get("promptText")):
                ctx.add(
                    "missing-prompt",
                    ctx.anchor(prompt),
                    "This prompt has no question: add `prompt: ...` (or `messages:`). Weval "
                    "refuses to run a prompt without one.",
                )
            continue
        if not isinstance(messages, list):
            continue  # Weval's parser reports this one
        if not messages:
            ignored = " (`prompt` is ignored when `messages` is set)" if "prompt" in raw else ""
            ctx.add(
                "missing-prompt",
                ctx.value_span(raw, "messages", ctx.anchor(prompt)),
                f"`messages` is empty, so this prompt has no question{ignored}. Add the turns, "
                "for example `- user: ...`. Weval refuses to run it.",
            )
            continue
        turns = _turns(ctx, prompt, messages)
        _check_turns(ctx, turns)


def _check_turns(ctx: LintContext, turns: list[tuple[str, Any, Span]]) -> None:
    if not turns:
        return
    for role, content, span in turns:
        empty = (content is None and role != "assistant") or (
            isinstance(content, str) and not content.strip()
        )
        if empty:
            ctx.add(
                "empty-message",
                span,
                f"This {role} turn is empty. Weval refuses to run a prompt with an empty turn: "
                "write its text, or remove it. (Only `assistant: null` may be empty: it marks "
                "a turn the model writes.)",
            )
    if turns[0][0] == "assistant":
        ctx.add(
            "first-message-assistant",
            turns[0][2],
            "The conversation starts with the assistant. Weval refuses to run it: start with a "
            "`user` turn (or a `system` turn, then `user`).",
        )
    previous: str | None = None
    for role, _content, span in turns:
        if role == "system":
            continue
        if role == previous:
            ctx.add(
                "repeated-role",
                span,
                f"Two {role} turns in a row. Weval refuses to run it: user and assistant turns "
                f"must alternate. Merge the two {role} turns, or put a turn of the other side "
                "between them (`assistant: null` lets the model write it).",
            )
        previous = role
    role, content, span = turns[-1]
    if role == "user":
        return
    if role == "assistant" and content is None:
        line = _line_span(ctx, span)
        ctx.add(
            "trailing-assistant-null",
            line or span,
            "The conversation ends with `assistant: null`. Weval's command line refuses this; the "
            "model always writes the answer after the last user turn anyway, so remove this line.",
            fix=("Remove the final `assistant: null`", "") if line else None,
            neutral=True,
        )
    elif role == "assistant" and not any(r == "assistant" and c is None for r, c, _ in turns):
        ctx.add(
            "nothing-to-generate",
            span,
            "The conversation ends with a fixed assistant turn and has no `assistant: null`, so "
            "the model has nothing to write. End with a `user` turn (the model answers it), or "
            "put `assistant: null` where the model should speak.",
        )
    else:
        ctx.add(
            "last-message-not-user",
            span,
            f"The conversation ends with {'an' if role == 'assistant' else 'a'} {role} turn. Weval refuses to run it: the last turn "
            "must be `user`, and the model answers it.",
        )


def _effective_systems(header: dict[str, Any]) -> bool:
    systems = header.get("systems")
    if isinstance(systems, list) and systems:
        return True
    system = header.get("system")
    return isinstance(system, list) and bool(system)


def prompt_system(ctx: LintContext) -> None:
    """A list as a prompt's `system`, and a prompt `system` beside the header's `systems`."""
    permuted = _effective_systems(ctx.header)
    for prompt in ctx.prompts:
        raw = prompt.raw
        if "system" not in raw:
            continue
        system = raw["system"]
        if isinstance(system, list):
            ctx.add(
                "prompt-system-list",
                ctx.value_span(raw, "system", prompt.span),
                "A prompt's `system` is one text (or null), not a list: Weval refuses the "
                "blueprint. To compare several system prompts, list them under `systems:` in "
                "the header.",
            )
        elif permuted and js_truthy(system):
            ctx.add(
                "prompt-system-with-systems",
                ctx.entry_span(raw, "system", prompt.span),
                "The header sets `systems` (several system prompts to compare), so a prompt "
                "cannot have its own `system`: Weval refuses to run. Remove this `system`, or "
                "the header's `systems`.",
            )


RULES = (ids, conversation, prompt_system)
