"""Executive summaries in the store contract (every backend of `BACKENDS`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.store import Store
from tests.store.test_contract import BACKENDS, new_run


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A fresh store of each backend of the contract tests."""
    return BACKENDS[request.param](request, tmp_path)()


def test_a_summary_is_stored_replaced_and_kept_per_run(store):
    run_id, other = new_run(store), new_run(store)
    assert "010_executive_summaries" in store.applied_migrations()
    assert store.executive_summary(run_id) is None
    first = {"modelId": "openai:m", "content": "first", "isStructured": False}
    store.save_executive_summary(run_id, first)
    assert store.executive_summary(run_id) == first
    second = {**first, "content": "Ünïcode second"}
    store.save_executive_summary(run_id, second)
    assert store.executive_summary(run_id) == second
    assert store.executive_summary(other) is None
