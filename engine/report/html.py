"""A run's report as ONE self-contained HTML file: no JavaScript, no external requests.

The file holds the leaderboard, a prompt × model table of scores, and for every prompt its
conversation, each model's answer, every point with the judges' reasons, and the arithmetic
of each score (`engine.scoring.explain`), with reviewers' verdicts under their points. It uses only HTML and inline CSS (`<details>` for
folding), and a Content-Security-Policy that forbids scripts and any network request. Every
string from a blueprint, a model or a judge is escaped with `html.escape`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from engine.jsvalues import format_score
from engine.modelids import display_names, judge_name
from engine.report.comparison import IDEAL_MODEL_ID, Comparison
from engine.report.costs import PRICE_HOWTO, UNKNOWN
from engine.report.executive import executive_html, read_executive
from engine.report.html_similarity import similarity_html
from engine.report.numbering import point_kinds, point_numbers
from engine.report.output import printable
from engine.report.ranking import coverage_note, ranked, shared_ranks
from engine.report.reviews import PointReviews, judged_points, match_reviews
from engine.report.runcost import money_text
from engine.scoring.aggregation import GroupExplanation, PointLine
from engine.scoring.cells import CellScore
from engine.similarity.hybrid import WEVAL_SCORE_NOTE
from engine.stats import Uncertainty, neighbour_pairs, pair_words, power_line
from engine.store.reviews import ReviewRow

__all__ = ["CSP", "render_html"]

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
"""The report's Content-Security-Policy: inline styles only; no scripts, fonts or requests."""

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1f2328;line-height:1.45}
h1{font-size:1.7rem;margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
.muted{color:#59636e;font-size:.9rem}table{border-collapse:collapse;margin:.6rem 0;font-size:.92rem}
th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bar{position:relative;background:#eaeef2;width:12rem;height:.8rem;border-radius:.2rem;display:inline-block;vertical-align:middle}
.bar span{display:block;height:100%;background:#3182bd;border-radius:.2rem}
.bar i{position:absolute;top:.3rem;height:.2rem;background:#111}
pre{white-space:pre-wrap;word-wrap:break-word;background:#f6f8fa;padding:.6rem;border-radius:.3rem;font-size:.88rem;margin:.3rem 0}
details{margin:.4rem 0;border:1px solid #d0d7de;border-radius:.4rem;padding:.3rem .7rem}
details>summary{cursor:pointer;font-weight:600}details details{background:#fcfcfd}
.win{color:#1a7f37;font-weight:600}.left{color:#8c959f}.err{color:#cf222e}
.review{color:#8250df}.formula{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88rem}
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _num(value: float | None, digits: int = 2) -> str:
    return format_score(value, digits, "–")


def _color(score: float | None) -> str:
    if score is None:
        return "#f6f8fa"
    clamped = min(max(score, 0.0), 1.0)
    return f"hsl({clamped * 120:.0f},65%,78%)"


def _path_names(path_ids: Iterable[str | None]) -> dict[str, str]:
    """Paths named "Path 1", "Path 2"… in the order they are written (by their index)."""

    def key(path_id: str) -> tuple[int, str]:
        index = path_id.removeprefix("path_")
        return (int(index), "") if index.isdigit() else (1 << 30, path_id)

    ordered = sorted({p for p in path_ids if p}, key=key)
    return {p: f"Path {i}" for i, p in enumerate(ordered, 1)}


def _group_name(path_id: str | None, inverted: bool, names: Mapping[str, str]) -> str:
    label = names.get(path_id, path_id) if path_id else "Required"
    return label + (" (should not)" if inverted else "")


def _prompt_order(comparison: Comparison) -> list[str]:
    config = comparison.config if isinstance(comparison.config, dict) else {}
    ordered = [
        str(p.get("id"))
        for p in config.get("prompts") or []
        if isinstance(p, dict) and p.get("id") is not None
    ]
    known = [str(p) for p in comparison.prompt_ids]
    out = [p for p in dict.fromkeys(ordered) if p in set(known)]
    return out + [p for p in known if p not in set(out)]


def _messages(raw: Any) -> list[tuple[str, str | None]]:
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


def _leaderboard(comparison: Comparison, models: list[str], names: dict[str, str]) -> str:
    summaries = comparison.summaries()
    uncertainty = comparison.uncertainty()
    weval = comparison.weval_scores()
    cost = comparison.cost

    def average(m: str) -> float | None:
        return s.average if (s := summaries.get(m)) else None

    def scored(m: str) -> int:
        return s.scored_prompts if (s := summaries.get(m)) else 0

    order = ranked(models, average, scored, names.__getitem__)
    ranks = shared_ranks(order, uncertainty, average, scored)
    rows = []
    for rank, model in zip(ranks, order, strict=True):
        s = summaries.get(model)
        mean = average(model)
        weval_cell = f"<td class=num>{_num(weval.get(model, mean))}</td>" if weval else ""
        total = s.scored_prompts + s.failed_prompts + s.unscored_prompts if s else 0
        note = coverage_note(s.scored_prompts, total) if s else None
        mark = f" <span class=err>({_e(note)})</span>" if note else ""
        width = f"{min(max(mean or 0.0, 0.0), 1.0) * 100:.1f}%"
        est = u.estimate if (u := uncertainty.models.get(model)) else None
        whisker = interval = ""
        if est is not None and est.low is not None and est.high is not None:
            low, high = max(est.low, 0.0), min(est.high, 1.0)
            whisker = f'<i style="left:{low * 100:.1f}%;width:{(high - low) * 100:.1f}%"></i>'
            interval = f"{_num(low)}–{_num(high)}"
        rows.append(
            "<tr>"
            f"<td class=num>{rank}</td><td>{_e(names[model])}{mark}</td>"
            f"<td class=num>{_num(mean)}</td>"
            f'<td><span class=bar><span style="width:{width}"></span>{whisker}</span></td>'
            f"{weval_cell}"
            f"<td class=num>{interval or '—'}</td>"
            f"<td class=num>{_num(s.stddev if s else None)}</td>"
            f"<td class=num>{_num(s.minimum if s else None)}–{_num(s.maximum if s else None)}</td>"
            f"<td class=num>{s.scored_prompts if s else 0}</td>"
            f"<td class=num>{s.failed_prompts if s else 0}</td>"
            + (f"<td class=num>{_e(cost.model_text(model))}</td>" if cost else "")
            + "</tr>"
        )
    return (
        "<h2>Leaderboard</h2><p class=muted>Each model's average score over the prompts "
        "(1 = every point met), its 95% interval (the black line on the bar: where the "
        "average would likely fall with other prompts like these), its spread (standard "
        "deviation) and range. “2=” means too close to call with the model above. A model "
        "with no score on some prompts is marked and ranked after the others: its average "
        "covers fewer prompts."
        + (" A model's cost is its answers plus the judging of them." if cost else "")
        + "</p>"
        + (f"<p class=muted>{_e(WEVAL_SCORE_NOTE)}</p>" if weval else "")
        + "<table><tr><th>#</th><th>Model</th><th>Average</th><th></th>"
        + ("<th>Weval's score</th>" if weval else "")
        + "<th>95% interval</th><th>Spread (±)</th><th>Range</th><th>Scored</th>"
        "<th>Failed</th>"
        + ("<th>Cost</th>" if cost else "")
        + "</tr>"
        + "".join(rows)
        + "</table>"
        + _how_sure(uncertainty, [m for m in order if average(m) is not None], names)
    )


def _how_sure(uncertainty: Uncertainty, order: list[str], names: dict[str, str]) -> str:
    """Each pair of neighbours in words, and how many prompts would tell 0.05 apart."""
    pairs = neighbour_pairs(uncertainty, order)
    if not pairs:
        return ""
    lines = [pair_words(names.get(p.a, p.a), names.get(p.b, p.b), p.estimate) for p in pairs]
    power = power_line(uncertainty, order)
    if power:
        lines.append(power)
    return (
        "<h3>How sure is this ranking?</h3><p class=muted>Neighbours on the leaderboard "
        "compared on the prompts both answered (paired), at 95% each.</p><ul>"
        + "".join(f"<li>{_e(line)}</li>" for line in lines)
        + "</ul>"
    )


def _score_table(
    comparison: Comparison, prompts: list[str], models: list[str], names: dict[str, str]
) -> str:
    head = "".join(f"<th>{_e(names[m])}</th>" for m in models)
    rows = []
    for pid in prompts:
        cells = []
        for model in models:
            cell = comparison.cell(pid, model)
            if cell is None:
                cells.append("<td class=num>–</td>")
            elif cell.failed:
                cells.append('<td class="num err">failed</td>')
            else:
                cells.append(
                    f'<td class=num style="background:{_color(cell.score)}">{_num(cell.score)}</td>'
                )
        rows.append(f'<tr><td><a href="#p-{_e(pid)}">{_e(pid)}</a></td>{"".join(cells)}</tr>')
    return (
        "<h2>Scores by prompt</h2><p class=muted>One row per prompt, one column per model.</p>"
        f"<table><tr><th>Prompt</th>{head}</tr>" + "".join(rows) + "</table>"
    )


def _point_row(line: PointLine, number: int, group: str, extra: str = "") -> str:
    score = (
        f"<td class=num>{_num(line.score)}</td>"
        if line.score is not None
        else f"<td class=left>left out: {_e(line.reason or line.status)}</td>"
    )
    return f"<tr><td class=num>{number}</td><td>{_e(line.text)}</td><td>{_e(group)}</td><td class=num>{line.weight:g}</td>{score}{extra}</tr>"


def _mean(points: Sequence[PointLine], result: float | None) -> str:
    counted = [p for p in points if p.score is not None]
    if not counted or result is None:
        return "nothing scored"
    terms = " + ".join(
        f"{format_score(p.score)}×{p.weight:g}" for p in counted if p.score is not None
    )
    return f"({terms}) ÷ {sum(p.weight for p in counted):g} = {format_score(result)}"


def _group_lines(group: GroupExplanation) -> list[str]:
    if group.kind == "required":
        return [f"Required points: {_e(_mean(group.points, group.score))}"]
    names = _path_names(path.path_id for path in group.paths)
    lines = []
    for path in group.paths:
        won = path.path_id == group.winner
        label = names[path.path_id]
        text = f"{label}: {_e(_mean(path.points, path.score))}"
        lines.append(f"<span class=win>{text} ← best path, counts</span>" if won else text)
    return lines


def _review_lines(reviews: Sequence[ReviewRow]) -> str:
    """A point's verdicts as escaped lines for the Why column."""
    lines = []
    for r in reviews:
        said = "agrees with the judge" if r.verdict == "agree" else "scores it"
        comment = f": {_e(r.comment)}" if r.comment else ""
        lines.append(
            f"<br><span class=review>Reviewer {_e(r.author)} {said} "
            f"({_e(format_score(r.score))}){comment}</span>"
        )
    return "".join(lines)


def _cell_section(
    comparison: Comparison,
    pid: str,
    model: str,
    name: str,
    usage: Mapping[str, Any] | None,
    reviews: PointReviews,
) -> str:
    cell: CellScore | None = comparison.cell(pid, model)
    response = comparison.responses.get(pid, {}).get(model)
    spent = ""
    if usage:
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
        spent = f"<p class=muted>{_e(' · '.join(bits))}</p>" if bits else ""
    if cell is None:
        return f"<details><summary>{_e(name)}: no result</summary>{spent}</details>"
    if cell.failed:
        return (
            f"<details><summary>{_e(name)}: <span class=err>failed</span></summary>"
            f"<p class=err>{_e(cell.error)}</p>{spent}</details>"
        )
    expl = cell.explain()
    names = _path_names(a.path_id for a in cell.assessments)
    numbers = point_numbers(cell.assessments, point_kinds(comparison.config, pid))
    rows: list[str] = []
    for index, a in enumerate(cell.assessments):
        line = next(
            (
                p
                for g in expl.groups
                for p in [*g.points, *(q for path in g.paths for q in path.points)]
                if p.index == index
            ),
            next((p for p in expl.left_out if p.index == index), None),
        )
        judgements = a.individual_judgements or []
        reasons = (
            "<br>".join(
                f"{_e(judge_name(j.judge_model_id))} ({format_score(j.coverage_extent)}): "
                f"{_e(j.reflection)}"
                for j in judgements
            )
            if judgements
            else _e(a.reflection or "")
        )
        error = f"<br><span class=err>{_e(a.error)}</span>" if a.error else ""
        reviewed = _review_lines(reviews.get((pid, model, index), []))
        why = f"<td>{reasons}{error}{reviewed}</td>"
        if line is not None:
            group = _group_name(a.path_id, a.is_inverted, names)
            rows.append(_point_row(line, numbers[index], group, why))
    steps = [line for g in expl.groups for line in _group_lines(g)]
    steps.append(f"Final score: {_e(expl.formula)}")
    answer = (
        f"<pre>{_e(response)}</pre>"
        if response is not None
        else "<p class=muted>No answer recorded.</p>"
    )
    return (
        f"<details><summary>{_e(name)}: {_num(cell.score)}</summary>{spent}"
        f"<p><strong>Answer</strong></p>{answer}"
        "<table><tr><th>#</th><th>Point</th><th>Group</th><th>Weight</th><th>Score</th><th>Why</th></tr>"
        + "".join(rows)
        + "</table><p class=formula>"
        + "<br>".join(steps)
        + "</p></details>"
    )


def _prompt_section(
    comparison: Comparison,
    pid: str,
    models: list[str],
    names: dict[str, str],
    usage: Mapping[tuple[str, str], Mapping[str, Any]],
    reviews: PointReviews,
) -> str:
    turns = []
    for role, content in _messages(comparison.prompt_contexts.get(pid)):
        who = {"user": "User", "assistant": "Assistant", "system": "System prompt"}.get(role, role)
        body = (
            "<p class=muted>(the model writes this turn)</p>"
            if content is None
            else f"<pre>{_e(content)}</pre>"
        )
        turns.append(f"<p><strong>{_e(who)}</strong></p>{body}")
    ideal = comparison.responses.get(pid, {}).get(IDEAL_MODEL_ID)
    ideal_html = f"<p><strong>Ideal answer</strong></p><pre>{_e(ideal)}</pre>" if ideal else ""
    scores = ", ".join(
        f"{names[m]} {_num(c.score)}" for m in models if (c := comparison.cell(pid, m)) is not None
    )
    cells = "".join(
        _cell_section(comparison, pid, m, names[m], usage.get((pid, m)), reviews) for m in models
    )
    return (
        f'<details id="p-{_e(pid)}"><summary>{_e(pid)} <span class=muted>{_e(scores)}</span></summary>'
        + "".join(turns)
        + ideal_html
        + cells
        + "</details>"
    )


def render_html(
    comparison: Comparison,
    *,
    usage: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
    link: str | None = None,
    generated_at: datetime | None = None,
    unpriced: Collection[str] = (),
    reviews: Iterable[ReviewRow] = (),
    banner: str = "",
    csp: str = CSP,
) -> str:
    """Return the report of a comparison as one self-contained HTML document.

    Args:
        comparison: The scored run (from a store's cells or a comparison JSON file).
        usage: Per (prompt id, model id): `latency_ms`, `input_tokens`, `output_tokens`,
            `cost_usd`, when recorded.
        link: The studio link of the run, shown as text (never fetched).
        generated_at: When the report was made (default: now, UTC).
        unpriced: Models with no known price: their cost shows as "cost unknown", never $0.
        reviews: Reviewers' verdicts; those on this comparison's answers show (escaped) under
            the judges' reasons of their point.
        banner: Markup put first in the body, built (and escaped) by the caller: the studio's
            share page puts its header and download buttons there. Empty in a report file.
        csp: The document's Content-Security-Policy (the share page allows its own forms).
    """
    matched = match_reviews(judged_points(comparison), reviews)
    unknown = set(unpriced)
    usage = {
        key: {**u, "cost_unknown": True} if key[1] in unknown else u
        for key, u in (usage or {}).items()
    }
    models = [m for m in comparison.models if m != IDEAL_MODEL_ID]
    models += sorted(
        {m for row in comparison.cells.values() for m in row} - set(models) - {IDEAL_MODEL_ID}
    )
    names = display_names(models)
    prompts = _prompt_order(comparison)
    moment = (generated_at or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    description = f"<pre>{_e(comparison.description)}</pre>" if comparison.description else ""
    link_html = f"<p class=muted>Studio link: <code>{_e(link)}</code></p>" if link else ""
    facts = (
        f"{len(prompts)} prompts · {len(models)} models · run {comparison.run_label or '–'} of "
        f"{comparison.timestamp or '–'}"
    )
    cost = comparison.cost  # the figures every page shows (`blueprintStudio.cost`)
    if cost is not None:
        facts += f" · {cost.breakdown()}"
        if cost.unpriced:
            facts += f". No price is known for {', '.join(cost.unpriced)}: {PRICE_HOWTO}."
    elif usage and unknown & set(models):
        facts += f". No price is known for some models: {PRICE_HOWTO}."
    executive = read_executive(comparison.extra.get("executiveSummary"))
    body = (
        f"<h1>{_e(comparison.config_title)}</h1><p class=muted>{_e(facts)}</p>{link_html}{description}"
        + (executive_html(executive) if executive else "")
        + _leaderboard(comparison, models, names)
        + _score_table(comparison, prompts, models, names)
        + similarity_html(comparison, models, prompts, names, _color)
        + "<h2>Every prompt in detail</h2><p class=muted>Open a prompt to see each model's "
        "answer, every point with the judges' reasons, and how the score is computed.</p>"
        + "".join(
            _prompt_section(comparison, pid, models, names, usage, matched) for pid in prompts
        )
        + f"<p class=muted>Made by Blueprint Studio on {_e(moment)}. This file needs no "
        "network and runs no scripts.</p>"
    )
    return printable(
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(comparison.config_title)}: results</title><style>{_CSS}</style></head>"
        f"<body>{banner}{body}</body></html>"
    )
