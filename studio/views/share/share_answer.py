"""What a plain share page request gets: the run's page, one of its files, or why not.

Called by `studio.views.share.share_route` in a worker thread. The link is checked on every request (a
revoked link stops at once); the run's results come from `studio.services` (cached once the
run is completed, shared with the Streamlit sessions).
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Literal

from starlette.responses import HTMLResponse, Response

from engine.errors import StoreError
from engine.store import ReviewRow
from engine.store.share_links import is_share_token, share_url
from studio import access, services
from studio.access import Verdict, Viewer
from studio.core.resultdata import Results
from studio.core.reviewing import anonymous
from studio.core.run_files import FILES, FileKind, file_name, run_file, slug
from studio.views.share.share_html import MESSAGES, PAGE_CSP, banner, message_page
from studio.views.share.share_view import ShareView, read_view, view_options

__all__ = ["Target", "answer"]

_HEADERS = {
    "Content-Security-Policy": PAGE_CSP,
    "Cache-Control": "no-store",  # a revoked link must stop working at once
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
logger = logging.getLogger(__name__)
_STATUS: dict[Verdict, int] = {"unknown": 404, "revoked": 410, "expired": 410}

Target = Literal["page", "download"]


def _visitor() -> Viewer:
    """Who opens a plain share page: the owner in personal mode, else nobody logged in."""
    team = access.team_mode()
    return Viewer(team=team, logged_in=not team)


def _reviews(prompt_ids: list[str], viewer: Viewer) -> list[ReviewRow]:
    """The verdicts on these prompts (authors hidden from a visitor who is not logged in)."""
    try:
        found = services.store().reviews(prompt_ids)
    except StoreError:
        return []
    return found if viewer.logged_in else anonymous(found)


_PAGES: OrderedDict[tuple[object, ...], tuple[Results, str]] = OrderedDict()
_PAGES_KEPT = 32
_RENDER = threading.Lock()


def _page(
    results: Results,
    reviews: list[ReviewRow],
    shown: str | None,
    top: str,
    view: tuple[ShareView, dict[str, Any]],
    *,
    cache: bool,
) -> str:
    """A share page of these results, drawn once per completed run, page and state of reviews.

    A page holds the details of at most `DETAILS_PER_PAGE` prompts, so it stays small for any
    run; visitors who open the same page at once wait for one render, not one each. The key
    holds the results object (cached per completed run by `studio.services`) and everything
    else the page shows.
    """

    def draw() -> str:
        return run_file(
            results,
            "html",
            reviews,
            link=shown,
            banner=top,
            csp=PAGE_CSP,
            visitor=True,
            view=view[1],
        )

    if not cache:
        return draw()
    key = (id(results), tuple(reviews), shown, top, view[0].key)
    with _RENDER:  # one render at a time: the others wait for it, then read it
        kept = _PAGES.get(key)
        if kept is None or kept[0] is not results:
            page = draw()
            kept = _PAGES[key] = (results, page)  # holding `results` keeps its id unique
            while len(_PAGES) > _PAGES_KEPT:
                _PAGES.popitem(last=False)
        _PAGES.move_to_end(key)
        return kept[1]


UNREACHABLE = (
    "The results cannot be read right now: the database does not answer. Try again in a moment."
)
"""What a share link's visitor reads while the store is away (a restart): the details are logged."""


def answer(target: Target, params: Mapping[str, str], origin: str) -> Response | None:
    """The response to a share page or download request; None to let Streamlit answer.

    A store that cannot be read answers 503 with a plain message (the details are logged).

    Args:
        target: The page itself, or one of its files.
        params: The request's query parameters (`token`; `file` for a download; `page`, or
            `prompt` with `a` and `b`, for a page: `studio.views.share.share_view`).
        origin: The studio's base URL as the request reached it (scheme, host, base path);
            team mode shows its public URL instead.
    """
    try:
        return _answer(target, params, origin)
    except StoreError as exc:
        logger.warning("a share link could not be answered: %s", exc)
        return HTMLResponse(message_page(UNREACHABLE), 503, {**_HEADERS, "Retry-After": "5"})


def _answer(target: Target, params: Mapping[str, str], origin: str) -> Response | None:
    viewer = _visitor()
    base = os.environ.get("BLUEPRINT_STUDIO_URL", "").rstrip("/") if viewer.team else origin
    token = params.get("token")
    link = services.store().share_link(token) if is_share_token(token) else None
    verdict = access.link_verdict(link, viewer)
    if verdict == "login":  # Streamlit's share page offers st.login
        return None
    loaded = services.run_view(link.run_id) if link is not None and verdict == "ok" else None
    if link is None or loaded is None:
        text = MESSAGES["unknown" if verdict == "ok" else verdict]
        return HTMLResponse(message_page(text), _STATUS.get(verdict, 404), _HEADERS)
    run, results = loaded.run, loaded.results
    if results is None:
        return HTMLResponse(message_page("No answer has been scored yet."), 200, _HEADERS)
    reviews = _reviews(results.prompt_ids, viewer)
    shown = share_url(base, link.token) if base else None
    if target == "page":
        top = banner(link.token, run.done_cells, run.total_cells)
        asked = read_view(results, params)
        options = {**view_options(results, link.token, asked), "when": run.created_at}
        completed = run.live_status == "completed"
        page = _page(results, reviews, shown, top, (asked, options), cache=completed)
        return HTMLResponse(page, 200, _HEADERS)
    kind = params.get("file")
    if kind not in FILES:
        return HTMLResponse(message_page("There is no such file."), 404, _HEADERS)
    chosen: FileKind = kind
    name = file_name(slug(results.title, "results"), chosen)
    return Response(
        run_file(results, chosen, reviews, link=shown, visitor=True, view={"when": run.created_at}),
        200,
        {**_HEADERS, "Content-Disposition": f'attachment; filename="{name}"'},
        media_type=FILES[chosen].mime,
    )
