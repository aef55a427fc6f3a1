"""Key points from an ideal answer (spec §5.9): when, with which models, the request, the parsing.

A prompt with an `ideal` and no `should`/`should_not` points has its key points extracted by
an LLM; they are then judged as plain text points. The models are tried in Weval's order:
`evaluationConfig['llm-coverage'].judgeModels` when set, else `openai:gpt-4o-mini`, then
`openrouter:google/gemini-1.5-flash-latest`; temperature 0.1, at most 2000 tokens. The answer
is untrusted: only `<key_point>…</key_point>` items are kept, bounded in number and length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.blueprint.models import Blueprint, Point, Prompt

__all__ = [
    "DEFAULT_EXTRACTION_MODELS",
    "EXTRACTION_MAX_TOKENS",
    "EXTRACTION_SYSTEM",
    "EXTRACTION_TEMPERATURE",
    "GENERATED_TURN",
    "MAX_KEY_POINTS",
    "MAX_KEY_POINT_CHARS",
    "TURN_SEPARATOR",
    "KeyPoints",
    "extraction_models",
    "extraction_user_text",
    "key_point_prompts",
    "models_from_config",
    "needs_extraction",
    "parse_key_points",
    "prompt_context",
    "with_key_points",
]

DEFAULT_EXTRACTION_MODELS = ("openai:gpt-4o-mini", "openrouter:google/gemini-1.5-flash-latest")
EXTRACTION_TEMPERATURE = 0.1
EXTRACTION_MAX_TOKENS = 2000
MAX_KEY_POINTS = 50
"""Items kept from one answer (the first ones); more is a runaway answer, not a rubric."""
MAX_KEY_POINT_CHARS = 1000
"""Characters kept of one item (cut with an ellipsis)."""

_ITEM = re.compile(r"<key_point>(.*?)</key_point>", re.IGNORECASE | re.DOTALL)

EXTRACTION_SYSTEM = (
    "You turn a model answer into a short rubric. Read the ideal answer to a prompt and pick "
    "out what matters most in it: the facts, requirements and pieces of advice a good answer "
    "to that prompt must give. Keep each item short and about one distinct thing, and put "
    "every item between <key_point> and </key_point>."
)

TURN_SEPARATOR = "\n" + "-" * 20 + "\n"
"""Between two turns of the prompt shown to the extracting model (Weval's line of 20 dashes)."""
GENERATED_TURN = "assistant (placeholder-null): <TO_BE_GENERATED>"
"""How an `assistant: null` turn (written by the model under test) is shown: Weval's marker."""


@dataclass(frozen=True)
class KeyPoints:
    """The outcome of extracting one prompt's key points.

    Attributes:
        prompt_id: The prompt.
        points: The extracted items, in order (None when extraction failed).
        model: The model whose answer gave them (None when every model failed).
        error: Why extraction failed (None when it succeeded); never holds model output.
        attempts: One line per model that failed before, in order.
    """

    prompt_id: str
    points: list[str] | None
    model: str | None = None
    error: str | None = None
    attempts: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when points were extracted."""
        return self.points is not None

    def to_json(self) -> dict[str, Any]:
        """Our record of the extraction (the comparison's `blueprintStudio` block)."""
        out: dict[str, Any] = {"model": self.model}
        if self.error is not None:
            out["error"] = self.error
        if self.attempts:
            out["attempts"] = list(self.attempts)
        return out


def needs_extraction(prompt: Prompt) -> bool:
    """True for a prompt with an ideal (a non-empty text) and no points at all."""
    return not prompt.points and bool(prompt.ideal)


def key_point_prompts(blueprint: Blueprint) -> list[Prompt]:
    """The prompts whose key points will be extracted, in file order (first of duplicate ids)."""
    seen: set[str] = set()
    out = []
    for prompt in blueprint.prompts:
        if prompt.id not in seen and needs_extraction(prompt):
            out.append(prompt)
        seen.add(prompt.id)
    return out


def extraction_models(blueprint: Blueprint) -> list[str]:
    """Weval's order: `llm-coverage.judgeModels` when it is a non-empty list, else the defaults."""
    return models_from_config(blueprint.evaluation_config)


def models_from_config(evaluation_config: Any) -> list[str]:
    """The extraction models of a raw `evaluationConfig` value (see `extraction_models`)."""
    if not isinstance(evaluation_config, dict):
        return list(DEFAULT_EXTRACTION_MODELS)
    coverage = evaluation_config.get("llm-coverage")
    configured = coverage.get("judgeModels") if isinstance(coverage, dict) else None
    if isinstance(configured, list):
        models = [m.strip() for m in configured if isinstance(m, str) and m.strip()]
        if models:
            return list(dict.fromkeys(models))
    return list(DEFAULT_EXTRACTION_MODELS)


def prompt_context(prompt: Prompt) -> str:
    """The prompt as the extracting model sees it, rendered as Weval renders it.

    Every turn (a single prompt too) is a `role: text` line; turns are separated by a line of
    20 dashes; a turn the model under test writes (`assistant: null`) is `GENERATED_TURN`.
    """
    return TURN_SEPARATOR.join(
        GENERATED_TURN if msg.is_placeholder else f"{msg.role}: {msg.content or ''}"
        for msg in prompt.messages
    )


def extraction_user_text(prompt: Prompt) -> str:
    """The user message that asks for the key points of `prompt`'s ideal answer."""
    return (
        "Below are a prompt and the ideal answer to it. Taking the prompt into account, list "
        "the essential information, requirements and advice of the ideal answer as distinct "
        "key points. Write each one as <key_point>one point</key_point>, one per line, and "
        "write nothing but these items.\n\n"
        f"<PROMPT>\n{prompt_context(prompt)}\n</PROMPT>\n\n"
        f"<IDEAL_RESPONSE>\n{prompt.ideal or ''}\n</IDEAL_RESPONSE>"
    )


def parse_key_points(text: str) -> list[str]:
    """The `<key_point>` items of an answer: trimmed, empty ones dropped, bounded.

    At most `MAX_KEY_POINTS` items are kept, each cut to `MAX_KEY_POINT_CHARS` characters.
    An empty list means the answer holds no usable item.
    """
    out: list[str] = []
    for match in _ITEM.finditer(text):
        item = match.group(1).strip()
        if not item:
            continue
        if len(item) > MAX_KEY_POINT_CHARS:
            item = item[: MAX_KEY_POINT_CHARS - 1].rstrip() + "…"
        out.append(item)
        if len(out) == MAX_KEY_POINTS:
            break
    return out


def with_key_points(prompt: Prompt, points: list[str]) -> Prompt:
    """The prompt with `points` as its plain-text `should` points (multiplier 1, required)."""
    return prompt.model_copy(update={"points": [Point(text=p) for p in points]})
