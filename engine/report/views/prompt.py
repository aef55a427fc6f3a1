"""One prompt in detail, as static HTML: points × models, why this score, answers side by side.

Every string from a blueprint, a model, a judge or a reviewer is escaped with `html.escape`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.comparison.cost import money_text
from engine.comparison.weval import IDEAL_MODEL_ID, Comparison
from engine.js.values import format_score
from engine.modelids import judge_name
from engine.report.costs import UNKNOWN
from engine.report.numbering import point_kinds, point_numbers
from engine.report.reviews import PointReviews
from engine.report.views.chart import path_chart
from engine.report.views.links import Links, anchor
from engine.report.views.palette import score_class
from engine.report.views.why import explanation_steps, path_names, weight_text
from engine.scoring.aggregation import ScoreExplanation
from engine.scoring.cells import CellScore
from engine.store.reviews import ReviewRow

__all__ = [
    "group_label",
    "messages",
    "pair_css",
    "pair_picker",
    "point_value",
    "prompt_detail",
    "usage_line",
]


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def group_label(
    path_id: str | None, inverted: bool = False, names: Mapping[str, str] | None = None
) -> str:
    """How a point's group is named on screen: "Required", "Path 1", plus "(should not)"."""
    label = "Required"
    if path_id:
        label = (names or path_names([path_id])).get(path_id, path_id)
    return f"{label} (should not)" if inverted else label


def point_value(cell: CellScore | None, index: int) -> float | str:
    """A model's score on one point, or a word saying why there is none."""
    if cell is None:
        return "not answered"
    if cell.failed:
        return "failed"
    if index >= len(cell.assessments):
        return "no result"
    a = cell.assessments[index]
    if a.counts and a.coverage_extent is not None:
        return a.coverage_extent
    if a.status == "unverified":
        return "needs a judge" if a.kind == "text" else "unverified"
    return "errored"


def messages(raw: Any) -> list[tuple[str, str | None]]:
    """A prompt's conversation as (role, text) pairs (a structured content as JSON text)."""
    if isinstance(raw, str):
        return [("user", raw)]
    out: list[tuple[str, str | None]] = []
    for m in raw if isinstance(raw, list) else []:
        if isinstance(m, dict):
            content = m.get("content")
            text = (
                content
                if isinstance(content, str) or content is None
                else json.dumps(content, ensure_ascii=False)
            )
            out.append((str(m.get("role") or ""), text))
    return out


def usage_line(usage: Mapping[str, Any] | None) -> str:
    """One answer's time, tokens and cost in words ("1.50 s · 10 tokens in · answer $0.0010")."""
    if not usage:
        return ""
    bits = []
    if isinstance(usage.get("latency_ms"), int | float):
        bits.append(f"{usage['latency_ms'] / 1000:.2f} s")
    if isinstance(usage.get("input_tokens"), int | float):
        bits.append(f"{int(usage['input_tokens'])} tokens in")
    if isinstance(usage.get("output_tokens"), int | float):
        bits.append(f"{int(usage['output_tokens'])} out")
    if usage.get("cost_unknown"):
        bits.append(UNKNOWN)
    elif isinstance(usage.get("cost_usd"), int | float):
        bits.append(f"answer {money_text(float(usage['cost_usd']))}")
    return " · ".join(bits)


def review_lines(reviews: Sequence[ReviewRow]) -> str:
    """A point's verdicts as escaped lines, each on its own line."""
    lines = []
    for r in reviews:
        said = "agrees with the judge" if r.verdict == "agree" else "scores it"
        comment = f": {_e(r.comment)}" if r.comment else ""
        lines.append(
            f"<br><span class=review>Reviewer {_e(r.author)} {said} "
            f"({_e(format_score(r.score))}){comment}</span>"
        )
    return "".join(lines)


