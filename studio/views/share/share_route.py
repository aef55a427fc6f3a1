"""`/share?token=...` as a plain page: a share link's run drawn by the server, no script.

A share link's visitor gets the run's report (leaderboard, scores, every answer) as one HTML
page with the download buttons, answered by this ASGI middleware (`studio.serve` puts it
behind the Host check). The browser runs no JavaScript and opens no WebSocket, so ten visitors
at once cost the server ten small renders, not ten Streamlit sessions. Only `/share` and
`/share/download` are answered here; every other request goes on to Streamlit. A "team only"
link goes on to Streamlit's share page too: it asks the visitor to log in (`st.login`).
"""

from __future__ import annotations

from typing import Literal

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from streamlit import config

from engine.store.share_links import SHARE_PATH

__all__ = ["SharePages"]


def _base_path() -> str:
    """Streamlit's `server.baseUrlPath`, as `/path` (empty at the root)."""
    path = str(config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{path}" if path else ""


def _failure(exc: Exception) -> Response:
    """The answer to a share request that failed: an error id, never a traceback."""
    from studio.page_errors import LOGGER, error_id
    from studio.views.share.share_html import PAGE_CSP, message_page

    ident = error_id()
    LOGGER.error("error %s on share: %s", ident, type(exc).__name__, exc_info=exc)
    text = (
        f"Something went wrong (error id {ident}). Try again; if it keeps happening, give the "
        "error id to whoever sent you the link."
    )
    headers = {"Content-Security-Policy": PAGE_CSP, "Cache-Control": "no-store"}
    return HTMLResponse(message_page(text), 500, headers)


class SharePages:
    """ASGI middleware: answers `/share` and `/share/download` itself, passes the rest on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a share link's page or file, or hand the request to the app."""
        target = self._target(scope)
        if target is None:
            await self.app(scope, receive, send)
            return
        # imported on first use: the studio's caches must see Streamlit's runtime, which
        # starts after this module is loaded (`studio.serve`)
        from studio.views.share.share_answer import answer

        request = Request(scope)
        origin = f"{request.url.scheme}://{request.url.netloc}{_base_path()}"
        # the store and the render block: off the event loop that serves every session
        try:
            response = await run_in_threadpool(answer, target, dict(request.query_params), origin)
        except Exception as exc:  # a plain page with an error id; the traceback to the log
            response = _failure(exc)
        if response is None:
            await self.app(scope, receive, send)
            return
        await response(scope, receive, send)

    @staticmethod
    def _target(scope: Scope) -> Literal["page", "download"] | None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            return None
        path = str(scope.get("path", "")).rstrip("/")
        share = f"{_base_path()}/{SHARE_PATH}"
        if path == share:
            return "page"
        if path == f"{share}/download":
            return "download"
        return None
