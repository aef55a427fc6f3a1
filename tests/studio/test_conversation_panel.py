"""Build by conversation (AppTest, fake server): kept with the draft, refusals in our words."""

from __future__ import annotations

import os
from pathlib import Path

from engine.drafting.quick_try import MAX_COST_USD
from engine.store import open_store
from studio import state
from studio.views.editor.conversation_panel import ERROR_KEY, MESSAGE_KEY, MODEL_KEY
from studio.views.editor.quick_try import MODELS_KEY
from tests.drafting.test_extend import CURRENT
from tests.fakes.scripted import answer_as
from tests.studio.helpers import app, texts
from tests.studio.test_drafting_panel import _button

PRICES = """[prices]
"openai:fake-a" = { input = 0.1, output = 0.1 }
"openai:fake-b" = { input = 0.1, output = 0.1 }
"""
HOSTILE = "Sure:\n```yaml\n- prompt: hi\n  should:\n    - $js: 'process.exit()'\n```\n"


def _editor():
    open_store().save_draft("d1", CURRENT, "Tax residency", explicit=True, note="Opened")
    at = app()
    at.session_state[state.TEXT] = CURRENT
    at.session_state[state.DRAFT_ID] = "d1"
    at.run()
    assert not at.exception
    at.text_input(key=MODEL_KEY).set_value("openai:assistant")
    return at


def test_a_hostile_proposal_is_kept_as_words_only_and_offers_nothing(llm_env, scripted_llm):
    scripted_llm.reply_with(answer_as("assistant", HOSTILE))
    at = _editor()
    at.text_area(key=MESSAGE_KEY).set_value("Make the first prompt harder.")
    _button(at, "converse-send").click().run()
    assert not at.exception
    user, said = open_store().draft_messages("d1")
    assert (user.role, user.content) == ("user", "Make the first prompt harder.")
    assert said.role == "assistant" and said.proposal is None
    assert said.content.startswith("Sure:\n\n(Its proposal is not shown:")
    assert "calls a service or runs code" in said.content
    assert not [b for b in at.button if str(b.key).startswith("converse-apply")]
    assert at.session_state[state.TEXT] == CURRENT
    assert at.session_state[MESSAGE_KEY] == ""  # the box is emptied for the next message


def test_a_failed_call_keeps_the_message_to_send_again(llm_env, scripted_llm):
    scripted_llm.fail_when(lambda r: True, "400")
    at = _editor()
    at.text_area(key=MESSAGE_KEY).set_value("Add a point about tone.")
    _button(at, "converse-send").click().run()
    assert any("openai:assistant could not be asked" in e for e in texts(at, "error"))
    assert open_store().draft_messages("d1") == []
    assert at.session_state[MESSAGE_KEY] == "Add a point about tone."
    assert ERROR_KEY in at.session_state


def test_a_quick_try_is_a_stored_run_whose_summary_the_assistant_reads_next(llm_env, scripted_llm):
    home = Path(os.environ["BLUEPRINT_HOME"])  # a fresh folder per test; the budget needs prices
    (home / "settings.toml").write_text(PRICES, encoding="utf-8")
    # the models echo the prompt and the judges grade by the point's first word ("Mentions")
    scripted_llm.reply_with(answer_as("assistant", "Shall I loosen the 183-day point?"))
    at = _editor()
    at.text_input(key=MODELS_KEY).set_value("openai:fake-a, openai:fake-b")
    _button(at, "quick-try").click().run(timeout=240)
    assert not at.exception
    [run] = open_store().list_runs(limit=5)
    assert run.live_status == "completed"
    assert run.options["models"] == ["openai:fake-a", "openai:fake-b"]
    assert run.options["max_cost_usd"] == MAX_COST_USD
    [said] = open_store().draft_messages("d1")
    assert said.role == "assistant" and said.proposal is None
    assert said.content.startswith("Quick try results (1 prompt, 2 models):")
    assert "prompt days scored 0.00 or less on every model" in said.content
    assert "- openai:fake-a: average 0.00" in said.content  # the one shown name, no [temp:0]
    assert '"Mentions the 183-day rule." scored 0 on every model' in said.content
    assert said.content.endswith(f"Full results: /results?run={run.id}")
    assert any(said.content == t for t in texts(at, "text"))
    at.text_area(key=MESSAGE_KEY).set_value("Why did it score so low?")
    _button(at, "converse-send").click().run()
    assert not at.exception
    sent = [c for c in scripted_llm.calls if c.model == "assistant"][-1]
    assert {"role": "assistant", "content": said.content} in sent.messages


def test_a_draft_with_lint_errors_is_not_tried(llm_env, scripted_llm):
    at = _editor()
    at.session_state[state.TEXT] = CURRENT.replace("    - Mentions", "    - $contains: [")
    at.run()
    _button(at, "quick-try").click().run()
    assert any("nothing was run" in e for e in texts(at, "error"))
    assert open_store().list_runs(limit=5) == []
    assert scripted_llm.calls == []
