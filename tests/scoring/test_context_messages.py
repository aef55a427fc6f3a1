"""`score` and "Try a response" give `$js` the conversation `run` builds (system prompt included)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.blueprint import parse_blueprint
from engine.conversation import response_evidence, system_prompt_for
from engine.run.plan import plan_run
from studio import state
from tests.studio.helpers import app

# $js sees the conversation and the model id; it scores 1 only when they are what Weval gives.
CHECK = (
    "$js: \"context.messages.length === 3 && context.messages[0].role === 'system'"
    " && context.messages[0].content === 'Answer in French.'"
    " && context.messages[1].content === 'Capital of France?'"
    ' && context.messages[2].content === r && context.modelId === MODEL"'
)


def blueprint_text(model: str) -> str:
    check = CHECK.replace("MODEL", f"'{model}'")
    return (
        "system: Answer in French.\n---\n- id: p\n  prompt: Capital of France?\n"
        f"  should:\n    - {check}\n"
    )


def test_score_gives_js_the_system_prompt_the_prompt_and_the_response(tmp_path):
    bp = tmp_path / "bp.yml"
    bp.write_text(blueprint_text("my-model"))
    rows = tmp_path / "r.jsonl"
    rows.write_text(json.dumps({"prompt_id": "p", "model": "my-model", "response": "Paris."}))
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score", bp, "--responses", rows],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    cell = json.loads(done.stdout)["evaluationResults"]["llmCoverageScores"]["p"]["my-model"]
    assert cell["avgCoverageExtent"] == 1, cell


SYSTEMS = """\
{header}
---
- id: own
  {own}
  prompt: Hi
- id: plain
  messages:
    - user: Hi
    - assistant: Hello
    - user: Bye
"""


@pytest.mark.parametrize(
    ("header", "own"),
    [
        ("system: Global.", "system: Own."),
        ("system: Global.", "system: null"),
        ("system: Global.", "description: none"),
        ("title: no system", "description: none"),
        ("systems: [First., null, Third.]", "description: none"),
        ("system: [First., Second.]", "description: none"),
    ],
)
def test_the_conversation_is_the_one_run_sends(header, own):
    blueprint = parse_blueprint(SYSTEMS.format(header=header, own=own))
    plan = plan_run(blueprint, models=["ideal"])
    assert plan.cells
    for cell in plan.cells:
        expected = [*cell.opening(), {"role": "assistant", "content": "Answer."}]
        evidence = response_evidence(blueprint, cell.prompt, cell.model_id, response="Answer.")
        assert evidence.messages == expected
        assert system_prompt_for(blueprint, cell.prompt, cell.model_id) == cell.system


def test_try_a_response_gives_js_the_same_conversation():
    at = app()
    at.session_state[state.TEXT] = blueprint_text("your answer")
    at.run()
    at.text_area(key="try_answer").set_value("Paris.").run()
    assert not at.exception
    assert [m.value for m in at.metric] == ["1.00"]
