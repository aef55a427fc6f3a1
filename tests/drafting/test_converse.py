"""Build by conversation against the fake server: questions, checked proposals, the history sent."""

from __future__ import annotations

import pytest

from engine.drafting import DraftRefused
from engine.drafting.converse import converse, read_turn
from engine.store import open_store
from tests.drafting.test_drafting import GOOD, HOSTILE
from tests.fakes.scripted import answer_as


def test_a_question_is_words_only():
    turn = read_turn("Who should the answers be kind to: customers, or children?")
    assert turn.words == "Who should the answers be kind to: customers, or children?"
    assert turn.proposal is None and turn.refused is None


def test_a_proposal_is_checked_and_its_words_kept_apart():
    turn = read_turn(GOOD + "\nTell me what to change.")
    assert turn.proposal is not None
    assert turn.proposal.text.startswith("title: Kind refusals")
    assert turn.words == "Here is a draft:\n\nTell me what to change."
    assert "```" not in turn.words


@pytest.mark.parametrize("name", ["html", "$js", "$call", "env lookup", "no prompts"])
def test_a_hostile_proposal_is_not_offered_and_says_why(name):
    turn = read_turn("Here you go:\n```yaml\n" + HOSTILE[name] + "```\n")
    assert turn.proposal is None and turn.refused
    assert "It is not offered" in turn.refused or "it is not offered" in turn.refused
    assert "inserted" not in turn.refused and "<script" not in turn.refused
    assert turn.words == "Here you go:"


def test_the_conversation_and_the_blueprint_are_sent_and_the_answer_read(fake_llm):
    store = open_store()
    store.save_draft("d", "title: Old\n---\n- id: a\n  prompt: Hi\n", "Old")
    store.add_draft_message("d", "user", "I want to test kind refusals.")
    store.add_draft_message("d", "assistant", "Kind to whom?")
    fake_llm.reply_with(answer_as("assistant", GOOD))
    turn = converse(
        store,
        "openai:assistant",
        "title: Old\n---\n- id: a\n  prompt: Hi\n",
        store.draft_messages("d"),
        "To strangers asking for help with locks.",
        environ=fake_llm.env(),
    )
    assert turn.proposal is not None and "Kind refusals" in turn.proposal.text
    [call] = fake_llm.calls
    roles = [m["role"] for m in call.messages]
    assert roles == ["system", "user", "assistant", "user"]
    assert call.messages[2]["content"] == "Kind to whom?"
    assert "prompt: Hi" in call.last_user and call.last_user.endswith(
        "To strangers asking for help with locks."
    )


def test_an_empty_message_is_refused_before_any_call(fake_llm):
    with pytest.raises(DraftRefused, match="Write a message first"):
        converse(open_store(), "openai:assistant", "", [], "  ", environ=fake_llm.env())
    assert fake_llm.calls == []
