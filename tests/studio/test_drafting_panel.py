"""Drafting help in the editor (AppTest, fake server): shown checked, inserted only when accepted."""

from __future__ import annotations

from studio import state
from studio.views.editor.drafting_panel import GOAL_KEY, MODEL_KEY, PROMPT_KEY, RESULT_KEY
from tests.drafting.test_drafting import GOOD
from tests.fakes.scripted import answer_as
from tests.studio.helpers import app, texts

START = "title: Mine\n---\n- id: first\n  prompt: Hi\n- id: second\n  prompt: Capital of France?\n"


def _editor(llm_env, text=START):
    at = app()
    at.session_state[state.TEXT] = text
    at.run()
    assert not at.exception
    at.text_input(key=MODEL_KEY).set_value("openai:drafter")
    return at


def _button(at, key):
    return next(b for b in at.button if b.key == key)


def test_a_goal_draft_is_shown_and_only_accepting_it_inserts_it(llm_env, scripted_llm):
    scripted_llm.reply_with(answer_as("drafter", GOOD))
    at = _editor(llm_env)
    at.text_area(key=GOAL_KEY).set_value("Test that refusals are kind.")
    _button(at, "draft-goal").click().run()
    assert not at.exception
    assert at.session_state[state.TEXT] == START  # shown, not inserted
    [code] = [c for c in at.code if "Kind refusals" in str(c.value)]
    assert str(code.value).startswith("title: Kind refusals")
    _button(at, "draft-accept").click().run()
    assert at.session_state[state.TEXT].startswith("title: Kind refusals")
    assert RESULT_KEY not in at.session_state


def test_suggested_points_go_into_the_chosen_prompt(llm_env, scripted_llm):
    scripted_llm.reply_with(answer_as("drafter", "should:\n  - Says Paris.\n"))
    at = _editor(llm_env)
    at.selectbox(key=PROMPT_KEY).set_value(1)
    _button(at, "draft-points").click().run()
    assert "Capital of France?" in scripted_llm.calls[-1].last_user
    _button(at, "draft-accept").click().run()
    assert at.session_state[state.TEXT] == START + "  should:\n    - Says Paris.\n"


def test_a_hostile_answer_is_refused_with_a_message_and_nothing_inserted(llm_env, scripted_llm):
    scripted_llm.reply_with(
        answer_as("drafter", "- prompt: x\n  should:\n    - <img src=x onerror=alert(1)>\n")
    )
    at = _editor(llm_env)
    at.text_area(key=GOAL_KEY).set_value("anything")
    _button(at, "draft-goal").click().run()
    assert any("contains HTML or other markup" in e for e in texts(at, "error"))
    assert not [b for b in at.button if b.key == "draft-accept"]
    assert at.session_state[state.TEXT] == START


def test_a_refusal_speaks_plain_words_and_shows_what_the_model_replied(llm_env, scripted_llm):
    reply = "Sure! Here are my thoughts on kindness & care <3 **bold**\n" + "word " * 2000
    scripted_llm.reply_with(answer_as("drafter", reply))
    at = _editor(llm_env)
    at.text_area(key=GOAL_KEY).set_value("Test that refusals are kind.")
    _button(at, "draft-goal").click().run()
    [error] = texts(at, "error")
    assert "written as prose" in error and "Document must be" not in error
    [shown] = [str(c.value) for c in at.code if "kindness" in str(c.value)]
    assert shown.startswith(
        "Sure! Here are my thoughts on kindness & care <3 **bold**"
    )  # as replied
    assert len(shown) < 4200 and shown.endswith("more characters not shown)")
    assert at.session_state[state.TEXT] == START
