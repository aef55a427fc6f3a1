"""A should_not function point explains itself in the user's terms on screen (issue 14)."""

from __future__ import annotations

from studio import state
from tests.studio.helpers import app

BLUEPRINT = """title: Packing
---
- id: beach
  prompt: What should I pack for the mountains?
  should:
    - $icontains: boots
  should_not:
    - $icontains: sandals
"""


def test_score_this_answer_says_what_was_found_and_that_it_should_not_be(fake_llm):
    at = app()
    at.session_state[state.TEXT] = BLUEPRINT
    at.run()
    at.text_area(key="try_answer").set_value("Pack Sandals and a hat.").run()
    assert not at.exception
    table = at.dataframe[0].value
    why = dict(zip(table["Point"], table["Why"], strict=True))
    assert why['Function: icontains("sandals")'] == (
        "Contains 'sandals' (ignoring case), which it should not: score 0.00."
    )
    assert why['Function: icontains("boots")'] == (
        "Does not contain 'boots' (ignoring case), but it should: score 0.00."
    )
    assert not any("evaluated to" in w for w in why.values())
