"""Fixtures of the deploy tests: the module-scoped Chromium and worker processes."""

from __future__ import annotations

from tests.queue.conftest import start_worker  # noqa: F401  (workers as real processes)
from tests.studio.browser import browser  # noqa: F401  (the module-scoped Chromium)
