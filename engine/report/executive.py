"""An executive summary (Weval's `executiveSummary`, written by a model) read for display.

The object comes from a model's answer or from any comparison file, so it is untrusted: only
strings and numbers of the expected fields are kept, every text is plain and bounded, and the
HTML form escapes all of it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from engine.markup import strip_tags

__all__ = ["SECTIONS", "ExecutiveView", "executive_html", "read_executive"]

SECTIONS = (
    ("keyFindings", "Key findings"),
    ("strengths", "Strengths"),
    ("weaknesses", "Weaknesses"),
    ("patterns", "Patterns"),
)
_LABELS = {
    "adherence": "Instruction adherence",
    "clarity": "Clarity",
    "tone": "Tone",
    "depth": "Depth",
    "coherence": "Coherence",
    "helpfulness": "Helpfulness",
    "credibility": "Credibility",
    "empathy": "Empathy",
    "creativity": "Creativity",
    "safety": "Safety",
    "argumentation": "Argumentation",
    "efficiency": "Efficiency",
    "humility": "Humility",
}
_MAX_ITEMS = 20
_MAX_CHARS = 4000


_LINK = re.compile(r"!?\[([^\]\n]{0,300})\]\([^)\n]{0,1000}\)")


def _text(value: Any, limit: int = _MAX_CHARS) -> str | None:
    """Plain text: Weval's Markdown links keep their words; images and tags go."""
    if not isinstance(value, str) or not value.strip():
        return None
    text: str = strip_tags(_LINK.sub(lambda m: m.group(1), value)).strip()
    if not text:
        return None
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass
class ExecutiveView:
    """What a page shows of an executive summary: who wrote it, the sections, the grades."""

    model_id: str
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    grades: list[tuple[str, list[tuple[str, float]]]] = field(default_factory=list)
    content: str | None = None

    @property
    def notice(self) -> str:
        """The line that marks the summary as a model's writing."""
        return (
            f"Written by a model ({self.model_id}), not by the scoring: check it against the "
            "scores below."
        )

    @property
    def unread(self) -> str | None:
        """What to say when the reply had none of a summary's sections (else None)."""
        if self.content is None:
            return None
        return (
            "The summary could not be read: the model did not reply in the summary's format "
            "(findings, strengths, weaknesses, grades), so nothing was taken from it. Its "
            "reply is shown below as it wrote it."
        )


def read_executive(raw: Any) -> ExecutiveView | None:
    """Read an `executiveSummary` object; None when there is none or it has no usable text."""
    if not isinstance(raw, dict):
        return None
    view = ExecutiveView(model_id=_text(raw.get("modelId"), 200) or "an unknown model")
    structured = raw.get("structured")
    if isinstance(structured, dict):
        for key, title in SECTIONS:
            items = structured.get(key)
            texts = list(map(_text, items[:_MAX_ITEMS])) if isinstance(items, list) else []
            if kept := [t for t in texts if t]:
                view.sections.append((title, kept))
        for grade in (
            structured.get("grades") or [] if isinstance(structured.get("grades"), list) else []
        ):
            if not isinstance(grade, dict) or not isinstance(grade.get("grades"), dict):
                continue
            scores = [
                (_LABELS[k], float(v))
                for k, v in grade["grades"].items()
                if k in _LABELS
                and isinstance(v, int | float)
                and not isinstance(v, bool)
                and 0 <= v <= 10
            ]
            model = _text(grade.get("modelId"), 200)
            if model and scores:
                view.grades.append((model, scores))
    if not view.sections and not view.grades:
        view.content = _text(raw.get("content"), 20_000)
        if view.content is None:
            return None
    return view


def executive_html(view: ExecutiveView) -> str:
    """The summary as an escaped HTML section (no links, no images, no markup from the model)."""
    e = html.escape
    parts = [f"<h2>Executive summary</h2><p class=muted>{e(view.notice)}</p>"]
    for title, items in view.sections:
        parts.append(f"<h3>{e(title)}</h3><ul>")
        parts.extend(f"<li>{e(item)}</li>" for item in items)
        parts.append("</ul>")
    if view.grades:
        parts.append("<h3>Grades (0–10)</h3><ul>")
        for model, scores in view.grades:
            shown = "; ".join(f"{e(label)} {score:g}" for label, score in scores)
            parts.append(f"<li><code>{e(model)}</code>: {shown}</li>")
        parts.append("</ul>")
    if view.content:
        parts.append(f"<p class=unread>{e(view.unread or '')}</p>")
        parts.append(f"<h3>The model's reply</h3><pre>{e(view.content)}</pre>")
    return "<section class=executive>" + "".join(parts) + "</section>"