def _reasons(cell: CellScore, index: int) -> str:
    """The judges' reasons on a point (a function's only when it was not fully met)."""
    a = cell.assessments[index]
    if a.kind == "function" and not a.error and a.counts and a.coverage_extent == 1:
        return ""  # "Contains 'x', as required": the score says it
    judges = a.individual_judgements or []
    lines = [
        f"{_e(judge_name(j.judge_model_id))} ({format_score(j.coverage_extent)}): {_e(j.reflection)}"
        for j in judges
    ] or ([_e(a.reflection)] if a.reflection else [])
    if a.error:
        lines.append(f"<span class=err>{_e(a.error)}</span>")
    return "<br>".join(lines)


def _path_rows(models: Sequence[str], expls: Mapping[str, ScoreExplanation | None]) -> str:
    """The grid's last rows: each model's required points, each path (best ★) and final score."""
    required = any(g.kind == "required" for e in expls.values() if e for g in e.groups)
    paths = path_names(p.path_id for e in expls.values() if e for g in e.groups for p in g.paths)
    rows: list[tuple[str, dict[str, str]]] = []
    if required:
        rows.append(("Required points", {}))
    rows += [(name, {}) for name in paths.values()]
    rows.append(("Final score", {}))
    for m in models:
        e = expls.get(m)
        if e is None:
            continue
        for g in e.groups:
            if g.kind == "required":
                rows[0][1][m] = format_score(g.score)
            for p in g.paths:
                mark = " ★" if p.path_id == g.winner else ""
                row = dict(rows)[paths[p.path_id]]
                row[m] = format_score(p.score, 2, "–") + mark
        rows[-1][1][m] = format_score(e.score, 2, "–")
    return "".join(
        f"<tr class=sum><th scope=row colspan=4>{_e(label)}</th>"
        + "".join(f"<td class=num>{values.get(m, '–')}</td>" for m in models)
        + "</tr>"
        for label, values in rows
    )


def _grid(
    comparison: Comparison,
    pid: str,
    models: Sequence[str],
    names: Mapping[str, str],
    reviews: PointReviews,
    expls: Mapping[str, ScoreExplanation | None],
) -> str:
    """Points (rows) × models (columns): each point's score and the judges' reasons.

    Its last rows hold each group's and path's score (the best path ★) and the final score.
    """
    cells = {m: comparison.cell(pid, m) for m in models}
    first = next((c for c in cells.values() if c is not None and c.assessments), None)
    if first is None:
        return "<p class=muted>No model has a scored answer for this prompt.</p>"
    points = list(first.assessments)
    groups = path_names(p.path_id for p in points)
    numbers = point_numbers(points, point_kinds(comparison.config, pid))
    head = "".join(f"<th scope=col>{_e(names[m])}</th>" for m in models)
    rows = []
    for index in sorted(range(len(points)), key=numbers.__getitem__):
        p = points[index]
        out = []
        for m in models:
            cell = cells[m]
            value = point_value(cell, index)
            if isinstance(value, float | int):
                shown = f"<b class={score_class(value)}>{format_score(value)}</b>"
            else:
                shown = f"<i>{_e(value)}</i>"
            why = (
                _reasons(cell, index) if cell is not None and index < len(cell.assessments) else ""
            )
            why += review_lines(reviews.get((pid, m, index), []))
            out.append(f"<td>{shown}" + (f"<div class=why>{why}</div>" if why else "") + "</td>")
        rows.append(
            f"<tr><td class=num>{numbers[index]}</td><td>{_e(p.key_point_text)}</td>"
            f"<td class=nw>{_e(group_label(p.path_id, p.is_inverted, groups))}</td>"
            f"<td class=num>{weight_text(p.multiplier)}</td>{''.join(out)}</tr>"
        )
    return (
        "<h4>Points × models</h4><p class=muted>Each row is one point of the rubric; each "
        "column one model's score on it, with the judges' reasons (“needs a judge”: a point in "
        "words scored without judges). The last rows: each path's score (★ the best path, the "
        "one that counts) and the final score.</p><div class=wide><table class=grid><tr>"
        "<th scope=col>#</th><th scope=col>Point</th><th scope=col>Group</th>"
        f"<th scope=col>Weight</th>{head}</tr>"
        + "".join(rows)
        + _path_rows(models, expls)
        + "</table></div>"
    )


