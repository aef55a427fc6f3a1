"""Blueprint Studio in the browser: the entry point that owns navigation.

Start it with `blueprint studio` (or `streamlit run studio/app.py`). The pages live in
`studio/app_pages/`; the list is `studio.navigation.PAGES`.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from engine.blueprint.title import title_of
from engine.settings import home_dir
from studio import services, share, state
from studio.navigation import APP, PAGES
from studio.textsafe import safe_markdown

st.set_page_config(
    page_title="Blueprint Studio",
    page_icon="📐",
    layout="wide",
    initial_sidebar_state="expanded",
)

# A style-only block: Streamlit puts it in the event container, so it takes no space.
st.html(Path(__file__).resolve().parent / "assets" / "studio.css")

_pages = [
    st.Page(
        str(APP.parent / spec.path),
        title=spec.title,
        icon=spec.icon,
        url_path=spec.url_path,
        default=spec.default,
    )
    for spec in PAGES
]
current = st.navigation(_pages)


def _restore_draft() -> None:
    """After a refresh the session is new: bring back the draft named in the URL."""
    if state.get_text() is not None:
        return
    wanted = st.query_params.get("draft")
    if not share.is_draft_id(wanted):
        return
    text = services.store().draft(str(wanted))
    if text is not None:
        st.session_state[state.DRAFT_ID] = wanted
        state.set_text(text)


_restore_draft()

current.run()

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
    st.caption(f"Your work is saved in {home_dir()}")
