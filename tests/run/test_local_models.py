"""`ideal` and `replay:` are providers: the pool answers them like any model, with no network."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine.blueprint import parse_blueprint
from engine.errors import EngineError
from engine.providers import ChatRequest, ProviderPool
from engine.run.local_models import local_models

TEXT = "- id: a\n  prompt: hi\n  ideal: Hello there.\n- id: b\n  prompt: bye\n"


def ask(pool: ProviderPool, model: str, prompt_id: str) -> str:
    request = ChatRequest(
        model_id=model, messages=[{"role": "user", "content": "hi"}], prompt_id=prompt_id
    )

    async def go() -> str:
        async with pool:
            return (await pool.chat(request)).text

    return asyncio.run(go())


def test_the_pool_answers_ideal_and_replay_models_it_is_given(tmp_path):
    replay = tmp_path / "r.jsonl"
    rows = [{"prompt_id": "a", "response": "recorded"}, {"prompt_id": "a", "response": "later"}]
    replay.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    models = local_models(parse_blueprint(TEXT))
    pool = ProviderPool(environ={}, local=models)
    assert pool.check("ideal") is None and pool.check(f"replay:{replay}") is None
    assert "does not exist" in (pool.check(f"replay:{tmp_path / 'nope.jsonl'}") or "")
    assert ask(ProviderPool(environ={}, local=models), "ideal", "a") == "Hello there."
    assert ask(ProviderPool(environ={}, local=models), f"replay:{replay}", "a") == "recorded"
    with pytest.raises(EngineError, match="no `ideal` response"):
        ask(ProviderPool(environ={}, local=models), "ideal", "b")
    with pytest.raises(EngineError, match="no response for prompt 'b'"):
        ask(ProviderPool(environ={}, local=models), f"replay:{replay}", "b")


def test_a_run_of_local_models_calls_no_provider_and_counts_no_calls(tmp_path):
    from engine.run import RunOptions
    from engine.run.service import prepare_run, run_sync
    from engine.store import open_store

    replay = tmp_path / "r.jsonl"
    replay.write_text(json.dumps({"prompt_id": "a", "response": "Hello from the file."}) + "\n")
    text = "- id: a\n  prompt: hi\n  ideal: Hello there.\n  should:\n    - $contains: Hello\n"
    store = open_store()
    options = RunOptions(models=["ideal", f"replay:{replay}"], judge=False)
    prepared = prepare_run(store, text, source="bp.yml", options=options)
    assert prepared.problems == [] and prepared.plan.total_calls == 0
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed" and outcome.progress.done_calls == 0
    responses = {c.model_id: c.response for c in store.cells(prepared.run_id)}
    assert responses == {
        "ideal[temp:0]": "Hello there.",
        f"replay:{replay}[temp:0]": "Hello from the file.",
    }
    assert all(not c.failed and c.score == 1.0 for c in store.cells(prepared.run_id))
