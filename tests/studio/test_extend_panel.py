"""Add prompts in the Drafting help (AppTest, fake server): a diff first, a version on accept."""

from __future__ import annotations

from engine.drafting.extend import MAX_SOURCE_CHARS
from engine.store import open_store
from studio import state
from studio.views.editor.extend_panel import EXTEND_KEY, GUIDANCE_KEY, SOURCE_KEY
from tests.drafting.test_extend import CURRENT, TWO_MORE
from tests.fakes.scripted import answer_as
from tests.studio.helpers import texts
from tests.studio.test_drafting_panel import _button
from tests.studio.test_drafting_panel import _editor as editor_with


def _editor():
    return editor_with(None, CURRENT)


def test_new_prompts_are_shown_as_a_diff_and_accepting_keeps_a_version(llm_env, scripted_llm):
    scripted_llm.reply_with(answer_as("drafter", TWO_MORE))
    at = _editor()
    at.text_input(key=GUIDANCE_KEY).set_value("two more about edge cases")
    _button(at, "extend-guidance").click().run()
    assert not at.exception
    assert at.session_state[state.TEXT] == CURRENT  # shown, not added
    [diff] = [str(c.value) for c in at.code if "with the new prompts" in str(c.value)]
    assert "+- id: dual" in diff and "+- id: days-2" in diff
    assert not [line for line in diff.splitlines()[2:] if line.startswith("-")]
    assert any("Renamed the new prompt `days` to `days-2`" in c for c in texts(at, "caption"))
    _button(at, "extend-accept").click().run()
    assert not at.exception
    text = at.session_state[state.TEXT]
    assert text.startswith(CURRENT) and "id: dual" in text and "id: days-2" in text
    assert EXTEND_KEY not in at.session_state
    [latest, *_] = open_store().draft_versions(at.session_state[state.DRAFT_ID])
    assert latest.note == "Added prompts: dual, days-2"
    assert open_store().draft_version_text(latest.draft_id, latest.number) == text
    assert any("Added 2 prompts (dual, days-2) as version" in s for s in texts(at, "success"))


def test_a_source_over_the_limit_is_said_plainly_and_nothing_is_sent(llm_env, scripted_llm):
    at = _editor()
    at.text_area(key=SOURCE_KEY).set_value("word " * (MAX_SOURCE_CHARS // 5) + "more")
    at.run()
    assert any("at most 50,000 can be sent" in w for w in texts(at, "warning"))
    _button(at, "extend-source").click().run()
    assert any("50,004 characters; at most 50,000" in e for e in texts(at, "error"))
    assert scripted_llm.calls == [] and at.session_state[state.TEXT] == CURRENT


def test_a_hostile_answer_is_refused_and_shown_as_plain_text(llm_env, scripted_llm):
    scripted_llm.reply_with(answer_as("drafter", "- prompt: <b onmouseover=x>hi</b>\n"))
    at = _editor()
    at.text_area(key=SOURCE_KEY).set_value("An article about tax residency.")
    _button(at, "extend-source").click().run()
    assert any("contains HTML or other markup" in e for e in texts(at, "error"))
    assert any("<b onmouseover=x>" in str(c.value) for c in at.code)
    assert not [b for b in at.button if b.key == "extend-accept"]
    assert at.session_state[state.TEXT] == CURRENT


def test_prompts_drafted_for_an_older_text_are_not_added(llm_env, scripted_llm):
    scripted_llm.reply_with(answer_as("drafter", TWO_MORE))
    at = _editor()
    at.text_input(key=GUIDANCE_KEY).set_value("two more about edge cases")
    _button(at, "extend-guidance").click().run()
    at.session_state[state.TEXT] = CURRENT + "# typed meanwhile\n"
    _button(at, "extend-accept").click().run()
    assert at.session_state[state.TEXT] == CURRENT + "# typed meanwhile\n"
    assert any("changed after the prompts were drafted" in w for w in texts(at, "warning"))
    assert EXTEND_KEY not in at.session_state
