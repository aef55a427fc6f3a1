"""Blueprint Studio in the browser: the entry point that owns navigation and access.

Start it with `blueprint studio` (or `streamlit run studio/app.py`). The pages live in
`studio/app_pages/`; the list is `studio.navigation.PAGES`. Only the pages this session's
viewer may open are given to `st.navigation` (`studio.access`): a page left out never runs,
whatever URL is typed. A team-mode visitor who is not logged in gets the login page and the
page of share links, and no menu.
"""

from __future__ import annotations

import logging
from pathlib import Path

import streamlit as st

from engine.blueprint.title import title_of
from engine.errors import StoreError
from engine.settings import home_dir
from studio import access, drafts, services, share, state
from studio.navigation import ADMIN, APP, PAGES, SHARED, PageSpec
from studio.textsafe import safe_markdown

st.set_page_config(
    page_title="Blueprint Studio",
    page_icon="📐",
    layout="wide",
    initial_sidebar_state="expanded",
)

# A style-only block: Streamlit puts it in the event container, so it takes no space.
st.html(Path(__file__).resolve().parent / "assets" / "studio.css")

viewer = access.current_viewer()
allowed = access.allowed_pages(viewer)


def _page(spec: PageSpec, *, listed: bool = True, default: bool = False) -> st.Page:
    """The Streamlit page of a `PageSpec` (unlisted: not in the menu, its URL still works)."""
    return st.Page(
        str(APP.parent / spec.path),
        title=spec.title,
        icon=spec.icon,
        url_path=spec.url_path,
        default=default,
        visibility="visible" if listed else "hidden",
    )


# A visitor who is not logged in gets only the login and share pages: the others never run.
# A member's role decides which pages are listed; the others stay registered (so links to
# them work) but hidden, and each page's guard stops at once for a role that may not open it.
_pages = [
    _page(spec, listed=spec.url_path in allowed, default=spec.default and spec.url_path in allowed)
    for spec in PAGES
    if viewer.logged_in
]
if viewer.logged_in and not any(spec.default and spec.url_path in allowed for spec in PAGES):
    _pages.insert(0, st.Page(access.home_page, title="Home", url_path="home", default=True))
if access.LOGIN_PATH in allowed:
    _pages.insert(
        0, st.Page(access.login_page, title="Log in", url_path=access.LOGIN_PATH, default=True)
    )
if ADMIN.url_path in allowed:
    _pages.append(_page(ADMIN))
_pages.append(_page(SHARED, listed=False))
current = st.navigation(_pages, position="sidebar" if viewer.logged_in else "hidden")


def _restore_draft() -> None:
    """After a refresh the session is new: bring back the draft named in the URL."""
    if state.get_text() is not None:
        return
    wanted = st.query_params.get("draft")
    if not share.is_draft_id(wanted):
        return
    store = services.store()
    # a draft belongs to its author: in team mode another member's draft id opens nothing
    owned = drafts.may_open(store, str(wanted), access.draft_owner(viewer))
    text = store.draft(str(wanted)) if owned else None
    if text is not None:
        st.session_state[state.DRAFT_ID] = wanted
        state.set_text(text)


if not viewer.logged_in:
    current.run()
    st.stop()

try:
    _restore_draft()
    current.run()
except StoreError as exc:  # the database is away (a restart): say so plainly, log the details
    logging.getLogger("studio").warning("a page could not read the store: %s", exc)
    st.error(
        "The studio cannot reach its database right now. Your work is kept there; "
        "try again in a moment (reload the page)."
    )
    st.stop()

# Drawn after the page, so it shows what the page just changed (an edited title, a new run).
with st.sidebar:
    st.caption(
        "Write a rubric for LLM answers, try it on an answer, run it against several models, "
        "compare the results and share a link."
    )
    text = state.get_text()
    if text is not None:
        parsed = services.parse(text, state.source())
        title = getattr(parsed, "title", None) or title_of(text) or "Untitled blueprint"
        st.markdown(f"**Open blueprint:** {safe_markdown(title)}")
    run_id = state.run_id()
    if run_id is not None and share.is_run_id(run_id):
        st.page_link(
            "app_pages/results.py",
            label="Results of the last run",
            icon=":material/leaderboard:",
            query_params={"run": run_id},
        )
    if viewer.team:
        st.caption(f"Logged in as {safe_markdown(viewer.email or '')} ({viewer.role})")
        st.button("Log out", on_click=st.logout, key="access-logout")
    else:
        st.caption(f"Your work is saved in {home_dir()}")
