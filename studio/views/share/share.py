"""Shared results: one run's scores and report download, opened with a share link only.

A browser opening `/share?token=...` gets the plain page of `studio.views.share.share_route`; this page
runs for "team only" links (it asks to log in) and for sessions that switch to it.
"""

from __future__ import annotations

import streamlit as st

from engine.report.views.overview import date_words
from engine.store.share_links import is_share_token, share_url
from studio import access, services
from studio.core.textsafe import safe_markdown
from studio.views.results.results_view import render_results
from studio.views.share.share_html import MESSAGES
from studio.widgets.common import slug


def main() -> None:
    """Render the run of the share link in the URL, read-only, or say why not."""
    viewer = access.guard(access.SHARE_PATH)
    st.title("Shared results")
    token = st.query_params.get("token")
    link = services.store().share_link(token) if is_share_token(token) else None
    verdict = access.link_verdict(link, viewer)
    if link is None or verdict != "ok":
        st.error(MESSAGES[verdict])
        if verdict == "login":
            st.button("Log in", type="primary", on_click=st.login)
        return
    loaded = services.run_view(link.run_id)
    if loaded is None:
        st.error(MESSAGES["unknown"])
        return
    run = loaded.run
    st.subheader(safe_markdown(run.title or "Untitled blueprint"))
    when = date_words(run.created_at) or run.created_at[:16].replace("T", " ") + " UTC"
    st.caption(f"Run of {when} · read-only · {run.done_cells} of {run.total_cells} answers scored")
    if loaded.results is None:
        st.info("No answer has been scored yet.")
        return
    base = access.base_url()
    render_results(
        loaded.results,
        run_id=link.run_id,
        name=slug(loaded.results.title, "results"),
        link=share_url(base, link.token) if base else None,
    )


main()
