"""A run's report as ONE self-contained HTML file: no JavaScript, no external requests.

The file holds the studio's views (`engine.report.views`): a header with the blueprint, the
date and the cost, the executive summary, the leaderboard with its error bars, the heatmap
(each cell a link to its prompt), the reviewers' verdicts, and for every prompt its points x
models with the judges' reasons, why each score is what it is (per-path chart and arithmetic)
and two answers side by side. It uses only HTML, inline SVG and inline CSS (`<details>` for
folding, radio buttons and `:has()` to pick two answers), and a Content-Security-Policy that
forbids scripts and any network request. Every string from a blueprint, a model or a judge is
escaped with `html.escape`. The studio's share page draws the same views (`studio.share_answer`).
"""

from __future__ import annotations

import html
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from engine.comparison.weval import IDEAL_MODEL_ID, Comparison
from engine.js.values import format_score
from engine.modelids import display_names
from engine.output import printable
from engine.report.costs import PRICE_HOWTO
from engine.report.executive import executive_html, read_executive
from engine.report.html_similarity import similarity_html
from engine.report.ranking import coverage_note, ranked, shared_ranks
from engine.report.reviews import judged_points, match_reviews
from engine.report.views.links import Links, report_links
from engine.report.views.overview import date_words, header, heatmap, prompt_order, verdicts
from engine.report.views.palette import palette_css, score_colour
from engine.report.views.prompt import pair_css, pair_picker, prompt_detail
from engine.similarity.hybrid import WEVAL_SCORE_NOTE
from engine.stats import Uncertainty, neighbour_pairs, pair_words, power_line
from engine.store.reviews import ReviewRow

__all__ = ["CHART_CELLS", "CSP", "default_pair", "render_html"]

