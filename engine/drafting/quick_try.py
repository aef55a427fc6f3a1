"""The quick try of Build by conversation: a small run's results said in plain words by our code.

The summary is computed here, never by a model: per model the average score, each prompt
that scored low on every model, each point that scored 0 on every model, and the failures.
It is kept with the draft's conversation and sent to the assistant on the next turn.
"""

from __future__ import annotations

from engine.comparison.weval import IDEAL_MODEL_ID, Comparison
from engine.modelids import display_names

__all__ = [
    "LOW_SCORE",
    "MAX_COST_USD",
    "MAX_NAMED",
    "MAX_PROMPTS",
    "SUMMARY_PREFIX",
    "quick_try_summary",
]

MAX_COST_USD = 0.05
"""The quick try's budget, in US dollars."""
MAX_PROMPTS = 10
"""The most prompts a quick try runs."""
MAX_MODELS = 2
"""The most models a quick try runs."""
LOW_SCORE = 0.3
"""A prompt at or below this score on every model is named."""
MAX_NAMED = 8
"""The most prompts (and points) named; the rest are counted."""
_POINT_CHARS = 120
SUMMARY_PREFIX = "Quick try results"
"""How a quick try's summary message begins."""


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"


def _named(lines: list[str]) -> list[str]:
    if len(lines) <= MAX_NAMED:
        return lines
    return [*lines[:MAX_NAMED], f"- … and {len(lines) - MAX_NAMED} more"]


def quick_try_summary(comparison: Comparison, link: str | None = None) -> str:
    """The quick try's results in plain words (bounded, no markup).

    Args:
        comparison: The scored run.
        link: Where the full results are, if known.

    Returns:
        The summary, beginning with `SUMMARY_PREFIX`.
    """
    models = [m for m in comparison.models if m != IDEAL_MODEL_ID]
    names = display_names(models)  # one name per model, as every page shows it
    prompts = _count(len(comparison.prompt_ids), "prompt")
    lines = [f"{SUMMARY_PREFIX} ({prompts}, {_count(len(models), 'model')}):"]
    failures = 0
    for model in models:
        cells = [comparison.cell(p, model) for p in comparison.prompt_ids]
        scores = [c.score for c in cells if c is not None and not c.failed and c.score is not None]
        failed = sum(1 for c in cells if c is None or c.failed)
        failures += failed
        average = f"average {sum(scores) / len(scores):.2f}" if scores else "no score"
        fails = f", {failed} failed" if failed else ""
        lines.append(
            f"- {names[model]}: {average} over {_count(len(scores), 'scored prompt')}{fails}"
        )
    low: list[str] = []
    zero: list[str] = []
    for prompt in comparison.prompt_ids:
        cells = [comparison.cell(prompt, m) for m in models]
        scored = [c for c in cells if c is not None and not c.failed and c.score is not None]
        if not scored or len(scored) != len(models):
            continue
        if all(c.score is not None and c.score <= LOW_SCORE for c in scored):
            worst = max(c.score or 0.0 for c in scored)
            every = "every model" if len(models) > 1 else "the model"
            low.append(
                f"- prompt {prompt} scored {worst:.2f} or less on {every}: its points may be "
                "too strict or unclear"
            )
        texts = [a.key_point_text for a in scored[0].assessments]
        for index, text in enumerate(texts):
            extents = [
                c.assessments[index].coverage_extent for c in scored if index < len(c.assessments)
            ]
            if len(extents) == len(scored) and all(e == 0 for e in extents):
                zero.append(
                    f'- prompt {prompt}, point "{_short(text, _POINT_CHARS)}" scored 0 on '
                    "every model"
                )
    lines += _named(low) or [f"- No prompt scored {LOW_SCORE} or less on every model."]
    lines += _named(zero)
    if failures:
        lines.append(
            f"- {failures} answer{'s' if failures != 1 else ''} failed (no answer could be "
            "scored): these are failures of the call, not scores."
        )
    if link:
        lines.append(f"Full results: {link}")
    return "\n".join(lines)
