"""Reading a judge's answer: `<reflection>` and `<classification>`, tolerantly (spec §5.4)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.judge.scales import Scale

__all__ = ["JudgeParseError", "Judgement", "parse_judgement"]

_REFLECTION = re.compile(r"<\s*reflection\s*>([\s\S]*?)<\s*/\s*reflection\s*>", re.IGNORECASE)
_CLASSIFICATION = re.compile(
    r"<\s*classification\s*>([\s\S]*?)<\s*/\s*classification\s*>", re.IGNORECASE
)
_CLASS_NAME = re.compile(r"\bCLASS_[A-Z_]+\b")


class JudgeParseError(ValueError):
    """The judge's answer cannot be read; the message says why (with a short excerpt)."""


@dataclass(frozen=True)
class Judgement:
    """One judge's reading of one criterion."""

    reflection: str
    class_name: str
    score: float


def _clean(raw: str) -> str:
    text = raw.strip().strip("`*_\"' .").strip()
    return text.upper().replace(" ", "_").replace("-", "_")


def parse_judgement(text: str | None, scale: Scale) -> Judgement:
    """Return the judgement in a judge's answer.

    Accepts what Weval accepts (tags, optional `CLASS_` prefix, any case) and a little more:
    tags with spaces, Markdown around the class, and, when the tags are missing, an answer
    that names exactly one class of the scale.

    Raises:
        JudgeParseError: Empty answer, no class found, or a class the scale does not have.
    """
    if text is None or not text.strip():
        raise JudgeParseError("Empty response")
    reflection_m = _REFLECTION.search(text)
    class_m = _CLASSIFICATION.search(text)
    reflection = reflection_m.group(1).strip() if reflection_m else ""
    if class_m:
        raw = class_m.group(1)
        name = _clean(raw)
        if not name.startswith("CLASS_"):
            name = f"CLASS_{name}"
        score = scale.score(name)
        if score is None:
            shown = (
                raw.strip()[:40]
                if _CLASS_NAME.fullmatch(name)
                else f"{len(raw.strip())} characters"
            )
            raise JudgeParseError(f"Invalid classification value: '{shown}'")
        return Judgement(reflection, name, score)
    names = {n for n in _CLASS_NAME.findall(text.upper()) if scale.score(n) is not None}
    if len(names) == 1:
        (name,) = names
        score = scale.score(name)
        assert score is not None
        return Judgement(reflection, name, score)
    # The answer is not quoted: it may repeat the untrusted text under evaluation. The raw
    # answer is kept with the judgment in the store.
    raise JudgeParseError(
        f"Failed to parse XML: no <classification> tag in the judge's answer ({len(text)} characters)."
    )
