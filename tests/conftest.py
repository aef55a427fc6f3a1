"""Shared fixtures: an isolated BLUEPRINT_HOME for every test, and the shared Weval corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["tests.fakes.plugin", "tests.store.pg"]

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def shared_dir() -> Path | None:
    """Return the shared reference folder (`../shared` or $BLUEPRINT_SHARED_DIR), if present."""
    env = os.environ.get("BLUEPRINT_SHARED_DIR")
    candidate = Path(env) if env else REPO.parent / "shared"
    return candidate if (candidate / "corpus" / "weval").is_dir() else None


SHARED = shared_dir()
CORPUS = SHARED / "corpus" / "weval" if SHARED else None
NO_CORPUS_REASON = (
    "the shared Weval corpus is not here: put it at ../shared (beside the repository) "
    "or set BLUEPRINT_SHARED_DIR"
)


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point BLUEPRINT_HOME at a fresh folder and drop provider keys, so tests are hermetic."""
    home = tmp_path_factory.mktemp("blueprint-home")
    monkeypatch.setenv("BLUEPRINT_HOME", str(home))
    for name in list(os.environ):
        if (
            name.endswith("_API_KEY")
            or name.endswith("_BASE_URL")
            or name in ("BLUEPRINT_CALL_ALLOW", "BLUEPRINT_DATABASE_URL")
        ):
            monkeypatch.delenv(name, raising=False)
    return home


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group tests for `pytest -n N --dist loadgroup` (what scripts/test runs).

    The browser tests (a studio server and a Chromium each) run one after another on one
    worker, so no two browsers compete for the two cores while a page is being drawn; every
    other file is a group of its own, so its module-scoped fixtures are made once.
    """
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        browser = item.get_closest_marker("browser") is not None
        item.add_marker(
            pytest.mark.xdist_group("browser" if browser else item.nodeid.split("::")[0])
        )
