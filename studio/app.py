"""Blueprint Studio in the browser: the entry point that owns navigation and access.

Start it with `blueprint studio` (or `streamlit run studio/app.py`). Each page lives in
its folder, `studio/views/<page>/` (see `studio`); the list is `studio.navigation.PAGES`.
Only the pages this session's viewer may open are given to `st.navigation` (`studio.access`):
a page left out never runs, whatever URL is typed. A team-mode visitor who is not logged in gets the login page and the
page of share links, and no menu. A page that raises shows a plain message with an error id
(`studio.page_errors`), never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from engine.blueprint.title import title_of
from engine.settings import home_dir
from studio import access, services, state
from studio.core import drafts, share
from studio.core.textsafe import safe_markdown
from studio.navigation import ADMIN, APP, PAGES, SHARED, PageSpec
from studio.page_errors import run_page, show_failure

st.set_page_config(
    page_title="Blueprint Studio",
    page_icon="📐",
    layout="wide",
    initial_sidebar_state="expanded",
)

# A style-only block: Streamlit puts it in the event container, so it takes no space.
st.html(Path(__file__).resolve().parent / "assets" / "studio.css")

try:
    viewer = access.current_viewer()
except Exception as exc:  # the store unreachable: a plain message, the details in the log
    show_failure(exc, "login")
    st.stop()
allowed = access.allowed_pages(viewer)


# Streamlit serves the default page at `/` only: its own url_path gets this suffix, and its
# plain name (`/editor`) goes to `_to_default`. (A comment: a bare string here would be drawn.)
DEFAULT_SUFFIX = "-home"


def _page(spec: PageSpec, *, listed: bool = True, default: bool = False) -> st.Page:
    """The Streamlit page of a `PageSpec` (unlisted: not in the menu, its URL still works)."""
    return st.Page(
        str(APP.parent / spec.path),
        title=spec.title,
        icon=spec.icon,
        # the default page is served at `/`: its own name is kept free for `_to_default`
        url_path=spec.url_path + DEFAULT_SUFFIX if default else spec.url_path,
        default=default,
        visibility="visible" if listed else "hidden",
    )


def _to_default(spec: PageSpec, default: st.Page) -> st.Page:
    """A hidden page at the default page's own address (`/editor?draft=...`) that opens it.

    Streamlit answers the default page's url_path with a "Page not found" dialog (it serves
    that page at `/`); this page takes the address and goes on to `/` with the same query.
    """

    def forward() -> None:
        st.switch_page(default, query_params=st.query_params.to_dict())

    return st.Page(forward, title=spec.title, url_path=spec.url_path, visibility="hidden")


# A visitor who is not logged in gets only the login and share pages: the others never run.
# A member's role decides which pages are listed; the others stay registered (so links to
# them work) but hidden, and each page's guard stops at once for a role that may not open it.
_pages: list[st.Page] = []
for spec in PAGES if viewer.logged_in else ():
    is_default = spec.default and spec.url_path in allowed
    made = _page(spec, listed=spec.url_path in allowed, default=is_default)
    _pages.append(made)
    if is_default:
        _pages.append(_to_default(spec, made))
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


if viewer.team and viewer.logged_in:
    access.warn_no_admin()

if not viewer.logged_in:
    run_page(current.run, access.LOGIN_PATH)
    st.stop()

run_page(_restore_draft, "draft")
run_page(current.run, current.url_path or "home")

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
            "views/results/results.py",
            label="Results of the last run",
            icon=":material/leaderboard:",
            query_params={"run": run_id},
        )
    if viewer.team:
        st.caption(f"Logged in as {safe_markdown(viewer.email or '')} ({viewer.role})")
        st.button("Log out", on_click=access.log_out, key="access-logout")
    else:
        st.caption(f"Your work is saved in {home_dir()}")
