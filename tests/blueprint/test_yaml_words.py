"""YAML syntax errors are said in the user's words, with measured facts, at the right line."""

from __future__ import annotations

import pytest

from engine.blueprint.parse import parse_blueprint
from engine.errors import BlueprintError
from engine.lint import lint

H = "title: T\n---\n"

CASES = [
    # (text, line, column, words the message holds)
    (
        H + "- id: a\n  prompt: hi\n   should: [x]\n",
        5,
        1,
        ["Line 5 is indented 3 spaces", "more than line 4"],
    ),
    (
        "title: T\nprompts:\n  - id: a\n    prompt: hi\n   should: x\n",
        5,
        1,
        ["Line 5 is indented 3 spaces", "use 4"],
    ),
    ("title: T\nprompts:\n\t- id: a\n", 3, 1, ["tab at column 1", "spaces"]),
    ("title: @team\n", 1, 8, ["`@`", "quotes"]),
    (H + "- id: a\n  prompt: `ls`\n", 4, 11, ["backtick", "quotes"]),
    ("title: T\x04\n", 1, 9, ["invisible control character", "U+0004", "line 1, column 9"]),
    ("title: T\x00\x01\n", 1, 9, ["not text"]),
    ('title: "open\n', 2, 1, ["quote", "line 1, column 8", "never closed"]),
    (
        H + '- id: a\n  prompt: "open\n  should: [x]\n- id: b\n  should: ["y"]\n',
        4,
        11,
        ["quote", "line 4, column 11", "not closed", "runs on to line 7"],
    ),
    (H + "- id: a\n  prompt\n  should: [x\n", 4, 3, ["`prompt` has no `:`"]),
    (H + "- id: a\n  should: [x, y\n- id: b\n", 5, 5, ["`[` opened on line 4, column 11"]),
    ("title: A: B\n", 1, 9, ["second `: `", "quotes"]),
]

LIBYAML = (
    "while parsing",
    "while scanning",
    "expected <block end>",
    "could not find expected",
    "did not find expected",
    "mapping values are not allowed here",
    "cannot start any token",
    "unacceptable character",
    "#x",
    "stream contains",
)


@pytest.mark.parametrize(("text", "line", "column", "words"), CASES)
def test_syntax_error_words_and_place(text: str, line: int, column: int, words: list[str]) -> None:
    err = pytest.raises(BlueprintError, parse_blueprint, text, source="f.yml").value
    assert (err.line, err.column) == (line, column), err.message
    for word in words:
        assert word in err.message
    assert err.upstream  # libyaml's own wording is kept for those who want it


@pytest.mark.parametrize(("text", "line", "column", "words"), CASES)
def test_no_libyaml_phrase_reaches_a_user_message(
    text: str, line: int, column: int, words: list[str]
) -> None:
    err = pytest.raises(BlueprintError, parse_blueprint, text, source="f.yml").value
    messages = [err.message] + [d.message for d in lint(text, source="f.yml")]
    for message in messages:
        for phrase in LIBYAML:
            assert phrase not in message


def test_lint_points_at_the_line_the_quote_opened_on() -> None:
    text = CASES[8][0]
    (syntax,) = [d for d in lint(text, source="f.yml") if d.code == "yaml-syntax"]
    assert (syntax.line, syntax.column) == (4, 11)
