"""Team mode: a chat app's pasted answers, queued from the studio, are scored by a worker
process from the run's own options; the unanswered prompt has no cell."""

from __future__ import annotations

import pytest

from engine.store import open_store
from studio.core import runs
from tests.pasted.data import CAPITALS_APP
from tests.queue.conftest import wait_for, worker_env

pytestmark = pytest.mark.slow


def test_a_queued_pasted_run_is_scored_by_a_worker(
    queue_db, fake_llm, start_worker, tmp_path, monkeypatch
):
    monkeypatch.setenv("BLUEPRINT_DATABASE_URL", queue_db)  # the studio in team mode
    store = open_store(queue_db)
    prepared = runs.paste(
        store,
        CAPITALS_APP,
        "capitals.yml",
        "app:chatgpt-web",
        {"france": ["Paris."], "italy-trip": ["Rome, not Milan."]},
    )
    assert prepared.problems == [] and prepared.run_id is not None
    run_id = prepared.run_id
    assert store.get_run(run_id).status == "planned"  # queued, not run by the studio
    start_worker(worker_env(queue_db, fake_llm, tmp_path / "home"), "--concurrency", "4")
    wait_for(lambda: store.get_run(run_id).status == "completed", 90, "the pasted run")
    cells = {c.prompt_id: (c.status, c.score) for c in store.cells(run_id)}
    assert cells == {"france": ("scored", 1.0), "italy-trip": ("scored", 0.5)}
    assert fake_llm.calls == []  # nothing generated, nothing judged (functions only)
