"""The start-up warm-up imports modules that exist (a renamed module would be skipped silently)."""

from __future__ import annotations

import importlib

import pytest

from studio import warm


@pytest.mark.parametrize("name", warm.MODULES)
def test_every_module_the_warm_up_names_imports(name: str):
    importlib.import_module(name)


def test_the_warm_up_runs_in_a_daemon_thread():
    thread = warm.warm_in_background(("json",), runs=0)
    thread.join(30)
    assert thread.daemon and not thread.is_alive()
