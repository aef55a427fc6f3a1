"""Reading the summary model's answer (untrusted) into Weval's `executiveSummary` object.

Only the tags asked for are read; their text is kept as plain text with any markup removed,
lengths and counts are bounded, grades are numbers from 0 to 10 or null, and anonymous labels
are replaced by the real model ids only after parsing.
"""

from __future__ import annotations

import re
from typing import Any

from engine.markup import strip_tags
from engine.summary.anonymize import Anonymizer
from engine.summary.prompts import GRADING_DIMENSIONS

__all__ = ["MAX_ANSWER_CHARS", "clean_text", "parse_summary"]

MAX_ANSWER_CHARS = 300_000
_MAX_ITEMS = 12
_MAX_ITEM_CHARS = 2000
_SECTIONS = {
    "keyFindings": "key_finding",
    "strengths": "strength",
    "weaknesses": "weakness",
    "patterns": "pattern",
}
_PROMPT_REF = re.compile(r'<ref\s+prompt\s*=\s*"([^"<>]{1,200})"\s*/?>')
_GRADE = re.compile(r"<grade\s+([^<>]{0,300})>(.*?)</grade>", re.S | re.I)
_ATTR = re.compile(r'(\w+)\s*=\s*"([^"]{0,100})"')
_SCORE = re.compile(r"^\s*SCORE\s*:\s*(.*)$", re.I | re.M)
_REASON = re.compile(r"^\s*REASONING\s*:\s*(.*)$", re.I | re.M)
_NUMBER = re.compile(r"(\d+(?:\.\d+)?)")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean_text(text: str, limit: int = _MAX_ITEM_CHARS) -> str:
    """Plain text, bounded: a prompt reference becomes its id, other markup goes.

    `<ref prompt="id" />` (Weval's way to cite a prompt) becomes the id; other tags and
    control characters are removed and runs of spaces collapsed.
    """
    text = strip_tags(_CONTROL.sub("", _PROMPT_REF.sub(r"\1", text)))
    text = re.sub(r"[ \t]+", " ", text).strip()
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def _items(answer: str, tag: str, names: Anonymizer) -> list[str]:
    found = re.findall(rf"<{tag}>(.*?)</{tag}>", answer, re.S | re.I)
    out = [names.name(clean_text(f)) for f in found[:_MAX_ITEMS]]
    return [o for o in out if o]


def _score(text: str) -> float | None:
    match = _SCORE.search(text)
    if match is None or match.group(1).strip().upper() in {"N/A", "NA"}:
        return None
    number = _NUMBER.search(match.group(1))
    if number is None:
        return None
    value = float(number.group(1))
    return value if 0 <= value <= 10 else None


def _grades(answer: str, names: Anonymizer) -> list[dict[str, Any]]:
    by_model: dict[str, dict[str, Any]] = {}
    for attrs_text, body in _GRADE.findall(answer):
        attrs = dict(_ATTR.findall(attrs_text))
        base = names.real_base(attrs.get("model", ""))
        dimension = attrs.get("dimension", "")
        if base is None or dimension not in GRADING_DIMENSIONS:
            continue
        entry = by_model.setdefault(base, {"grades": {}, "reasoning": {}})
        entry["grades"][dimension] = _score(body)
        reason = _REASON.search(body)
        if reason is not None and (text := names.name(clean_text(reason.group(1)))):
            entry["reasoning"][dimension] = text
    out = []
    for base in sorted(by_model):
        entry = by_model[base]
        grade: dict[str, Any] = {
            "modelId": base,
            "grades": {k: entry["grades"].get(k) for k in GRADING_DIMENSIONS},
        }
        if entry["reasoning"]:
            grade["reasoning"] = entry["reasoning"]
        out.append(grade)
    return out


def parse_summary(answer: str, names: Anonymizer, model_id: str) -> dict[str, Any]:
    """Weval's `executiveSummary` from the model's answer: `{modelId, content, structured, isStructured}`.

    `content` is the answer as plain text with the models named; `structured` holds the
    findings and grades when the answer used the tags, and `isStructured` says whether it did.
    """
    answer = answer[:MAX_ANSWER_CHARS]
    structured: dict[str, Any] = {k: _items(answer, tag, names) for k, tag in _SECTIONS.items()}
    grades = _grades(answer, names)
    if grades:
        structured["grades"] = grades
    topics = [clean_text(t, 60) for t in re.findall(r"<topic>(.*?)</topic>", answer, re.S)[:8]]
    if topics := [t for t in topics if t]:
        structured["autoTags"] = topics
    is_structured = any(structured.get(k) for k in (*_SECTIONS, "grades"))
    content = names.name(clean_text(answer, MAX_ANSWER_CHARS))
    summary: dict[str, Any] = {"modelId": model_id, "content": content}
    if is_structured:
        summary["structured"] = structured
    summary["isStructured"] = is_structured
    return summary
