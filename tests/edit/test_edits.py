"""Every kind of form edit: only the edited node's lines change, and the result re-parses to
exactly the intended blueprint (Weval's normalized form)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from engine.blueprint import parse_blueprint
from engine.edit import (
    AddPoint,
    AddPrompt,
    DeletePoint,
    DeletePrompt,
    DuplicatePoint,
    DuplicatePrompt,
    Edit,
    EditError,
    EditPoint,
    GroupPoints,
    MoveIntoBlock,
    MoveOutOfBlock,
    MovePoint,
    MovePrompt,
    PointRef,
    PointSpec,
    SetHeader,
    SetMessages,
    SetPointWeight,
    SetPromptField,
    ToggleInverted,
    apply,
)
from tests.edit.helpers import assert_only, fn_point, normal, text_point

TEXT = """\
# Header comment
title: "Quoted title"   # trailing comment
description: Plain description
models: [openai:gpt-4.1-mini, anthropic:claude-haiku-4.5]
---
# First prompt
- id: p1
  prompt: What is the capital of France?  # ask
  ideal: Paris.
  should:
    - Mentions Paris  # a judged point
    - $icontains: paris
    - - Says it is the capital
      - $contains: capital
  should_not:
    - $contains: London

- id: p2
  prompt: 'Second question'
  should: ["a", "b"]   # flow
