"""Typed views of a parsed blueprint: `Blueprint`, `Prompt`, `Message`, `Point` (with positions)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from engine.blueprint.source import Span, joined_text
from engine.js.values import UNDEFINED, js_json_stringify, js_string
from engine.records import EXCLUDE, Record, coerce_float_lists, coerce_floats

__all__ = ["Blueprint", "Message", "Point", "Prompt", "Role"]

Role = Literal["user", "assistant", "system"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Message(Record):
    """One turn of a prompt's conversation. `content` None marks a turn the model generates."""

    role: str
    """user, assistant or system (anything else is reported by lint)."""
    content: str | None
    """The text of the turn; None for `assistant: null`."""
    span: Span | None = field(default=None, metadata=EXCLUDE)
    """Where the turn is written."""

    @property
    def is_placeholder(self) -> bool:
        """True for `assistant: null`: the model under test writes this turn."""
        return self.role == "assistant" and self.content is None


@dataclass(frozen=True, kw_only=True, slots=True)
class Point(Record):
    """One rubric criterion as the evaluator sees it (Weval's `NormalizedPoint`).

    Exactly one of `text` (judged by LLMs) and `fn` (a deterministic function) is set.
    """

    text: str | None = None
    """The criterion judged by an LLM."""
    fn: str | None = None
    """The point function's name, without `$`."""
    args: Any = None
    """The function's argument (None if absent)."""
    has_args: bool = False
    """Whether an argument was written at all."""
    multiplier: float = 1.0
    """The point's weight (0.1-10)."""
    citation: Any = None
    """A citation string or object, if any."""
    inverted: bool = False
    """True for `should_not` points (score 1-s)."""
    path: int | None = None
    """Index of the alternative path (nested list) in its list; None if required."""
    span: Span | None = field(default=None, metadata=EXCLUDE)
    """Where the point is written."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("multiplier",))

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


@dataclass(frozen=True, kw_only=True, slots=True)
class Prompt(Record):
    """A normalized prompt: the conversation, its ideal answer and its rubric."""

    id: str
    """The prompt id (a generated `hash-...` id when none is written)."""
    id_generated: bool = False
    """True when the id was generated."""
    messages: list[Message] = field(default_factory=list)
    """The conversation so far."""
    description: str | None = None
    """A note for readers."""
    ideal: str | None = None
    """The ideal response, if given."""
    has_system: bool = False
    """Whether the prompt sets its own `system`."""
    system: str | None = None
    """The prompt's own system prompt."""
    citation: Any = None
    """A citation string or {title, url}."""
    weight: float | None = None
    """Prompt importance in averages (0.1-10)."""
    render_as: str = "markdown"
    """How responses are shown."""
    temperature: float | None = None
    """The prompt's own temperature."""
    no_cache: bool | None = None
    """Skip the response cache for this prompt."""
    required_tools: list[Any] | None = None
    """Declared, not enforced."""
    prohibited_tools: list[Any] | None = None
    """Declared, not enforced."""
    max_calls: float | None = None
    """Declared, not enforced."""
    points: list[Point] = field(default_factory=list)
    """Every criterion, `should` then `should_not`, in the evaluator's order."""
    response_schema: dict[str, Any] | None = None
    """Extension: the JSON Schema the answer must satisfy (`schema:` on the prompt; read by
    `$schema_result`, ignored by Weval)."""
    span: Span | None = field(default=None, metadata=EXCLUDE)
    """Where the prompt is written."""
    weval: dict[str, Any] = field(default_factory=dict, repr=False, metadata=EXCLUDE)
    """The prompt as Weval normalizes it (see `to_weval`)."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("weight", "temperature", "max_calls"))

    def to_weval(self) -> dict[str, Any]:
        """Return this prompt exactly as Weval's parser normalizes it."""
        return copy.deepcopy(self.weval)


@dataclass(frozen=True, kw_only=True)  # no slots: `_by_id` is a cached_property
class Blueprint(Record):
    """A parsed, normalized blueprint. `to_weval()` gives Weval's exact normalized object."""

    id: str | None = None
    """Header id (Weval derives the id from the file path)."""
    title: str | None = None
    """A human title."""
    description: str | None = None
    """What the blueprint tests (Markdown)."""
    models: list[Any] = field(default_factory=list)
    """Model ids or custom model objects."""
    system: Any = None
    """The global system prompt (a list means `systems`)."""
    systems: list[str | None] | None = None
    """System prompts to permute."""
    temperature: float | None = None
    """One temperature for all calls."""
    temperatures: list[float] | None = None
    """Temperatures to permute."""
    concurrency: int | None = None
    """Parallel calls (upstream's knob)."""
    tags: list[Any] = field(default_factory=list)
    """Free-form tags."""
    evaluation_config: dict[str, Any] = field(default_factory=dict)
    """Judge settings."""
    point_defs: dict[str, Any] = field(default_factory=dict)
    """Reusable points for `$ref`."""
    tools: list[Any] | None = None
    """Tools the model may call (trace-only)."""
    external_services: dict[str, Any] = field(default_factory=dict)
    """`$call` services."""
    render_as: str | None = None
    """Default render mode for prompts."""
    prompts: list[Prompt] = field(default_factory=list)
    """The prompts, in file order."""
    source: str | None = field(default=None, metadata=EXCLUDE)
    """The file name, if any."""
    weval: dict[str, Any] = field(default_factory=dict, repr=False, metadata=EXCLUDE)
    """The blueprint as Weval normalizes it (see `to_weval`)."""

    def __post_init__(self) -> None:
        coerce_floats(self, ("temperature",))
        coerce_float_lists(self, ("temperatures",))

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
            content=None if content is None else joined_text(content, span, "message's content"),
            span=span,
        )
    return Message(
        role="",
        content=joined_text(raw, span, "message") if raw is not UNDEFINED else None,
        span=span,
    )
