"""Typed views of a parsed blueprint: `Blueprint`, `Prompt`, `Message`, `Point` (with positions)."""

from __future__ import annotations

import copy
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.blueprint.source import Span
from engine.jsvalues import UNDEFINED, js_json_stringify, js_string

__all__ = ["Blueprint", "Message", "Point", "Prompt", "Role"]

Role = Literal["user", "assistant", "system"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, extra="forbid")


class Message(_Model):
    """One turn of a prompt's conversation. `content` None marks a turn the model generates."""

    role: str = Field(description="user, assistant or system (anything else is reported by lint).")
    content: str | None = Field(description="The text of the turn; None for `assistant: null`.")
    span: Span | None = Field(default=None, exclude=True, description="Where the turn is written.")

    @property
    def is_placeholder(self) -> bool:
        """True for `assistant: null`: the model under test writes this turn."""
        return self.role == "assistant" and self.content is None


class Point(_Model):
    """One rubric criterion as the evaluator sees it (Weval's `NormalizedPoint`).

    Exactly one of `text` (judged by LLMs) and `fn` (a deterministic function) is set.
    """

    text: str | None = Field(default=None, description="The criterion judged by an LLM.")
    fn: str | None = Field(default=None, description="The point function's name, without `$`.")
    args: Any = Field(default=None, description="The function's argument (None if absent).")
    has_args: bool = Field(default=False, description="Whether an argument was written at all.")
    multiplier: float = Field(default=1.0, description="The point's weight (0.1-10).")
    citation: Any = Field(default=None, description="A citation string or object, if any.")
    inverted: bool = Field(default=False, description="True for `should_not` points (score 1-s).")
    path: int | None = Field(
        default=None,
        description="Index of the alternative path (nested list) in its list; None if required.",
    )
    span: Span | None = Field(default=None, exclude=True, description="Where the point is written.")

    @property
    def kind(self) -> Literal["text", "function"]:
        """`function` for deterministic points, `text` for LLM-judged ones."""
        return "function" if self.fn is not None else "text"

    @property
    def path_id(self) -> str | None:
        """Weval's `pathId` (`path_<index>`), or None for a required point."""
        return None if self.path is None else f"path_{self.path}"

    @property
    def display_text(self) -> str:
        """Weval's `keyPointText`: the text, or `Function: name(<JSON args>)`."""
        if self.fn is None:
            return self.text or ""
        shown = js_json_stringify(self.args) if self.has_args else None
        return f"Function: {self.fn}({shown if shown is not None else 'undefined'})"


class Prompt(_Model):
    """A normalized prompt: the conversation, its ideal answer and its rubric."""

    id: str = Field(description="The prompt id (a generated `hash-...` id when none is written).")
    id_generated: bool = Field(default=False, description="True when the id was generated.")
    messages: list[Message] = Field(default_factory=list, description="The conversation so far.")
    description: str | None = Field(default=None, description="A note for readers.")
    ideal: str | None = Field(default=None, description="The ideal response, if given.")
    has_system: bool = Field(default=False, description="Whether the prompt sets its own `system`.")
    system: str | None = Field(default=None, description="The prompt's own system prompt.")
    citation: Any = Field(default=None, description="A citation string or {title, url}.")
    weight: float | None = Field(
        default=None, description="Prompt importance in averages (0.1-10)."
    )
    render_as: str = Field(default="markdown", description="How responses are shown.")
    temperature: float | None = Field(default=None, description="The prompt's own temperature.")
    no_cache: bool | None = Field(
        default=None, description="Skip the response cache for this prompt."
    )
    required_tools: list[Any] | None = Field(default=None, description="Declared, not enforced.")
    prohibited_tools: list[Any] | None = Field(default=None, description="Declared, not enforced.")
    max_calls: float | None = Field(default=None, description="Declared, not enforced.")
    points: list[Point] = Field(
        default_factory=list,
        description="Every criterion, `should` then `should_not`, in the evaluator's order.",
    )
    response_schema: dict[str, Any] | None = Field(
        default=None,
        description="Extension: the JSON Schema the answer must satisfy (`schema:` on the prompt; "
        "read by `$schema_result`, ignored by Weval).",
    )
    span: Span | None = Field(
        default=None, exclude=True, description="Where the prompt is written."
    )
    weval: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)

    def to_weval(self) -> dict[str, Any]:
        """Return this prompt exactly as Weval's parser normalizes it."""
        return copy.deepcopy(self.weval)


class Blueprint(_Model):
    """A parsed, normalized blueprint. `to_weval()` gives Weval's exact normalized object."""

    id: str | None = Field(
        default=None, description="Header id (Weval derives the id from the file path)."
    )
    title: str | None = Field(default=None, description="A human title.")
    description: str | None = Field(
        default=None, description="What the blueprint tests (Markdown)."
    )
    models: list[Any] = Field(
        default_factory=list, description="Model ids or custom model objects."
    )
    system: Any = Field(
        default=None, description="The global system prompt (a list means `systems`)."
    )
    systems: list[str | None] | None = Field(default=None, description="System prompts to permute.")
    temperature: float | None = Field(default=None, description="One temperature for all calls.")
    temperatures: list[float] | None = Field(default=None, description="Temperatures to permute.")
    concurrency: int | None = Field(default=None, description="Parallel calls (upstream's knob).")
    tags: list[Any] = Field(default_factory=list, description="Free-form tags.")
    evaluation_config: dict[str, Any] = Field(default_factory=dict, description="Judge settings.")
    point_defs: dict[str, Any] = Field(
        default_factory=dict, description="Reusable points for `$ref`."
    )
    tools: list[Any] | None = Field(
        default=None, description="Tools the model may call (trace-only)."
    )
    external_services: dict[str, Any] = Field(default_factory=dict, description="`$call` services.")
    render_as: str | None = Field(default=None, description="Default render mode for prompts.")
    prompts: list[Prompt] = Field(default_factory=list, description="The prompts, in file order.")
    source: str | None = Field(default=None, exclude=True, description="The file name, if any.")
    weval: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)

    def to_weval(self) -> dict[str, Any]:
        """Return the blueprint exactly as Weval's `parseAndNormalizeBlueprint` produces it."""
        return copy.deepcopy(self.weval)

    @cached_property
    def _by_id(self) -> dict[str, Prompt]:
        index: dict[str, Prompt] = {}
        for p in self.prompts:
            index.setdefault(p.id, p)  # with duplicate ids (a lint error), the first wins
        return index

    def prompt(self, prompt_id: str) -> Prompt | None:
        """Return the (first) prompt with this id, or None."""
        return self._by_id.get(prompt_id)


def message_from_weval(raw: Any, span: Span | None) -> Message:
    """Build a typed message from a normalized (possibly passed-through) message value."""
    if isinstance(raw, dict):
        role = raw.get("role")
        content = raw.get("content")
        return Message(
            role=role if isinstance(role, str) else js_string(role) if role is not None else "",
            content=content if isinstance(content, str) or content is None else js_string(content),
            span=span,
        )
    return Message(role="", content=js_string(raw) if raw is not UNDEFINED else None, span=span)
