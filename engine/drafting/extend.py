"""More prompts for a blueprint: from a sentence of guidance or from a pasted source text.

The model sees the current blueprint and answers with new prompt items (untrusted text). They
pass the checks of any draft (`engine.drafting.check`: size, markup, placeholders, anchors,
points that run code or call out, lint), at most `MAX_NEW_PROMPTS` of them, each id unique
against the blueprint's; then they are added at the end of the blueprint's text by the editor's
`AddPrompt` edit. Nothing is saved or run here: the studio shows the result as a diff and keeps
it only when the author accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.blueprint import parse_blueprint
from engine.blueprint.layout import split_layout
from engine.blueprint.models import Blueprint
from engine.blueprint.source import load_yaml_documents
from engine.drafting.check import (
    Draft,
    DraftRefused,
    _fixed,
    _parse,
    _usable,
    _with_reply,
    _yaml_of,
)
from engine.drafting.extend_prompts import (
    MAX_NEW_PROMPTS,
    MAX_SOURCE_CHARS,
    guidance_messages,
    source_messages,
)
from engine.drafting.service import _ask
from engine.edit.apply import apply
from engine.edit.edits import AddPrompt
from engine.errors import BlueprintError, EngineError
from engine.lint import lint
from engine.store import Store

__all__ = [
    "MAX_NEW_PROMPTS",
    "MAX_SOURCE_CHARS",
    "Extension",
    "add_prompts",
    "prompts_from_source",
    "read_new_prompts",
]


@dataclass
class Extension(Draft):
    """The blueprint with new prompts added (`text`), and what was done to them.

    Attributes:
        added: The ids of the new prompts, in order.
        before: The blueprint's text the prompts were added to.
    """

    added: list[str] = field(default_factory=list)
    before: str = ""


def _current(text: str) -> Blueprint:
    try:
        return parse_blueprint(text, source="blueprint.yml")
    except BlueprintError as exc:
        where = f" (line {exc.line})" if exc.line else ""
        raise DraftRefused(
            f"The blueprint in the editor cannot be read{where}: {exc.message} Fix it first, "
            "then ask for more prompts."
        ) from None


def _plain(value: Any) -> Any:
    """A parsed YAML value as plain dicts, lists and scalars (for the editor's renderer)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _items(text: str) -> list[dict[str, Any]]:
    """The prompt items of a checked draft's text, as plain values."""
    _, raw = split_layout(load_yaml_documents(text), "yaml")
    return [_plain(item) if isinstance(item, dict) else {"prompt": item} for item, _ in raw]


def _unique_ids(items: list[dict[str, Any]], taken: set[str]) -> list[str]:
    """Rename new prompts whose id is taken (`id-2`, `id-3`…); say what was renamed."""
    renamed: list[str] = []
    for item in items:
        old = item.get("id")
        if not isinstance(old, str) or not old:
            continue
        new, n = old, 2
        while new in taken:
            new, n = f"{old}-{n}", n + 1
        if new != old:
            item["id"] = new
            renamed.append(f"Renamed the new prompt `{old}` to `{new}` (the id was taken)")
        taken.add(new)
    return renamed


def read_new_prompts(answer: str, current: str) -> Extension:
    """New prompts from the model's answer, checked and added to the end of `current`.

    Args:
        answer: What the model replied (untrusted): a YAML list of prompt items.
        current: The blueprint's text now (it must parse).

    Raises:
        DraftRefused: The blueprint cannot be read, or the answer is too long, holds no
            prompts or too many, is hostile, or still has errors.
    """
    blueprint = _current(current)
    with _with_reply(answer):
        text = _yaml_of(answer)
        drafted = _parse(text)
        if not drafted.prompts:
            raise DraftRefused("The model's answer holds no prompts. Nothing was added; try again.")
        if len(drafted.prompts) > MAX_NEW_PROMPTS:
            raise DraftRefused(
                f"The model proposed {len(drafted.prompts)} prompts, more than one request may "
                f"add ({MAX_NEW_PROMPTS}). Nothing was added; ask for fewer."
            )
        draft = _usable(_fixed(text))
        items = _items(draft.text)
    renamed = _unique_ids(items, {p.id for p in blueprint.prompts})
    new = current
    try:
        for item in items:
            new = apply(new, AddPrompt(fields=item))
        extended = parse_blueprint(new, source="blueprint.yml")
    except (EngineError, ValueError) as exc:
        raise DraftRefused(
            f"The new prompts could not be added to this blueprint ({exc}). Nothing was added."
        ) from None
    fresh = extended.prompts[len(blueprint.prompts) :]
    first = fresh[0].span.line if fresh and fresh[0].span else None
    shown = [d for d in lint(new) if first is not None and d.line >= first]
    return Extension(
        text=new,
        fixed=[*draft.fixed, *renamed],
        diagnostics=shown,
        added=[p.id for p in fresh],
        before=current,
    )


def _extend(
    store: Store,
    model_id: str,
    current: str,
    ask: Callable[[str, list[str]], list[dict[str, str]]],
    environ: Mapping[str, str] | None,
) -> Extension:
    ids = [p.id for p in _current(current).prompts]
    return read_new_prompts(_ask(store, model_id, ask(current, ids), environ), current)


def add_prompts(
    store: Store,
    model_id: str,
    current: str,
    guidance: str,
    *,
    environ: Mapping[str, str] | None = None,
) -> Extension:
    """New prompts that follow `guidance`, added to `current` (never run, never saved).

    Args:
        store: The store (its cache keeps the model's answer).
        model_id: The model that drafts (`provider:model`).
        current: The blueprint's text now.
        guidance: The author's words, e.g. "three more about edge cases of tax residency".
        environ: Provider settings (keys, endpoints); the process's environment when None.

    Raises:
        DraftRefused: The guidance is empty, the blueprint cannot be read, the call failed,
            or the answer was refused.
    """
    if not guidance.strip():
        raise DraftRefused("Say what the new prompts should be about first.")
    return _extend(
        store, model_id, current, lambda t, ids: guidance_messages(t, ids, guidance), environ
    )


def prompts_from_source(
    store: Store,
    model_id: str,
    current: str,
    source: str,
    *,
    environ: Mapping[str, str] | None = None,
) -> Extension:
    """New prompts, with ideal answers and points, drawn from `source` and added to `current`.

    Args:
        store: The store (its cache keeps the model's answer).
        model_id: The model that drafts (`provider:model`).
        current: The blueprint's text now.
        source: An article or notes the author pasted (at most `MAX_SOURCE_CHARS`).
        environ: Provider settings (keys, endpoints); the process's environment when None.

    Raises:
        DraftRefused: The source is empty or too long, the blueprint cannot be read, the call
            failed, or the answer was refused.
    """
    if not source.strip():
        raise DraftRefused("Paste the source text first: an article or your notes.")
    if len(source) > MAX_SOURCE_CHARS:
        raise DraftRefused(
            f"The source text is {len(source):,} characters; at most {MAX_SOURCE_CHARS:,} can "
            "be sent. Nothing was sent: paste the part that matters most."
        )
    return _extend(
        store, model_id, current, lambda t, ids: source_messages(t, ids, source), environ
    )
