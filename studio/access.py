"""Who is looking and what they may open: personal owner, team member, or a share-link visitor.

Access is decided on the server, before `st.navigation`: a page left out of the navigation
never runs, whatever URL is typed; `guard` checks the viewer's role again at the top of every
page. In team mode every run of the script asks `engine.login.admit` (members, roles and
server-side login sessions, so removing a member or logging out takes effect at the next
click); `BLUEPRINT_ALLOWED_DOMAINS` limits who may log in and verified e-mails of
`BLUEPRINT_ADMINS` are admins. The decisions are plain functions (`allowed_pages`,
`link_verdict`, `admit`) tested without a browser.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from engine.errors import ConfigError
from engine.login import FIX_NO_ADMIN, REFUSALS, Refusal, admit, has_admin, session_id
from engine.settings import load_settings
from engine.store import Role, ShareLink
from engine.store.users import allowed_domains, first_admins
from studio import services
from studio.core import share
from studio.core.drafts import Owner

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
    "log_out",
    "login_page",
    "may_publish",
    "team_mode",
    "warn_no_admin",
]

SHARE_PATH = "share"
"""The url_path of the page that opens a share link (`/share?token=TOKEN`)."""

LOGIN_PATH = "login"
"""The url_path of the team-mode login page (the default page of visitors)."""

ADMIN_PATH = "admin"
"""The url_path of the admin page (team mode: members and their roles)."""

WORK_PAGES = ("editor", "run", "results", "history", "compare", "preferences", "settings")
"""The studio's own pages (see `studio.navigation.PAGES`)."""

ROLE_PAGES: dict[Role, tuple[str, ...]] = {
    "viewer": ("results", "history", "compare"),
    "editor": ("editor", "run", "results", "history", "compare", "preferences"),
    "admin": (*WORK_PAGES, ADMIN_PATH),
}
"""What each team role may open (besides share links): editors write, run and compare answers;
viewers read."""

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
        refusal: Why a browser the identity provider logged in is not let in (team mode).
        session: The id of the member's login session (team mode, logged in).
    """

    team: bool
    logged_in: bool
    email: str | None = None
    role: Role | None = None
    refusal: Refusal | None = None
    session: str | None = None


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
    """The viewer of this session (personal mode: always the owner).

    Team mode asks `engine.login.admit` on every run of the script (every click): a member
    removed, disabled or logged out elsewhere is refused at once, and the role is read anew.
    """
    if not team_mode():
        return Viewer(team=False, logged_in=True)
    user = st.user
    if not bool(user.get("is_logged_in")):
        return Viewer(team=True, logged_in=False)
    try:
        settings = load_settings()
    except ConfigError as exc:  # fail closed: who may log in is not known
        st.error(f"The studio's settings cannot be read, so nobody can log in: {exc}")
        st.stop()
    claims = user.to_dict()
    admission = admit(
        services.store(),
        claims,
        admins=first_admins(os.environ, settings.team_admins),
        domains=allowed_domains(os.environ, settings.team_domains),
        idle_hours=settings.session_idle_hours,
    )
    if admission.member is None:
        return Viewer(team=True, logged_in=False, email=admission.email, refusal=admission.refusal)
    return Viewer(
        team=True,
        logged_in=True,
        email=admission.email,
        role=admission.member.role,
        session=admission.session,
    )


def warn_no_admin() -> None:
    """Warn when the team has no admin, with the command that gives it one."""
    if has_admin(services.store().users()):
        return
    st.warning(
        "This team has no admin, so nobody can change roles or remove members. Whoever runs "
        "the studio's server gives it one with the command "
        f"`{FIX_NO_ADMIN}` (with the same BLUEPRINT_DATABASE_URL as the studio), "
        "or by listing the e-mail in BLUEPRINT_ADMINS and logging in again.",
        icon=":material/admin_panel_settings:",
    )


def log_out() -> None:
    """End this login on the server (a copy of its cookie stops working), then log out."""
    if team_mode() and bool(st.user.get("is_logged_in")):
        services.store().end_session(session_id(st.user.to_dict()), "logout")
    st.logout()


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
    st.switch_page("views/history/history.py")


def login_page() -> None:
    """Team mode, not logged in: say what the studio is and offer to log in."""
    viewer = guard(LOGIN_PATH)
    st.title("Blueprint Studio")
    if viewer.refusal in ("denied", "disabled"):
        st.error(REFUSALS[viewer.refusal])
        st.button("Log out", on_click=st.logout)
        return
    if viewer.refusal is not None:
        st.warning(REFUSALS[viewer.refusal])
    st.write(
        "Log in to write blueprints, run them and see your team's results. "
        "A share link you were given opens without logging in."
    )
    if st.button("Log in", type="primary"):
        st.login()
