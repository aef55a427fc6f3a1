"""A page that fails shows a plain message with an error id; the server log holds the details.

Streamlit's own error box would show the exception and its traceback (file paths of the
server) to whoever is looking; `client.showErrorDetails = "none"` hides them where this
module does not reach (a widget's callback). `run_page` runs a page, and when it raises,
logs the traceback under a short random id and shows only that id.
"""

from __future__ import annotations

import logging
import secrets
import sys
from collections.abc import Callable

import streamlit as st

from engine.errors import StoreError

__all__ = ["LOGGER", "RAISE_KEY", "STORE_AWAY", "error_id", "run_page", "show_failure"]

STORE_AWAY = (
    "The studio cannot reach its database right now. Your work is kept there; "
    "try again in a moment (reload the page)."
)
"""What a page says when the store cannot be used (a database restart or failover)."""

LOGGER = logging.getLogger("blueprint.studio")
"""The studio's logger (to the server's stderr): a page's failure is logged with its error id."""

if not LOGGER.handlers:
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    LOGGER.addHandler(_handler)
    LOGGER.setLevel(logging.INFO)
    LOGGER.propagate = False


RAISE_KEY = "page_errors_raise"
"""A session-state key no widget has: set True by code (the AppTest-based tests), a failing
page raises after its message, so the test sees the exception. A browser cannot set it."""


def error_id() -> str:
    """A new error id: 8 letters and digits, easy to read out and to search the log for."""
    return secrets.token_hex(4)


def show_failure(exc: Exception, where: str) -> str:
    """Log `exc` with its traceback under a new error id, show a plain message; return the id.

    Raises:
        Exception: `exc` again, after the message, when `RAISE_KEY` is set in the session.
    """
    ident = error_id()
    LOGGER.error("error %s on %s: %s", ident, where, type(exc).__name__, exc_info=exc)
    st.error(
        f"Something went wrong on this page (error id {ident}). Try again; if it keeps "
        "happening, give the error id to whoever runs this studio: the server's log holds "
        "the details under it."
    )
    if st.session_state.get(RAISE_KEY) is True:
        raise exc
    return ident


def run_page(run: Callable[[], None], where: str) -> None:
    """Run a page; when it raises, show the plain message instead of the traceback.

    Streamlit's own controls (`st.stop`, `st.rerun`, `st.switch_page`) are not `Exception`s
    and pass through. A `StoreError` (the database away) is said as such, without an error
    id, and the page stops there. With `RAISE_KEY` set in the session, the exception is
    raised again.
    """
    try:
        run()
    except StoreError as exc:  # the database is away (a restart): say so plainly, log it
        LOGGER.warning("%s could not read the store: %s", where, exc)
        st.error(STORE_AWAY)
        if st.session_state.get(RAISE_KEY) is True:
            raise
        st.stop()
    except Exception as exc:
        show_failure(exc, where)
