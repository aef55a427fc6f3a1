"""Who is looking and what they may open: personal owner, team member, or a share-link visitor.

Access is decided on the server, before `st.navigation`: a page left out of the navigation
never runs, whatever URL is typed; `guard` repeats the check at the top of every page. The
decisions are plain functions (`allowed_pages`, `link_verdict`) tested without a browser.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from engine.store import ShareLink
from studio import share

__all__ = [
    "LOGIN_PATH",
    "SHARE_PATH",
    "Verdict",
    "Viewer",
    "allowed_pages",
    "base_url",
    "current_viewer",
    "guard",
    "link_verdict",
    "login_page",
    "team_mode",
]

SHARE_PATH = "share"
"""The url_path of the page that opens a share link (`/share?token=TOKEN`)."""

LOGIN_PATH = "login"
"""The url_path of the team-mode login page (the default page of visitors)."""

WORK_PAGES = ("editor", "run", "results", "history", "settings")
"""The studio's own pages (see `studio.navigation.PAGES`)."""

Verdict = Literal["ok", "unknown", "revoked", "expired", "login"]
"""What a share link gives its visitor: the run, or why not."""


def team_mode() -> bool:
    """True when `blueprint studio` started team mode (login required)."""
    return os.environ.get("BLUEPRINT_MODE") == "team"


@dataclass(frozen=True)
class Viewer:
    """The person behind this session.

    Attributes:
        team: True in team mode.
        logged_in: True for the personal owner and for a logged-in team member.
        email: The member's e-mail (team mode), if known.
    """

    team: bool
    logged_in: bool
    email: str | None = None


def allowed_pages(viewer: Viewer) -> tuple[str, ...]:
    """The url_paths this viewer may open: everything when logged in, else login and share."""
    if viewer.logged_in:
        return (*WORK_PAGES, SHARE_PATH)
    return (LOGIN_PATH, SHARE_PATH)


def link_verdict(link: ShareLink | None, viewer: Viewer) -> Verdict:
    """Whether this viewer may open the run of a share link, or why not."""
    if link is None:
        return "unknown"
    state = link.state()
    if state != "active":
        return state
    if link.audience == "team" and not viewer.logged_in:
        return "login"
    return "ok"


def base_url() -> str:
    """The URL links start with: the public URL in team mode, else what the browser shows."""
    if team_mode():
        return os.environ.get("BLUEPRINT_STUDIO_URL", "").rstrip("/")
    paths = (*WORK_PAGES, SHARE_PATH, LOGIN_PATH)
    return share.base_url(st.context.url, paths)


def current_viewer() -> Viewer:
    """The viewer of this session (personal mode: always the owner)."""
    if not team_mode():
        return Viewer(team=False, logged_in=True)
    user = st.user
    if not bool(user.get("is_logged_in")):
        return Viewer(team=True, logged_in=False)
    email = user.get("email")
    return Viewer(team=True, logged_in=True, email=email if isinstance(email, str) else None)


def guard(url_path: str) -> Viewer:
    """Stop the page unless this session's viewer may open it; return the viewer."""
    viewer = current_viewer()
    if url_path not in allowed_pages(viewer):
        st.error("This page needs you to log in. Open the studio's address and log in first.")
        st.stop()
    return viewer


def login_page() -> None:
    """Team mode, not logged in: say what the studio is and offer to log in."""
    guard(LOGIN_PATH)
    st.title("Blueprint Studio")
    st.write(
        "Log in to write blueprints, run them and see your team's results. "
        "A share link you were given opens without logging in."
    )
    if st.button("Log in", type="primary"):
        st.login()
