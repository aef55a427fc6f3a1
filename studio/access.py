"""Who is looking and what they may open: personal owner, team member, or a share-link visitor.

Access is decided on the server, before `st.navigation`: a page left out of the navigation
never runs, whatever URL is typed; `guard` checks the viewer's role again at the top of every
page. Team members are recorded on first login (`BLUEPRINT_ADMINS` are admins from the start,
everyone else a viewer until an admin changes it); `BLUEPRINT_ALLOWED_DOMAINS` limits who may
log in. The decisions are plain functions (`allowed_pages`, `link_verdict`) tested without a
browser.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from engine.errors import ConfigError
from engine.settings import load_settings
from engine.store import Role, ShareLink
from engine.store.users import allowed_domains, email_allowed, first_admins, first_role
from studio import services, share
from studio.drafts import Owner

__all__ = [
    "ADMIN_PATH",
    "LOGIN_PATH",
    "ROLE_PAGES",
    "SHARE_PATH",
    "Verdict",
    "Viewer",
    "allowed_pages",
    "base_url",
    "current_viewer",
    "guard",
    "home_page",
    "link_verdict",
    "login_page",
    "may_publish",
    "team_mode",
]

SHARE_PATH = "share"
"""The url_path of the page that opens a share link (`/share?token=TOKEN`)."""

LOGIN_PATH = "login"
"""The url_path of the team-mode login page (the default page of visitors)."""

ADMIN_PATH = "admin"
"""The url_path of the admin page (team mode: members and their roles)."""

WORK_PAGES = ("editor", "run", "results", "history", "compare", "settings")
"""The studio's own pages (see `studio.navigation.PAGES`)."""

ROLE_PAGES: dict[Role, tuple[str, ...]] = {
    "viewer": ("results", "history", "compare"),
    "editor": ("editor", "run", "results", "history", "compare"),
    "admin": (*WORK_PAGES, ADMIN_PATH),
}
"""What each team role may open (besides share links): editors write and run, viewers read."""

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
        role: The member's role (team mode, logged in).
        denied: True when the identity provider logged in an e-mail this studio refuses.
    """

    team: bool
    logged_in: bool
    email: str | None = None
    role: Role | None = None
    denied: bool = False


def allowed_pages(viewer: Viewer) -> tuple[str, ...]:
    """The url_paths this viewer may open.

    Personal mode: every page. Team mode: the pages of the member's role; not logged in (or
    refused): the login page and share links only.
    """
    if not viewer.team:
        return (*WORK_PAGES, SHARE_PATH)
    if not viewer.logged_in or viewer.role is None:
        return (LOGIN_PATH, SHARE_PATH)
    return (*ROLE_PAGES[viewer.role], SHARE_PATH)


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


def may_publish(viewer: Viewer) -> bool:
    """Whether this viewer may publish a blueprint as a proposal (personal owner, editors)."""
    if not viewer.team:
        return True
    return viewer.logged_in and viewer.role in ("editor", "admin")


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
    raw = user.get("email")
    email = raw.strip().lower() if isinstance(raw, str) else ""
    try:
        settings = load_settings()
    except ConfigError as exc:  # fail closed: who may log in is not known
        st.error(f"The studio's settings cannot be read, so nobody can log in: {exc}")
        st.stop()
    admins = first_admins(os.environ, settings.team_admins)
    domains = allowed_domains(os.environ, settings.team_domains)
    if not email or not email_allowed(email, domains, admins):
        return Viewer(team=True, logged_in=False, email=email or None, denied=True)
    member = services.store().user(email)
    if member is None or st.session_state.get(_RECORDED) != email:
        name = user.get("name")
        member = services.store().record_login(
            email, name if isinstance(name, str) else None, first_role(email, admins)
        )
        st.session_state[_RECORDED] = email
    return Viewer(team=True, logged_in=True, email=email, role=member.role)


_RECORDED = "access_login_recorded"


def draft_owner(viewer: Viewer) -> Owner:
    """Whose drafts this viewer lists and opens (team mode: their own; admins also older ones)."""
    return Owner(team=viewer.team, email=viewer.email, admin=viewer.role == "admin")


def guard(url_path: str) -> Viewer:
    """Stop the page unless this session's viewer may open it; return the viewer."""
    viewer = current_viewer()
    if url_path not in allowed_pages(viewer):
        if viewer.logged_in:
            st.error(
                f"Your role ({viewer.role}) cannot open this page. Ask an admin of this "
                "studio for another role."
            )
        else:
            st.error("This page needs you to log in. Open the studio's address and log in.")
        st.stop()
    return viewer


def home_page() -> None:
    """The start page of a member who may not open the Editor: their runs (History)."""
    st.switch_page("app_pages/history.py")


def login_page() -> None:
    """Team mode, not logged in: say what the studio is and offer to log in."""
    viewer = guard(LOGIN_PATH)
    st.title("Blueprint Studio")
    if viewer.denied:
        st.error(
            "The account you logged in with may not use this studio. Log out, then log in "
            "with your work account, or ask an admin to allow your e-mail domain."
        )
        st.button("Log out", on_click=st.logout)
        return
    st.write(
        "Log in to write blueprints, run them and see your team's results. "
        "A share link you were given opens without logging in."
    )
    if st.button("Log in", type="primary"):
        st.login()
