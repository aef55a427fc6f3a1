"""The "Share" panel of a run: its plain link, and share links made, listed and revoked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import streamlit as st

from engine.store import Audience, ShareLink
from engine.store.share_links import share_url
from studio import access, services
from studio.core import share

__all__ = ["EXPIRIES", "share_panel"]

EXPIRIES: dict[str, timedelta | None] = {
    "Never": None,
    "1 day": timedelta(days=1),
    "7 days": timedelta(days=7),
    "30 days": timedelta(days=30),
}
AUDIENCES = {"team": "Team members (logged in)", "anyone": "Anyone with the link"}


def _create(run_id: str, email: str | None, team: bool) -> None:
    wanted = st.session_state.get(f"share-who-{run_id}") if team else "anyone"
    audience: Audience = "anyone" if wanted == "anyone" else "team"
    delta = EXPIRIES.get(str(st.session_state.get(f"share-exp-{run_id}")))
    expires = datetime.now(UTC) + delta if delta is not None else None
    services.store().create_share_link(run_id, audience, expires, created_by=email)


def _revoke(token: str) -> None:
    services.store().revoke_share_link(token)


def _link_row(link: ShareLink, base: str) -> None:
    state = link.state()
    cols = st.columns([6, 2, 1], vertical_alignment="center")
    cols[0].code(share_url(base, link.token), language=None)
    until = f", until {link.expires_at[:16].replace('T', ' ')} UTC" if link.expires_at else ""
    cols[1].caption(f"{AUDIENCES[link.audience]}{until} · {state}")
    if state == "active":
        cols[2].button("Revoke", key=f"revoke-{link.token}", on_click=_revoke, args=(link.token,))


def share_panel(run_id: str) -> None:
    """Draw how to share a run: share links in team mode; in personal mode, what works where."""
    viewer = access.current_viewer()
    base = access.base_url()
    st.markdown("**Share these results**")
    if not viewer.team:
        # a code box shows the address as is (never Markdown) with a copy button
        st.code(share.results_link(base, run_id), language=None, wrap_lines=True)
        st.warning(
            "This link works on this computer only: the studio answers nobody else. "
            "To share the results, download the HTML report below (one file that opens "
            "offline), or run the studio in team mode for your team (see docs/deploy.md)."
        )
    with st.expander("Share links (read-only: this run's results and report, nothing else)"):
        if viewer.team and viewer.role not in ("editor", "admin"):
            st.caption("Editors and admins make and revoke share links.")
            return
        cols = st.columns(2)
        if viewer.team:
            cols[0].radio(
                "Who can open it",
                list(AUDIENCES),
                format_func=AUDIENCES.__getitem__,
                key=f"share-who-{run_id}",
            )
        else:
            cols[0].caption("Who can open it: anyone with the link who can reach this studio.")
        cols[1].selectbox("Expires", list(EXPIRIES), key=f"share-exp-{run_id}")
        st.button(
            "Create share link",
            icon=":material/add_link:",
            on_click=_create,
            args=(run_id, viewer.email, viewer.team),
        )
        links = services.store().share_links(run_id)
        if not links:
            st.caption("No share link yet.")
        for link in links:
            _link_row(link, base)