def _why(
    comparison: Comparison,
    pid: str,
    models: Sequence[str],
    names: Mapping[str, str],
    expls: Mapping[str, ScoreExplanation | None],
    charts: bool,
) -> str:
    """Each model's score explained: the per-path chart and the arithmetic, in words.

    Models whose scores are computed the same way share one block (their names in its title).
    """
    blocks: dict[tuple[str, str], list[str]] = {}
    for m in models:
        cell = comparison.cell(pid, m)
        if cell is None:
            key = ("not answered", "")
        elif cell.failed:
            key = ("<span class=err>failed</span>", f"<p class=err>{_e(cell.error)}</p>")
        else:
            expl = expls.get(m) or cell.explain()
            paths = any(g.kind != "required" for g in expl.groups)
            chart = path_chart(expl) if charts and paths else ""
            steps = "<br>".join(
                _e(s).replace("  ", "&nbsp;&nbsp;") for s in explanation_steps(expl)
            )
            key = (format_score(cell.score, 2, "–"), f"{chart}<p class=formula>{steps}</p>")
        blocks.setdefault(key, []).append(_e(names[m]))
    parts = [
        f"<details><summary>{', '.join(who)}: {head}</summary>{body}</details>"
        for (head, body), who in blocks.items()
    ]
    return (
        "<h4>Why this score</h4><p class=muted>Open a model to see how its score is computed: "
        "each path's score (only the best path counts) and the arithmetic. Models whose "
        "scores are computed alike share one block.</p>" + "".join(parts)
    )


def _sbs(
    comparison: Comparison,
    pid: str,
    models: Sequence[str],
    names: Mapping[str, str],
    links: Links,
    pair: tuple[str, str],
    usage: Mapping[tuple[str, str], Mapping[str, Any]],
) -> str:
    """Two models' answers side by side, with plain links (or radios) to pick another pair."""
    if not models:
        return ""
    key = anchor(pid)

    def answer(m: str, extra: str = "") -> str:
        cell = comparison.cell(pid, m)
        spent = usage_line(usage.get((pid, m)))
        text = comparison.responses.get(pid, {}).get(m)
        error = cell.error if cell is not None and cell.failed else None
        body = (
            f"<p class=err>{_e(error)}</p>"
            if error
            else f"<pre dir=auto>{_e(text)}</pre>"
            if text is not None
            else "<p class=muted>No answer recorded.</p>"
        )
        score = format_score(cell.score, 2, "–") if cell is not None else "–"
        return (
            f"<div class=ans{extra}><p><strong>{_e(names[m])}</strong> · score {score}"
            + (f" <span class=muted>· {_e(spent)}</span>" if spent else "")
            + f"</p>{body}</div>"
        )

    a, b = pair
    if links.pair is not None:  # the share page: links that load the page with another pair
        pick_a = " · ".join(
            f"<strong>{_e(names[m])}</strong>"
            if m == a
            else f'<a href="{_e(links.pair(pid, m, b))}">{_e(names[m])}</a>'
            for m in models
        )
        pick_b = " · ".join(
            f"<strong>{_e(names[m])}</strong>"
            if m == b
            else f'<a href="{_e(links.pair(pid, a, m))}">{_e(names[m])}</a>'
            for m in models
        )
        cols = answer(a) + (answer(b) if b != a else "")
        picker = f"<p class=pick>Left: {pick_a}</p><p class=pick>Right: {pick_b}</p>"
        return f'<h4 id="sbs-{key}">Answers side by side</h4>{picker}<div class=pair>{cols}</div>'
    # the report: the page's one pair picker (`pair_picker`) shows two of these by CSS alone
    cols = "".join(answer(m, f" data-i={i}") for i, m in enumerate(models))
    return f'<h4 id="sbs-{key}">Answers side by side</h4><div class="pair sbs">{cols}</div>'


