"""Which written values the form can edit: conversations, judges, lists, numbers, text."""

from __future__ import annotations

from typing import Any

from engine.blueprint.source import load_yaml_documents
from engine.errors import BlueprintError

__all__ = ["editable_value", "judges_of", "turns", "typed_value"]


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


def typed_value(text: str) -> Any:
    """One value typed in a form field, read as the blueprint reader reads YAML.

    That is js-yaml 4's rules (`yes` and `1:30` stay texts, `0o17` is 15), with its bounds:
    anchors that would expand past the limit, or nesting too deep, are refused.

    Raises:
        ValueError: The text is not one YAML value; the message says why, in plain words.
    """
    try:
        docs = load_yaml_documents(text)
    except BlueprintError as exc:
        raise ValueError(exc.message) from None
    if len(docs) > 1:
        raise ValueError("This field holds one value, not several YAML documents.")
    return docs[0][0] if docs else None
