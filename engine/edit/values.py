"""Which written values the form can edit: conversations, judges, lists, numbers, text."""

from __future__ import annotations

from typing import Any

__all__ = ["editable_value", "judges_of", "turns"]


def editable_value(name: str, value: Any) -> bool:
    """Whether the form can edit field `name` holding `value` (else it is read-only)."""
    if name in ("models", "tags"):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if name == "temperatures":
        return isinstance(value, list) and all(isinstance(v, int | float) for v in value)
    if name == "systems":
        return isinstance(value, list) and all(isinstance(v, str) or v is None for v in value)
    if name in ("weight", "temperature"):
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name == "messages":
        return isinstance(value, list) and all(_turn(m) is not None for m in value)
    if name == "evaluationConfig":
        return judges_of(value) is not None
    if name == "id":
        return isinstance(value, str | int) and not isinstance(value, bool)
    return isinstance(value, str)


def judges_of(config: Any) -> list[str] | None:
    """The judge model ids of an `evaluationConfig` the form can edit, else None."""
    if not isinstance(config, dict) or set(config) != {"llm-coverage"}:
        return None
    coverage = config["llm-coverage"]
    if not isinstance(coverage, dict) or set(coverage) != {"judges"}:
        return None
    judges = coverage["judges"]
    if not isinstance(judges, list):
        return None
    out = []
    for judge in judges:
        if not isinstance(judge, dict) or not set(judge) <= {"model", "approach"}:
            return None
        if not isinstance(judge.get("model"), str):
            return None
        out.append(judge["model"])
    return out


def _turn(message: Any) -> tuple[str, str | None] | None:
    if not isinstance(message, dict) or len(message) not in (1, 2):
        return None
    if len(message) == 1:
        ((role, content),) = message.items()
        role = "assistant" if role == "ai" else role
        ok = role in ("user", "assistant", "system") and (
            isinstance(content, str) or (role == "assistant" and content is None)
        )
        return (str(role), content) if ok else None
    role, content = message.get("role"), message.get("content")
    if role in ("user", "assistant", "system") and (isinstance(content, str) or content is None):
        return str(role), content
    return None


def turns(value: Any) -> list[tuple[str, str | None]]:
    """The conversation of an editable `messages` value, as `(role, content)` pairs."""
    return (
        [t for t in (_turn(m) for m in value) if t is not None] if isinstance(value, list) else []
    )