def pair_picker(models: Sequence[str], names: Mapping[str, str], pair: tuple[str, str]) -> str:
    """The report's two radio groups that pick the models every prompt shows side by side."""

    def radios(side: str, chosen: str) -> str:
        return "".join(
            f"<label><input type=radio name=p{side} id=p{side}{i}"
            + (" checked" if m == chosen else "")
            + f">{_e(names[m])}</label>"
            for i, m in enumerate(models)
        )

    return (
        "<div class=picker><p class=muted>Answers side by side: pick the two models whose "
        "answers each prompt shows (no script: the page shows them as you pick).</p>"
        f"<fieldset><legend>Left</legend>{radios('a', pair[0])}</fieldset>"
        f"<fieldset><legend>Right</legend>{radios('b', pair[1])}</fieldset></div>"
    )


def pair_css(count: int) -> str:
    """The rules that show the two answers the picker names, on every prompt (no script)."""
    return "".join(
        f'body:has(#pa{i}:checked) .sbs>.ans[data-i="{i}"]'
        "{display:block;grid-column:1;grid-row:1}"
        f'body:has(#pb{i}:checked) .sbs>.ans[data-i="{i}"]'
        "{display:block;grid-column:2;grid-row:1}"
        for i in range(count)
    )


def prompt_detail(
    comparison: Comparison,
    pid: str,
    models: Sequence[str],
    names: Mapping[str, str],
    usage: Mapping[tuple[str, str], Mapping[str, Any]],
    reviews: PointReviews,
    links: Links,
    pair: tuple[str, str],
    *,
    charts: bool = True,
) -> str:
    """One prompt: its conversation and ideal, points × models, why this score, two answers.

    Args:
        comparison: The scored run.
        pid: The prompt.
        models: The models, in the leaderboard's order.
        names: Each model's display name.
        usage: Per (prompt id, model id): time, tokens and cost, when recorded.
        reviews: Reviewers' verdicts by judged point.
        links: Where the page's links go.
        pair: The two models shown side by side (with links to pick others).
        charts: Draw each answer's per-path chart (the grid's last rows hold its figures).
    """
    expls: dict[str, ScoreExplanation | None] = {}
    for m in models:
        cell = comparison.cell(pid, m)
        expls[m] = cell.explain() if cell is not None and not cell.failed else None
    turns = []
    for role, content in messages(comparison.prompt_contexts.get(pid)):
        who = {"user": "User", "assistant": "Assistant", "system": "System prompt"}.get(role, role)
        body = (
            "<p class=muted>(the model writes this turn)</p>"
            if content is None
            else f"<pre dir=auto>{_e(content)}</pre>"
        )
        turns.append(f"<p><strong>{_e(who)}</strong></p>{body}")
    ideal = comparison.responses.get(pid, {}).get(IDEAL_MODEL_ID)
    ideal_html = (
        f"<p><strong>Ideal answer</strong></p><pre dir=auto>{_e(ideal)}</pre>" if ideal else ""
    )
    scores = ", ".join(
        f"{names[m]} {format_score(c.score, 2, '–')}"
        for m in models
        if (c := comparison.cell(pid, m)) is not None
    )
    return (
        f'<section class=prompt id="{anchor(pid)}"><h3>{_e(pid)}</h3>'
        f"<p class=muted>{_e(scores)}</p><div class=turns>"
        + "".join(turns)
        + ideal_html
        + "</div>"
        + _grid(comparison, pid, models, names, reviews, expls)
        + _why(comparison, pid, models, names, expls, charts)
        + _sbs(comparison, pid, models, names, links, pair, usage)
        + "</section>"
    )
