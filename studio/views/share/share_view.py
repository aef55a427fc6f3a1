"""Which part of a run a share page shows: a page of prompt details, or one prompt and a pair.

A share page holds the overview (header, summary, leaderboard, heatmap) and the details of
`DETAILS_PER_PAGE` prompts; `?page=N` shows the next ones, and `?prompt=ID&a=M1&b=M2` one
prompt with two models' answers side by side. Every link keeps the share token and names
nothing else (ids are checked against the run; anything unknown is dropped). Pure: no
Streamlit import.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from engine.report.html import default_pair
from engine.report.views.links import Links, anchor
from studio.core.resultdata import Results

__all__ = ["DETAILS_PER_PAGE", "ShareView", "read_view", "view_options"]

DETAILS_PER_PAGE = 50
"""Prompt details on one share page (the heatmap links to the others' pages)."""


@dataclass(frozen=True)
class ShareView:
    """What one share page shows.

    Attributes:
        page: The 1-based page of prompt details (ignored when `prompt` is set).
        prompt: The one prompt shown, if any.
        pair: The two models side by side on that prompt.
    """

    page: int = 1
    prompt: str | None = None
    pair: tuple[str, str] | None = None

    @property
    def key(self) -> tuple[object, ...]:
        """What tells two pages apart in a cache."""
        return (self.page, self.prompt, self.pair)


def _pages(results: Results) -> int:
    return max(1, math.ceil(len(results.prompt_ids) / DETAILS_PER_PAGE))


def read_view(results: Results, params: Mapping[str, str]) -> ShareView:
    """The view a share page's query parameters ask for, dropping what the run has not."""
    raw = params.get("page") or "1"
    page = int(raw) if raw.isdigit() and 0 < int(raw) <= _pages(results) else 1
    prompt = params.get("prompt")
    if prompt not in results.prompt_ids:
        return ShareView(page=page)
    first = (
        default_pair(results.comparison, results.models, results.names) if results.models else None
    )
    a, b = params.get("a"), params.get("b")
    if first is not None:
        a = a if a in results.models else first[0]
        b = b if b in results.models else first[1]
    pair = (a, b) if a is not None and b is not None else None
    return ShareView(page=page, prompt=prompt, pair=pair)


def _href(token: str, **more: str) -> str:
    return "?" + urlencode({"token": token, **more})


def view_options(results: Results, token: str, view: ShareView) -> dict[str, Any]:
    """`engine.report.render_html`'s options for this page: its prompts, links and footer."""
    where = {pid: i // DETAILS_PER_PAGE + 1 for i, pid in enumerate(results.prompt_ids)}
    here = None if view.prompt is not None else view.page

    def prompt_link(pid: str) -> str:
        if pid == view.prompt or where.get(pid) == here:
            return "#" + anchor(pid)
        return _href(token, page=str(where.get(pid, 1))) + "#" + anchor(pid)

    def pair_link(pid: str, a: str, b: str) -> str:
        return _href(token, prompt=pid, a=a, b=b) + "#sbs-" + anchor(pid)

    links = Links(prompt=prompt_link, pair=pair_link)
    if view.prompt is not None:
        back = _href(token, page=str(where[view.prompt])) + "#" + anchor(view.prompt)
        return {
            "links": links,
            "detailed": [view.prompt],
            "pairs": {view.prompt: view.pair} if view.pair else None,
            "overview": False,
            "footer": f'<p><a href="{html.escape(back)}">Back to all the results</a></p>',
        }
    pages = _pages(results)
    start = (view.page - 1) * DETAILS_PER_PAGE
    nav = ""
    if pages > 1:
        items = " ".join(
            f"<strong aria-current=page>{n}</strong>"
            if n == view.page
            else f'<a href="{html.escape(_href(token, page=str(n)))}">{n}</a>'
            for n in range(1, pages + 1)
        )
        nav = (
            f"<nav aria-label='Pages of prompt details' class=pages><p>Prompts "
            f"{start + 1}–{min(start + DETAILS_PER_PAGE, len(results.prompt_ids))} of "
            f"{len(results.prompt_ids)} in detail on this page. Pages: {items}</p></nav>"
        )
    return {
        "links": links,
        "detailed": results.prompt_ids[start : start + DETAILS_PER_PAGE],
        "footer": nav,
    }
