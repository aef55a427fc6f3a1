"""The plain share page's markup: the words of each link state, the header and download buttons.

A share link's page is plain HTML with no script (`studio.views.share.share_route` serves it): the run's
report (`engine.report.render_html`) with this header first. Every string from a run is
escaped here with `html.escape`; model output is never markup. No Streamlit import.
"""

from __future__ import annotations

import html

from engine.report.html import CSP
from studio.core.run_files import FILES

__all__ = ["MESSAGES", "PAGE_CSP", "banner", "message_page"]

MESSAGES = {
    "unknown": "This share link does not open anything. Check that you copied all of it, "
    "or ask the person who sent it for a new one.",
    "revoked": "This share link was revoked: its owner turned it off. Ask them for a new one.",
    "expired": "This share link has expired. Ask the person who sent it for a new one.",
    "login": "This share link is for team members only: log in to open it.",
}
"""What a share link's visitor reads when it opens no run (the Streamlit page says the same)."""

PAGE_CSP = CSP.replace("form-action 'none'", "form-action 'self'") + "; frame-ancestors 'none'"
"""The report's policy (no script, no request), but its download form may be sent here."""

DOWNLOAD_PATH = "share/download"
"""Where the download form goes, relative to the page (`/share` → `/share/download`)."""

_STYLE = (
    "<style>.share-top{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;"
    "margin:0 0 1rem}.share-top button{font:inherit;padding:.35rem .8rem;"
    "border:1px solid #d0d7de;border-radius:.4rem;background:#f6f8fa;cursor:pointer}"
    ".share-top button.primary{background:#b42318;border-color:#b42318;color:#fff}"
    ".share-top button:focus-visible{outline:2px solid #0969da;outline-offset:2px}</style>"
)


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def banner(token: str, done: int, total: int) -> str:
    """The share page's top line: what it is, and a form with one button per file.

    Args:
        token: The share link's token (sent back with a download, so it is checked again).
        done: Answers scored so far.
        total: Answers the run plans.
    """
    buttons = "".join(
        f'<button type=submit name=file value="{kind}"'
        + (" class=primary" if kind == "html" else "")
        + f">{_e(spec.label)}</button>"
        for kind, spec in FILES.items()
    )
    return (
        _STYLE + "<p class=muted>Shared results · read-only · "
        f"{done} of {total} answers scored</p>"
        f'<form class=share-top method=get action="{DOWNLOAD_PATH}">'
        f'<input type=hidden name=token value="{_e(token)}">{buttons}</form>'
    )


def message_page(text: str, *, title: str = "Shared results") -> str:
    """A page that only says `text` (a link that opens nothing, or a run with no score yet)."""
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(title)}</title><style>body{{font-family:system-ui,sans-serif;"
        "margin:2rem auto;max-width:48rem;padding:0 1rem;color:#1f2328}"
        "p.msg{padding:.8rem 1rem;border-radius:.4rem;background:#ffebe9;color:#82071e}</style>"
        f"</head><body><h1>{_e(title)}</h1><p class=msg role=alert>{_e(text)}</p></body></html>"
    )