CHART_CELLS = 2000
"""The most answers in detail whose per-path charts a page draws (a share page holds fewer)."""

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
.left{color:#59636e}.err{color:#cf222e}
.review{color:#6639ba}.formula{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88rem}
.wide{overflow-x:auto;max-width:100%}table.heat td{text-align:right;font-variant-numeric:tabular-nums;padding:0}
table.heat td a{display:block;padding:.3rem .5rem;color:#111;text-decoration:none}table.heat td a:hover,table.heat td a:focus{outline:2px solid #0969da}.grid td>i{font-style:normal;color:#59636e}
section.prompt{border-top:2px solid #d0d7de;margin-top:1.6rem;padding-top:.2rem}section.prompt:target{background:#f6f8fa}
.grid td>b{font-weight:400;padding:.05rem .35rem;border-radius:.2rem;color:#111;font-variant-numeric:tabular-nums}.why{font-size:.82rem;color:#3d444d;margin-top:.2rem;max-width:28rem;overflow-wrap:anywhere}
.ans,.why{overflow-wrap:anywhere}td{overflow-wrap:break-word}.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}.ans{border:1px solid #d0d7de;border-radius:.4rem;padding:.3rem .7rem;min-width:0}
.sbs>.ans{display:none}.picker{position:sticky;top:0;z-index:1;background:#fff;border-bottom:1px solid #d0d7de;padding:.2rem 0;display:flex;flex-wrap:wrap;gap:0 1rem;align-items:center}.picker p{margin:0;flex-basis:100%}section.prompt,h4[id]{scroll-margin-top:7.5rem}tr.sum th,tr.sum td{background:#f6f8fa}fieldset{border:1px solid #d0d7de;border-radius:.4rem;margin:.3rem 0;padding:.2rem .6rem}fieldset label{margin-right:.9rem;white-space:nowrap}
p.pick a{margin:0 .15rem}td.nw{white-space:nowrap}fieldset input{margin-right:.3rem}svg.chart{display:block;margin:.4rem 0;max-width:100%;height:auto}p.when{font-size:1.05rem;margin:.2rem 0}
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _num(value: float | None, digits: int = 2) -> str:
    return format_score(value, digits, "–")


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


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def default_pair(
    comparison: Comparison, models: list[str], names: dict[str, str]
) -> tuple[str, str]:
    """The two models shown side by side at first: the two best on the leaderboard."""
    summaries = comparison.summaries()
    order = ranked(
        models,
        lambda m: s.average if (s := summaries.get(m)) else None,
        lambda m: s.scored_prompts if (s := summaries.get(m)) else 0,
        names.__getitem__,
    )
    return (order[0], order[1] if len(order) > 1 else order[0])


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
    visitor: bool = False,
    when: datetime | str | None = None,
    links: Links | None = None,
    detailed: Sequence[str] | None = None,
    pairs: Mapping[str, tuple[str, str]] | None = None,
    overview: bool = True,
    footer: str = "",
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
        visitor: The reader did not run it (a share link): no hints meant for the operator.
        when: When the run was made (default: the comparison's timestamp).
        links: Where links to a prompt's detail and to another pair of answers go (default:
            anchors within the file, and radio buttons to pick a pair).
        detailed: The prompts whose detail this page holds (default: every prompt).
        pairs: The two models side by side, per prompt (default: the two best).
        overview: Show the summary, leaderboard and heatmap (False: the prompts alone).
        footer: Markup after the prompts' details, built by the caller (page links).
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
    links = links or report_links()
    prompts = prompt_order(comparison)
    shown = list(prompts if detailed is None else detailed)
    moment = (generated_at or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    description = (
        f"<pre dir=auto>{_e(comparison.description)}</pre>" if comparison.description else ""
    )
    link_html = f"<p class=muted>Studio link: <code>{_e(link)}</code></p>" if link else ""
    facts = (
        f"{_count(len(prompts), 'prompt')} · {_count(len(models), 'model')} · "
        f"run {comparison.run_label or '–'}"
    )
    cost = comparison.cost  # the figures every page shows (`blueprintStudio.cost`)
    priceless = list(cost.unpriced) if cost is not None else sorted(unknown & set(models))
    if cost is not None:
        facts += f" · {cost.breakdown()}"
    if priceless and (cost is not None or usage):
        facts += f". No price is known for {', '.join(priceless)}"
        facts += ", so the cost is unknown." if visitor else f": {PRICE_HOWTO}."
    executive = read_executive(comparison.extra.get("executiveSummary"))
    top = header(
        comparison.config_title,
        date_words(when if when is not None else comparison.timestamp),
        models,
        names,
        facts,
    )
    first = default_pair(comparison, models, names) if models else ("", "")
    chosen = pairs or {}
    charts = len(shown) * len(models) <= CHART_CELLS
    details = "".join(
        prompt_detail(
            comparison,
            pid,
            models,
            names,
            usage,
            matched,
            links,
            chosen.get(pid, first),
            charts=charts,
        )
        for pid in shown
    )
    if links.pair is None and shown and models:
        details = pair_picker(models, names, first) + details
    if not charts:
        details = (
            f"<p class=muted>With more than {CHART_CELLS:,} answers in detail, each answer's "
            "per-path chart is left out to keep the file small: the last rows of each grid "
            "hold the same figures.</p>" + details
        )
    if overview:
        body = (
            top
            + link_html
            + description
            + (executive_html(executive) if executive else "")
            + _leaderboard(comparison, models, names)
            + heatmap(comparison, prompts, models, names, links)
            + verdicts(matched, names, links, comparison)
            + similarity_html(comparison, models, prompts, names, score_colour)
            + "<h2>Every prompt in detail</h2><p class=muted>Each prompt: its points with each "
            "model's score and the judges' reasons, why each score is what it is, and two "
            "answers side by side.</p>"
        )
    else:
        body = top + link_html
    body += (
        details
        + footer
        + f"<p class=muted>Made by Blueprint Studio on {_e(moment)}. This page needs no "
        "network and runs no scripts.</p>"
    )
    return printable(
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(comparison.config_title)}: results</title>"
        f"<style>{_CSS}{palette_css()}{pair_css(len(models))}</style></head>"
        f"<body>{banner}{body}</body></html>"
    )
