"""A run's overview as static HTML: the header, the heatmap and the reviewers' verdicts."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from engine.comparison.weval import Comparison
from engine.js.values import format_score
from engine.report.reviews import PointReviews
from engine.report.views.links import Links
from engine.report.views.palette import score_class

__all__ = ["date_words", "header", "heatmap", "prompt_order", "verdicts"]

_STAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2})[:-](\d{2})")


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def date_words(value: str | datetime | None) -> str | None:
    """A date in words, "6 December 2026, 01:40 UTC", from a datetime or a timestamp string.

    Reads ISO 8601 and Weval's file-safe timestamps (`2026-12-06T01-40-47-000Z`); None when
    the value is not a date.
    """
    if isinstance(value, datetime):
        moment = value.astimezone(UTC) if value.tzinfo else value
    else:
        found = _STAMP.match(value or "")
        if found is None:
            return None
        try:
            year, month, day, hour, minute = (int(g) for g in found.groups())
            moment = datetime(year, month, day, hour, minute, tzinfo=UTC)
        except ValueError:
            return None
    return f"{moment.day} {moment:%B %Y, %H:%M} UTC"


def header(
    title: str,
    when: str | None,
    models: Sequence[str],
    names: Mapping[str, str],
    facts: str,
) -> str:
    """The page's top: the blueprint's name, the run's date in words, its models, its cost.

    Args:
        title: The blueprint's title.
        when: The run's date in words (`date_words`), if known.
        models: The models, in the leaderboard's order.
        names: Each model's display name.
        facts: One line of counts and cost, as plain text.
    """
    shown = ", ".join(names[m] for m in models) or "none"
    return (
        f"<h1>{_e(title)}</h1>"
        + (f"<p class=when>Run of {_e(when)}</p>" if when else "")
        + f"<p><strong>Models:</strong> {_e(shown)}</p><p class=muted>{_e(facts)}</p>"
    )


def heatmap(
    comparison: Comparison,
    prompts: Sequence[str],
    models: Sequence[str],
    names: Mapping[str, str],
    links: Links,
) -> str:
    """Prompts (rows) × models (columns): each score as a number on the studio's palette.

    Each cell links to that prompt's detail; "failed" means no answer was generated.
    """
    head = "".join(f"<th scope=col>{_e(names[m])}</th>" for m in models)
    rows = []
    for pid in prompts:
        href = _e(links.prompt(pid))
        cells = []
        for model in models:
            cell = comparison.cell(pid, model)
            if cell is None:
                label, value = "not answered", None
            elif cell.failed:
                label, value = "failed", None
            elif cell.score is None:
                label, value = "n/a", None
            else:
                label, value = format_score(cell.score), cell.score
            cells.append(f'<td class={score_class(value)}><a href="{href}">{label}</a></td>')
        rows.append(f'<tr><th scope=row><a href="{href}">{_e(pid)}</a></th>{"".join(cells)}</tr>')
    return (
        "<h2>Scores by prompt</h2><p class=muted>One row per prompt, one column per model: "
        "each cell is one model's score on one prompt (1 = every point met), from red (0) "
        "through white (0.5) to blue (1); “failed” means no answer was generated, “not answered” that "
        "the model (a chat app) gave none for that prompt: no score, not a failure. Select a "
        "cell to look closer at that prompt.</p>"
        f"<div class=wide><table class=heat><tr><th scope=col>Prompt</th>{head}</tr>"
        + "".join(rows)
        + "</table></div>"
    )


def verdicts(
    matched: PointReviews,
    names: Mapping[str, str],
    links: Links,
    comparison: Comparison,
) -> str:
    """Every reviewer's verdict on a judged point, with the judge's score beside it."""
    if not matched:
        return ""
    rows = []
    for (pid, model, index), found in matched.items():
        cell = comparison.cell(pid, model)
        point = cell.assessments[index] if cell is not None else None
        judged = point.coverage_extent if point is not None else None
        text = point.key_point_text if point is not None else ""
        for r in found:
            said = "agrees with the judge" if r.verdict == "agree" else "scores it"
            rows.append(
                f'<tr><td><a href="{_e(links.prompt(pid))}">{_e(pid)}</a></td>'
                f"<td>{_e(names.get(model, model))}</td><td>{_e(text)}</td>"
                f"<td class=num>{format_score(judged, 2, '–')}</td>"
                f"<td>{_e(r.author)} {said} ({format_score(r.score)})"
                + (f": {_e(r.comment)}" if r.comment else "")
                + "</td></tr>"
            )
    return (
        "<h2>Reviewers' verdicts</h2><p class=muted>Where a person checked a judge's score: "
        "the judge's score and the reviewer's verdict.</p><div class=wide><table>"
        "<tr><th scope=col>Prompt</th><th scope=col>Model</th><th scope=col>Point</th>"
        "<th scope=col>Judge</th><th scope=col>Reviewer</th></tr>"
        + "".join(rows)
        + "</table></div>"
    )


def prompt_order(comparison: Comparison) -> list[str]:
    """The prompt ids in the blueprint's order (then any the comparison has beyond them)."""
    config = comparison.config if isinstance(comparison.config, dict) else {}
    ordered = [
        str(p.get("id"))
        for p in config.get("prompts") or []
        if isinstance(p, dict) and p.get("id") is not None
    ]
    known = [str(p) for p in comparison.prompt_ids]
    seen = set(known)
    out = [p for p in dict.fromkeys(ordered) if p in seen]
    taken = set(out)
    return out + [p for p in known if p not in taken]
