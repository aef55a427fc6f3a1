"""A run started from code whose thread already runs an event loop (Playwright, a notebook)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.loop import run_to_end
from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store

BLUEPRINT = """\
title: Inside a loop
---
- id: p1
  prompt: Say hello.
  ideal: Hello there.
  should:
    - $contains: Hello
"""


def test_run_sync_completes_when_the_calling_thread_runs_a_loop(tmp_path: Path) -> None:
    store = open_store()
    prepared = prepare_run(
        store,
        BLUEPRINT,
        source="bp.yml",
        options=RunOptions(out_dir=tmp_path, models=["ideal"], judge=False),
    )
    assert prepared.problems == []

    async def caller() -> object:
        asyncio.get_running_loop()  # the situation asyncio.run refuses
        return run_sync(prepared.run_id, prepared.plan, store, prepared.options)

    outcome = asyncio.run(caller())
    assert outcome.progress.failed_cells == 0  # type: ignore[attr-defined]
    assert store.get_run(prepared.run_id).status == "completed"


def test_run_to_end_returns_results_and_raises_failures_in_and_out_of_a_loop() -> None:
    async def answer() -> int:
        return 42

    async def broken() -> int:
        raise ValueError("bad input at line 3")

    assert run_to_end(answer) == 42

    async def inside() -> None:
        assert run_to_end(answer) == 42
        with pytest.raises(ValueError, match="line 3"):
            run_to_end(broken)

    asyncio.run(inside())
    with pytest.raises(ValueError, match="line 3"):
        run_to_end(broken)
