"""The Run page offers model collections (choosing one adds its models) and custom models."""

from __future__ import annotations

from studio import state
from tests.studio.helpers import app

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
    at.switch_page("app_pages/run.py").run()
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
