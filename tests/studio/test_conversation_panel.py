"""Build by conversation (AppTest, fake server): kept with the draft, refusals in our words."""

from __future__ import annotations

from engine.store import open_store
from studio import state
from studio.components.conversation_panel import ERROR_KEY, MESSAGE_KEY, MODEL_KEY
from tests.drafting.test_extend import CURRENT
from tests.fakes.scripted import answer_as
from tests.studio.helpers import app, texts
from tests.studio.test_drafting_panel import _button

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
