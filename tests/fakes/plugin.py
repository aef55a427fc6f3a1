"""The `fake_llm` pytest fixture: a started `FakeLLM`, reset for every test.

Share it with `pytest_plugins = ["tests.fakes.plugin"]` in the top-level `tests/conftest.py`,
or import it into a folder's conftest (`from tests.fakes.plugin import fake_llm`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.llm_server import FakeLLM

__all__ = ["fake_llm", "fake_llm_server"]


@pytest.fixture(scope="session")
def fake_llm_server() -> Iterator[FakeLLM]:
    """One fake LLM server for the whole session (started once, stopped at the end)."""
    with FakeLLM() as fake:
        yield fake


@pytest.fixture
def fake_llm(fake_llm_server: FakeLLM) -> FakeLLM:
    """The session's fake LLM server, reset: no calls, no faults, no latency."""
    fake_llm_server.reset()
    return fake_llm_server
