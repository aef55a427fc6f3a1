"""A failing page: a plain message with an error id in the page, the traceback in the log."""

from __future__ import annotations

import logging
import re

import pytest
from streamlit.testing.v1 import AppTest


def failing_page() -> None:
    from studio.page_errors import run_page

    def page() -> None:
        raise ValueError("/srv/secret/path.py is broken")

    run_page(page, "results")
    import streamlit as st

    st.write("after the page")


def test_a_failing_page_shows_an_id_and_logs_the_traceback(caplog: pytest.LogCaptureFixture):
    from studio.page_errors import LOGGER

    LOGGER.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.ERROR, logger=LOGGER.name):
            at = AppTest.from_function(failing_page, default_timeout=30).run()
    finally:
        LOGGER.removeHandler(caplog.handler)
    assert not at.exception
    [message] = [e.value for e in at.error]
    found = re.search(r"error id ([0-9a-f]{8})", message)
    assert found is not None and "/srv/secret" not in message and "ValueError" not in message
    assert [m.value for m in at.markdown] == ["after the page"]
    [record] = [r for r in caplog.records if found.group(1) in r.getMessage()]
    assert record.exc_info is not None and "/srv/secret/path.py" in str(record.exc_info[1])
    assert "on results" in record.getMessage()


def test_the_tests_switch_makes_the_failure_an_exception_again():
    from studio.page_errors import RAISE_KEY

    at = AppTest.from_function(failing_page, default_timeout=30)
    at.session_state[RAISE_KEY] = True
    at.run()
    assert len(at.exception) == 1  # (its text redacted by the project's showErrorDetails)
    assert "/srv/secret" not in at.exception[0].value
    assert len(at.error) == 1  # the plain message is drawn first
