"""Points found in an ideal answer, added to a blueprint as `should` points."""

from __future__ import annotations

import pytest

from engine.blueprint import parse_blueprint
from engine.edit.keypoints import add_should_points
from engine.edit.nodes import EditError

TEXT = """title: T
models: [openai:x]
---
# the tea prompt
- id: tea
  prompt: How hot?
  ideal: About 80 degrees. Steep two minutes.
- id: b
  prompt: Hi
  should:
    - Says hi
"""


def test_points_become_should_points_of_that_prompt_only():
    out = add_should_points(TEXT, "tea", ["About 80 degrees.", "Steep two minutes."])
    tea = parse_blueprint(out).prompt("tea")
    assert tea is not None
    assert [(p.text, p.fn) for p in tea.points] == [
        ("About 80 degrees.", None),
        ("Steep two minutes.", None),
    ]
    assert "# the tea prompt" in out and out.endswith("    - Says hi\n")
    assert parse_blueprint(out).prompt("b").points[0].text == "Says hi"


def test_a_point_that_looks_like_a_function_stays_text_and_duplicates_are_skipped():
    out = add_should_points(TEXT, "b", ["$5 is the price", "Says hi", "$5 is the price"])
    b = parse_blueprint(out).prompt("b")
    assert [(p.text, p.fn) for p in b.points] == [("Says hi", None), ("$5 is the price", None)]


def test_unknown_prompt_and_unreadable_text_are_clear_errors():
    with pytest.raises(EditError, match="no prompt with the id 'gone'"):
        add_should_points(TEXT, "gone", ["x"])
    with pytest.raises(EditError, match="cannot be read"):
        add_should_points("title: [unclosed\n", "tea", ["x"])
