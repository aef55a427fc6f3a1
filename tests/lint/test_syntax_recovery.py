"""A syntax error in one prompt does not hide the problems of the others."""

from __future__ import annotations

from tests.lint.helpers import lint_strict

TEXT = (
    "title: Recovery\n"  # 1
    "---\n"  # 2
    "- id: one\n"  # 3
    "  prompt: first\n"  # 4
    "  should: [a]\n"  # 5
    "- id: two\n"  # 6
    "  prompt: second\n"  # 7
    "   should: [b]\n"  # 8  indented 3 spaces: a syntax error
    "- id: three\n"  # 9
    "  prompt: third\n"  # 10
    "  should: [c]\n"  # 11
    "- id: four\n"  # 12
    "  prompt: fourth\n"  # 13
    "  should:\n"  # 14
    '    - [["$contains", "x"]]\n'  # 15  a single-element nested list
)


def test_syntax_error_in_prompt_2_and_lint_mistake_in_prompt_4_both_reported() -> None:
    found = lint_strict(TEXT)
    syntax = [d for d in found if d.code == "yaml-syntax"]
    assert [(d.line, d.column) for d in syntax] == [(8, 1)]
    assert "Line 8 is indented 3 spaces" in syntax[0].message
    others = [(d.code, d.line) for d in found if d.code != "yaml-syntax"]
    assert any(line == 15 for _, line in others), others
    assert not any(line in (6, 7, 8) for _, line in others)
