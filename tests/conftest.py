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
