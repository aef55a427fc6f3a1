"""Extending a blueprint against the fake server: new prompts checked, added at the end."""

from __future__ import annotations

import pytest

from engine.blueprint import parse_blueprint
from engine.drafting import DraftRefused
from engine.drafting.extend import (
    MAX_NEW_PROMPTS,
    MAX_SOURCE_CHARS,
    add_prompts,
    prompts_from_source,
    read_new_prompts,
)
from engine.store import open_store
from tests.drafting.test_drafting import HOSTILE
from tests.fakes.scripted import answer_as

CURRENT = """title: Tax residency
description: Does the model explain where a person pays tax?
---
- id: days
  prompt: I spent 200 days in Spain last year. Where am I tax resident?
  should:
    - Mentions the 183-day rule.
"""

TWO_MORE = """Here are two more:
```yaml
- id: dual
  prompt: I live in France but work in Germany. Where do I pay income tax?
  ideal: Usually where you live, with relief under the France-Germany tax treaty.
  should:
    - Mentions the tax treaty between the two countries.
  should_not:
    - Says the person pays full tax twice.
- id: days
  prompt: I moved abroad on July 1. Am I resident for the whole year?
  should:
    - Explains split-year treatment.
```"""


def test_guidance_gives_new_prompts_added_after_the_existing_ones(fake_llm):
    fake_llm.reply_with(answer_as("drafter", TWO_MORE))
    guidance = "two more about edge cases of tax residency"
    extension = add_prompts(
        open_store(), "openai:drafter", CURRENT, guidance, environ=fake_llm.env()
    )
    assert extension.text.startswith(CURRENT)  # the blueprint's own text is untouched
    prompts = parse_blueprint(extension.text).prompts
    assert [p.id for p in prompts] == ["days", "dual", "days-2"]
    assert extension.added == ["dual", "days-2"]
    assert prompts[1].ideal is not None and "tax treaty" in prompts[1].ideal
    assert [(p.text, p.inverted) for p in prompts[1].points] == [
        ("Mentions the tax treaty between the two countries.", False),
        ("Says the person pays full tax twice.", True),
    ]
    assert "Renamed the new prompt `days` to `days-2` (the id was taken)" in extension.fixed
    assert extension.before == CURRENT
    [call] = fake_llm.calls
    assert guidance in call.last_user
    assert "200 days in Spain" in call.last_user and "days" in call.last_user


def test_prompts_are_added_to_a_blueprint_that_is_only_a_list():
    current = "- id: a\n  prompt: First\n"
    extension = read_new_prompts("- prompt: Second question\n  should:\n    - Is short.\n", current)
    prompts = parse_blueprint(extension.text).prompts
    assert [p.messages[-1].content for p in prompts] == ["First", "Second question"]
    assert extension.added == [prompts[1].id] and prompts[1].id != "a"


def test_more_prompts_than_one_request_may_add_are_refused():
    answer = "".join(f"- id: p{i}\n  prompt: Question {i}?\n" for i in range(MAX_NEW_PROMPTS + 1))
    with pytest.raises(DraftRefused, match=f"proposed {MAX_NEW_PROMPTS + 1} prompts"):
        read_new_prompts(answer, CURRENT)
    assert (
        len(parse_blueprint(read_new_prompts(answer.split("- id: p10")[0], CURRENT).text).prompts)
        == 11
    )


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_new_prompts_are_refused(name):
    with pytest.raises(DraftRefused) as refused:
        read_new_prompts(HOSTILE[name], CURRENT)
    message = str(refused.value)
    assert "othing was" in message
    assert "<script" not in message and "OPENAI_API_KEY" not in message


def test_a_source_text_is_sent_and_its_prompts_come_back(fake_llm):
    fake_llm.reply_with(answer_as("drafter", TWO_MORE))
    source = "The 183-day rule is a rule of thumb, not the law everywhere. " * 100
    extension = prompts_from_source(
        open_store(), "openai:drafter", CURRENT, source, environ=fake_llm.env()
    )
    assert extension.added == ["dual", "days-2"]
    [call] = fake_llm.calls
    assert source.strip() in call.last_user
    assert "drawn from the source text" in call.messages[0]["content"]


def test_a_source_over_the_limit_is_refused_plainly_before_any_call(fake_llm):
    source = "x" * (MAX_SOURCE_CHARS + 1)
    with pytest.raises(DraftRefused) as refused:
        prompts_from_source(open_store(), "openai:drafter", CURRENT, source, environ=fake_llm.env())
    assert "50,001 characters; at most 50,000" in str(refused.value)
    assert fake_llm.calls == []


def test_an_unreadable_blueprint_is_refused_before_any_call(fake_llm):
    with pytest.raises(DraftRefused, match=r"cannot be read.*Fix it first"):
        add_prompts(
            open_store(), "openai:drafter", "- prompt: [x\n", "more", environ=fake_llm.env()
        )
    with pytest.raises(DraftRefused, match="Say what the new prompts"):
        add_prompts(open_store(), "openai:drafter", CURRENT, "  ", environ=fake_llm.env())
    assert fake_llm.calls == []
