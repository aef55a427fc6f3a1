"""Fixtures of the deploy tests: the module-scoped Chromium, worker processes, an OIDC provider."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.queue.conftest import start_worker  # noqa: F401  (workers as real processes)
from tests.studio.browser import browser, free_port  # noqa: F401  (browser: Chromium)
from tests.studio.oidc import wait_listening


@pytest.fixture(scope="module")
def idp() -> Iterator[int]:
    """The OIDC test provider (oidc-provider-mock) in a process of its own; yields its port.

    A process of its own: its deprecation warnings must not meet pytest's "error" filter.
    """
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "oidc_provider_mock", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_listening(port, proc)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)