"""

P1 = TEXT.splitlines().index("- id: p1") + 1  # 7

Change = Callable[[dict[str, Any]], None]


def _p(w: dict[str, Any], i: int) -> dict[str, Any]:
    return w["prompts"][i]


def _set(path: tuple[Any, ...], value: Any) -> Change:
    def change(w: dict[str, Any]) -> None:
        target = w
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return change


CASES: list[tuple[str, Edit, Change, tuple[int, int]]] = [
    ("header title", SetHeader("title", "New title"), _set(("title",), "New title"), (2, 2)),
    ("header new key", SetHeader("tags", ["a", "b"]), _set(("tags",), ["a", "b"]), (4, 4)),
    (
        "header models (flow)",
        SetHeader("models", ["openai:gpt-4.1"]),
        _set(("models",), ["openai:gpt-4.1"]),
        (4, 4),
    ),
    ("header remove", SetHeader("description", None), lambda w: w.pop("description"), (3, 3)),
    (
        "prompt field",
        SetPromptField(0, "ideal", "Paris is the capital."),
        _set(("prompts", 0, "idealResponse"), "Paris is the capital."),
        (9, 9),
    ),
    (
        "prompt field multi-line",
        SetPromptField(0, "ideal", "Paris.\nIt is the capital."),
        _set(("prompts", 0, "idealResponse"), "Paris.\nIt is the capital."),
        (9, 9),
    ),
    (
        "prompt new field",
        SetPromptField(1, "weight", 2.0),
        _set(("prompts", 1, "weight"), 2),
        (18, 20),
    ),
    (
        "conversation",
        SetMessages(0, (("user", "Hi"), ("assistant", "Hello"), ("user", "Capital of France?"))),
        _set(
            ("prompts", 0, "messages"),
            [
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": "Hello"},
                {"role": "user", "content": "Capital of France?"},
            ],
        ),
        (7, 16),
    ),
    (
        "add point",
        AddPoint(0, PointSpec(text="Is brief")),
        lambda w: _p(w, 0)["points"].append(text_point("Is brief")),
        (10, 14),
    ),
    (
        "add point to flow list",
        AddPoint(1, PointSpec(fn="contains", args="c", weight=2)),
        lambda w: _p(w, 1)["points"].append(fn_point("contains", "c", 2)),
        (20, 20),
    ),
    (
        "add should_not point",
        AddPoint(1, PointSpec(text="Is rude"), inverted=True),
        _set(("prompts", 1, "should_not"), [text_point("Is rude")]),
        (18, 20),
    ),
    (
        "add point to block",
        AddPoint(0, PointSpec(fn="is_json", has_args=False), block=2),
        lambda w: _p(w, 0)["points"][2].append(fn_point("is_json")),
        (13, 14),
    ),
    (
        "edit point",
        EditPoint(PointRef(0, 0), PointSpec(fn="contains", args="Paris")),
        lambda w: _p(w, 0)["points"].__setitem__(0, fn_point("contains", "Paris")),
        (11, 11),
    ),
    (
        "weigh point (mapping)",
        SetPointWeight(PointRef(0, 1), 3),
        lambda w: _p(w, 0)["points"][1].__setitem__("multiplier", 3),
        (12, 12),
    ),
    (
        "weigh point (string)",
        SetPointWeight(PointRef(0, 0), 0.5),
        lambda w: _p(w, 0)["points"].__setitem__(0, text_point("Mentions Paris", 0.5)),
        (11, 11),
    ),
    (
        "weigh point in block",
        SetPointWeight(PointRef(0, 2, sub=1), 2),
        lambda w: _p(w, 0)["points"][2][1].__setitem__("multiplier", 2),
        (14, 14),
    ),
    (
        "delete point",
        DeletePoint(PointRef(0, 0)),
        lambda w: _p(w, 0)["points"].pop(0),
        (11, 11),
    ),
    (
        "delete last should_not",
        DeletePoint(PointRef(0, 0, inverted=True)),
        lambda w: _p(w, 0).pop("should_not"),
        (15, 16),
    ),
    (
        "delete point in block",
        DeletePoint(PointRef(0, 2, sub=0)),
        lambda w: _p(w, 0)["points"][2].pop(0),
        (13, 14),
    ),
    (
        "duplicate point",
        DuplicatePoint(PointRef(0, 1)),
        lambda w: _p(w, 0)["points"].insert(2, copy.deepcopy(_p(w, 0)["points"][1])),
        (12, 12),
    ),
    (
        "duplicate block",
        DuplicatePoint(PointRef(0, 2)),
        lambda w: _p(w, 0)["points"].append(copy.deepcopy(_p(w, 0)["points"][2])),
        (13, 14),
    ),
    (
        "duplicate point in block",
        DuplicatePoint(PointRef(0, 2, sub=0)),
        lambda w: _p(w, 0)["points"][2].insert(1, _p(w, 0)["points"][2][0]),
        (13, 13),
    ),
    (
        "move point",
        MovePoint(PointRef(0, 0), 1),
        lambda w: _p(w, 0)["points"].insert(1, _p(w, 0)["points"].pop(0)),
        (11, 12),
    ),
    (
        "move point in block",
        MovePoint(PointRef(0, 2, sub=1), 0),
        lambda w: _p(w, 0)["points"][2].reverse(),
        (13, 14),
    ),
    (
        "move point in flow list",
        MovePoint(PointRef(1, 1), 0),
        lambda w: _p(w, 1)["points"].reverse(),
        (20, 20),
    ),
    (
        "should to should_not",
        ToggleInverted(PointRef(0, 0)),
        lambda w: _p(w, 0)["should_not"].append(_p(w, 0)["points"].pop(0)),
        (11, 16),
    ),
    (
        "should_not to should",
        ToggleInverted(PointRef(0, 0, inverted=True)),
        lambda w: _p(w, 0)["points"].append(_p(w, 0).pop("should_not")[0]),
        (10, 16),
    ),
    (
        "group into a block",
        GroupPoints(0, (0, 1)),
        lambda w: _p(w, 0)["points"].__setitem__(
            slice(0, 2), [[text_point("Mentions Paris")], [fn_point("icontains", "paris")]]
        ),
        (11, 12),
    ),
    (
        "move into block",
        MoveIntoBlock(PointRef(0, 1), 2),
        lambda w: _p(w, 0)["points"][2].append(_p(w, 0)["points"].pop(1)),
        (12, 14),
    ),
    (
        "move out of block",
        MoveOutOfBlock(PointRef(0, 2, sub=1)),
        lambda w: _p(w, 0)["points"].append(_p(w, 0)["points"][2].pop(1)),
        (13, 14),
    ),
    (
        "add prompt",
        AddPrompt({"id": "p3", "prompt": "Third?", "should": ["Answers"]}),
        lambda w: w["prompts"].append(
            {
                "messages": [{"role": "user", "content": "Third?"}],
                "id": "p3",
                "render_as": "markdown",
                "points": [text_point("Answers")],
            }
        ),
        (21, 21),
    ),
    (
        "add prompt first",
        AddPrompt({"id": "p0", "prompt": "Zero?"}, at=0),
        lambda w: w["prompts"].insert(
            0,
            {
                "messages": [{"role": "user", "content": "Zero?"}],
                "id": "p0",
                "render_as": "markdown",
            },
        ),
        (7, 7),
    ),
    (
        "duplicate prompt",
        DuplicatePrompt(0, "p1-copy"),
        lambda w: w["prompts"].insert(1, {**copy.deepcopy(_p(w, 0)), "id": "p1-copy"}),
        (16, 17),
    ),
    ("delete prompt", DeletePrompt(1), lambda w: w["prompts"].pop(1), (18, 20)),
    ("move prompt", MovePrompt(1, 0), lambda w: w["prompts"].reverse(), (7, 20)),
]


@pytest.mark.parametrize(
    ("edit", "change", "lines"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_edit_changes_only_its_node_and_means_what_it_says(
    edit: Edit, change: Change, lines: tuple[int, int]
) -> None:
    new = apply(TEXT, edit)
    assert_only(TEXT, new, *lines)
    expected = normal(TEXT)
    change(expected)
    assert normal(new) == expected


def test_comments_and_quoting_outside_the_edit_survive() -> None:
    new = apply(TEXT, SetPromptField(0, "ideal", "Lyon?"))
    assert "  ideal: Lyon?\n" in new
    for kept in (
        "# Header comment",
        'title: "Quoted title"   # trailing comment',
        "  prompt: What is the capital of France?  # ask",
        "    - Mentions Paris  # a judged point",
        "  prompt: 'Second question'",
        '  should: ["a", "b"]   # flow',
    ):
        assert kept in new


def test_no_edit_keeps_every_byte() -> None:
    assert apply(TEXT, SetPromptField(0, "ideal", "Paris.")) == TEXT


def test_crlf_text_stays_crlf() -> None:
    crlf = TEXT.replace("\n", "\r\n")
    new = apply(crlf, AddPoint(0, PointSpec(text="Is short\nand clear")))
    assert "\n" not in new.replace("\r\n", "")
    assert normal(new)["prompts"][0]["points"][-1] == text_point("Is short\nand clear")


def test_text_that_looks_like_a_function_stays_text() -> None:
    new = apply(TEXT, AddPoint(1, PointSpec(text="$contains: x")))
    assert normal(new)["prompts"][1]["points"][-1] == text_point("$contains: x")
    moved = apply(TEXT, MoveOutOfBlock(PointRef(0, 2, sub=0)))
    assert normal(moved)["prompts"][0]["points"][-1] == text_point("Says it is the capital")


def test_zero_argument_function_moved_into_a_block_stays_a_function() -> None:
    text = TEXT.replace("    - $icontains: paris\n", "    - $is_json\n")
    new = apply(text, MoveIntoBlock(PointRef(0, 1), 2))
    assert normal(new)["prompts"][0]["points"][1][-1] == fn_point("is_json")


def test_header_added_to_a_list_of_prompts() -> None:
    text = "# prompts only\n- id: a\n  prompt: Hi\n"
    new = apply(text, SetHeader("title", "Mine"))
    assert new == "title: Mine\n---\n# prompts only\n- id: a\n  prompt: Hi\n"
    assert normal(new)["title"] == "Mine"


def test_first_prompt_of_an_empty_text() -> None:
    new = apply("", AddPrompt({"id": "a", "prompt": "Hi"}))
    assert normal(new)["prompts"][0]["id"] == "a"


def test_prompts_under_a_prompts_key() -> None:
    text = "title: T\nprompts:\n  - id: a\n    prompt: Hi  # c\n  - id: b\n    prompt: Yo\n"
    new = apply(text, AddPoint(1, PointSpec(text="Greets")))
    assert_only(text, new, 5, 6)
    assert normal(new)["prompts"][1]["points"] == [text_point("Greets")]
    moved = apply(text, MovePrompt(0, 1))
    assert [p["id"] for p in normal(moved)["prompts"]] == ["b", "a"]


def test_prompts_as_documents() -> None:
    text = "prompt: First\nshould: [x]\n---\nprompt: Second\n"
    new = apply(text, AddPrompt({"prompt": "Third"}))
    assert [p["messages"][0]["content"] for p in normal(new)["prompts"]] == [
        "First",
        "Second",
        "Third",
    ]
    assert normal(apply(text, DeletePrompt(0)))["prompts"][0]["messages"][0]["content"] == "Second"


def test_json_blueprint_fields_edit_in_place() -> None:
    text = '{"title": "T", "prompts": [{"id": "a", "prompt": "Hi", "should": ["x"]}]}'
    new = apply(text, AddPoint(0, PointSpec(text="y")))
    assert normal(new)["prompts"][0]["points"] == [text_point("x"), text_point("y")]
    with pytest.raises(EditError, match="YAML view"):
        apply(text, AddPrompt({"prompt": "More"}))


def test_anchors_elsewhere_survive() -> None:
    text = TEXT.replace("    - $contains: London", "    - &no_london {$contains: London}")
    text += "- id: p3\n  prompt: Again\n  should_not:\n    - *no_london\n"
    new = apply(text, SetPromptField(1, "ideal", "A"))
    assert "&no_london {$contains: London}" in new
    assert "*no_london" in new
    assert normal(new)["prompts"][2]["should_not"] == [fn_point("contains", "London")]


@pytest.mark.parametrize(
    "edit",
    [
        SetPromptField(5, "ideal", "x"),
        DeletePoint(PointRef(0, 9)),
        DeletePoint(PointRef(0, 0, sub=0)),
        MoveIntoBlock(PointRef(0, 0), 1),
        GroupPoints(0, (0,)),
        SetPointWeight(PointRef(0, 2), 2),
    ],
)
def test_impossible_edits_say_so_in_plain_words(edit: Edit) -> None:
    with pytest.raises(EditError) as info:
        apply(TEXT, edit)
    assert "Traceback" not in str(info.value)
    assert str(info.value)[0].isupper()


def test_unreadable_yaml_is_refused() -> None:
    with pytest.raises(EditError, match="YAML view"):
        apply("title: [unclosed\n", SetHeader("title", "x"))


def test_a_flow_list_stays_a_flow_list() -> None:
    new = apply(TEXT, SetHeader("models", ["openai:gpt-4.1", "ideal"]))
    assert "models: [openai:gpt-4.1, ideal]\n" in new
    odd = apply(TEXT, SetHeader("models", ["a, b", "x"]))
    assert normal(odd)["models"] == ["a, b", "x"]


def test_a_block_of_text_never_swallows_a_comment_after_it() -> None:
    text = "- id: a\n  prompt: Hi\n  should:\n    - Greets\n    # more points later\n- id: b\n"
    new = apply(text, SetPromptField(0, "ideal", "Two\nlines"))
    assert "# more points later" in new
    assert normal(new)["prompts"][0]["idealResponse"] == "Two\nlines"
    trailing = "- id: a\n  prompt: Hi  # greet\n"
    new = apply(trailing, SetPromptField(0, "prompt", "Two\nlines"))
    assert normal(new)["prompts"][0]["messages"][0]["content"] == "Two\nlines"
    assert "# greet" in new


def test_a_prompt_with_unicode_line_breaks_is_edited_as_js_yaml_reads_it() -> None:
    # libyaml and ruamel.yaml end lines at U+2028 (YAML 1.1): the form could not place the
    # edit, and a new value holding one was written as two lines
    text = "title: t\n---\n- id: p1\n  prompt: |\n    one\u2028still one\n    two\n  should: [a\u2029b]\n"
    edited = apply(text, SetPromptField(0, "ideal", "An ideal\u2028answer"))
    prompt = parse_blueprint(edited).to_weval()["prompts"][0]
    assert prompt["messages"][0]["content"] == "one\u2028still one\ntwo\n"
    assert prompt["idealResponse"] == "An ideal\u2028answer"
    assert prompt["points"][0]["text"] == "a\u2029b"


def test_a_point_moved_into_a_block_keeps_its_flow_list() -> None:
    text = TEXT.replace("    - $icontains: paris\n", "    - $word_count_between: [5, 80]\n")
    new = apply(text, MoveIntoBlock(PointRef(0, 1), 2))
    assert "$word_count_between: [5, 80]\n" in new  # as written, not a block list
    assert "- 80" not in new
    before, after = normal(text)["prompts"][0]["points"], normal(new)["prompts"][0]["points"]
    assert after[1][-1] == before[1] and len(after) == len(before) - 1
