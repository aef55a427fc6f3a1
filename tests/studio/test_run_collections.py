"""The Run page offers model collections (choosing one adds its models) and custom models."""

from __future__ import annotations

from studio import state
from tests.studio.helpers import app, texts

BLUEPRINT = """title: Picker
models:
  - openai:fake-a
  - id: my-local
    url: http://127.0.0.1:9/v1/chat/completions
    modelName: tiny
    inherit: openai
---
- id: p1
  prompt: Say hello
  should:
    - $icontains: hello
"""


def _run_page(home, settings: str = ""):
    (home / "settings.toml").write_text(settings, encoding="utf-8")
    at = app()
    at.session_state[state.TEXT] = BLUEPRINT
    at.session_state[state.SOURCE] = "picker.yml"
    at.switch_page("views/run/run.py").run()
    assert not at.exception
    return at


def _picker(at):
    return next(s for s in at.selectbox if s.label == "Add a model collection")


def test_choosing_a_collection_adds_its_models(tmp_path, monkeypatch):
    monkeypatch.setenv("BLUEPRINT_HOME", str(tmp_path))
    at = _run_page(tmp_path, '[collections]\nMINE = ["openai:fake-b", "openai:fake-a"]\n')
    models = at.multiselect[0]
    assert models.value == ["openai:fake-a", "my-local"]  # the custom model by its id
    picker = _picker(at)
    assert "MINE (2 models)" in picker.options and "QUICK (5 models)" in picker.options
    assert not any(o.startswith("FRONTIER") for o in picker.options)  # empty: nothing to add
    picker.set_value("MINE").run()
    assert not at.exception
    assert at.multiselect[0].value == ["openai:fake-a", "my-local", "openai:fake-b"]
    assert _picker(at).value is None
    _picker(at).set_value("QUICK").run()
    chosen = at.multiselect[0].value
    assert len(chosen) == 3 + 5 and "openrouter:google/gemini-2.5-flash" in chosen


def test_a_run_of_a_custom_model_opens_in_the_results_page(fake_llm, monkeypatch):
    from engine.run import RunOptions
    from engine.run.service import prepare_run, run_sync
    from studio import services

    monkeypatch.setenv("BLUEPRINT_MODEL_ALLOW", "127.0.0.1")
    text = BLUEPRINT.replace("http://127.0.0.1:9", fake_llm.url).replace("  - openai:fake-a\n", "")
    store = services.store()
    prepared = prepare_run(store, text, source="picker.yml", options=RunOptions(judge=False))
    assert prepared.problems == []
    run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    at = app()
    at.query_params["run"] = prepared.run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    board = next(m for m in texts(at, "markdown") if m.startswith("| # | Model | Average"))
    assert "my-local" in board
