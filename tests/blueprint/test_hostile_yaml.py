"""Hostile and odd YAML: alias bombs, deep nesting, numbers as js-yaml 4.1.0 reads them."""

from __future__ import annotations

import math

import pytest

from engine.blueprint import parse_blueprint
from engine.blueprint.compose import MAX_ALIAS_ITEMS, MAX_DEPTH
from engine.blueprint.scalars import resolve_plain, timestamp_json
from engine.blueprint.source import load_json_documents, load_yaml_documents
from engine.errors import BlueprintError
from engine.lint import lint


def _value(text: str) -> object:
    docs = load_yaml_documents(f"v: {text}\n")
    return docs[0][0]["v"]


# Expected values produced by js-yaml 4.1.0 on Node 20 (`yaml.load("v: " + text).v`).
JS_YAML_NUMBERS = [
    ("1_0", 10),
    ("0b11", 3),
    ("0o17", 15),
    ("0x1F", 31),
    ("0x1f", 31),
    ("+0x1F", 31),
    ("-0x1F", -31),
    ("-0b11", -3),
    ("+0b11", 3),
    ("-0o17", -15),
    ("+0o17", 15),
    ("1_000.5", 1000.5),
    ("0_1", 1.0),
    ("0b_1", 1),
    ("0x_F", 15),
    ("012", 12),
    ("08", 8),
    ("1__0", 10),
    ("1e5", 100000.0),
    ("1.e5", 100000.0),
    ("._5", 0.5),
    ("0_.5", 0.5),
    ("00.5", 0.5),
    ("1_0.", 10.0),
    ("1_000_000", 1000000),
    ("+1_0", 10),
    ("-1_0", -10),
    ("0b1010_1010", 170),
    ("0o1_7", 15),
    ("0x1_F", 31),
    ("1e+5", 100000.0),
    ("1E-5", 0.00001),
    ("9007199254740993", 9007199254740992),
    ("123456789012345678901234567890", 1.2345678901234568e29),
    ("0x7FFFFFFFFFFFFFFFFF", 2.3611832414348226e21),
    ("1e400", math.inf),
    ("-1e400", -math.inf),
    ("-0", 0),
    ("+0", 0),
]
# Texts js-yaml 4.1.0 keeps as strings.
JS_YAML_STRINGS = [
    "_1",
    "1_",
    "0b",
    "0x",
    "0o",
    "0b1_",
    "0X1F",
    "0B11",
    "0O17",
    "0o8",
    ".5_",
    "1_0e1_0",
    "1e1_0",
    "+.5",
    "-.5",
    "0xg",
    "_1.5",
    "+_1",
    "-_1",
    "1.5.5",
    "0x1.5",
    "1e",
    "1:30",
]


@pytest.mark.parametrize(("text", "expected"), JS_YAML_NUMBERS)
def test_numbers_read_as_js_yaml_4_reads_them(text: str, expected: float) -> None:
    value = _value(text)
    assert isinstance(value, int | float) and not isinstance(value, bool)
    assert value == expected
    assert type(value) is type(expected) or math.isinf(expected)


@pytest.mark.parametrize("text", JS_YAML_STRINGS)
def test_texts_that_js_yaml_keeps_as_strings(text: str) -> None:
    assert _value(text) == text


def test_negative_zero_as_js_yaml() -> None:
    # js-yaml: `-0` is 0, but `-00`, `-0x0` and `-0.0` are -0.
    assert math.copysign(1, _value("-0")) == 1  # type: ignore[arg-type]
    for text in ("-00", "-0x0", "-0.0"):
        value = _value(text)
        assert value == 0 and math.copysign(1, value) == -1  # type: ignore[arg-type]


def test_underscored_numbers_in_weights_and_arguments() -> None:
    bp = parse_blueprint(
        "- prompt: hi\n"
        "  should:\n"
        "    - $word_count_between: [0b11, 0x1F]\n"
        "      weight: 1_0\n"
        "    - text: judged\n"
        "      weight: 0o7\n"
    )
    points = bp.to_weval()["prompts"][0]["points"]
    assert points[0]["fnArgs"] == [3, 31]
    assert points[0]["multiplier"] == 10
    assert points[1]["multiplier"] == 7


@pytest.mark.parametrize("digits", [4301, 5000, 100_000])
def test_integers_of_any_length_are_numbers_not_tracebacks(digits: int) -> None:
    assert _value("1" * digits) == math.inf
    assert _value("-" + "9" * digits) == -math.inf
    assert _value("0x" + "f" * digits) == math.inf
    assert _value("1" * digits + ".5") == math.inf
    assert load_json_documents('{"v": ' + "1" * digits + "}")[0][0]["v"] == math.inf


def test_huge_integer_in_a_weight_is_a_positioned_blueprint_error() -> None:
    text = "- prompt: hi\n  should:\n    - text: x\n      weight: " + "7" * 5000 + "\n"
    with pytest.raises(BlueprintError) as info:
        parse_blueprint(text)
    assert info.value.line == 3
    assert "set_int_max_str_digits" not in str(info.value)


def test_explicit_int_tag_follows_js_yaml_resolution() -> None:
    assert _value("!!int 1_0") == 10
    with pytest.raises(BlueprintError) as info:
        _value("!!int 1_")
    assert (info.value.line, info.value.column) == (1, 4)


# `JSON.stringify(yaml.load("v: " + text).v)` from js-yaml 4.1.0 on Node 20.
JS_DATES = [
    ("0000-01-01", "1900-01-01T00:00:00.000Z"),
    ("0099-12-31", "1999-12-31T00:00:00.000Z"),
    ("2024-13-01", "2025-01-01T00:00:00.000Z"),
    ("2024-02-30", "2024-03-01T00:00:00.000Z"),
    ("2024-00-00", "2023-11-30T00:00:00.000Z"),
    ("9999-12-31T99:99:99", "+010000-01-04T04:40:39.000Z"),
    ("2024-1-1 1:00:00.123456 +99:99", "2023-12-27T20:21:00.123Z"),
    ("2001-12-14t21:59:43.10-05:00", "2001-12-15T02:59:43.100Z"),
    ("1970-01-01 00:00:00 -1", "1970-01-01T01:00:00.000Z"),
    ("0001-01-01T00:00:00+14:00", "1900-12-31T10:00:00.000Z"),
]


@pytest.mark.parametrize(("text", "expected"), JS_DATES)
def test_out_of_range_dates_roll_over_as_javascript_dates(text: str, expected: str) -> None:
    assert timestamp_json(text) == expected
    assert resolve_plain(text) == expected


def _bomb(levels: int, width: int = 9) -> str:
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_at_the_alias_that_passes_the_limit() -> None:
    with pytest.raises(BlueprintError) as info:
        load_yaml_documents(_bomb(10))
    assert f"more than {MAX_ALIAS_ITEMS:,} items" in info.value.message
    assert info.value.line is not None and info.value.line <= 7
    assert info.value.column is not None


def test_a_long_text_repeated_counts_for_its_length() -> None:
    text = "a: &a " + "x" * 100_000 + "\nb: [" + ", ".join(["*a"] * 1000) + "]\n"
    with pytest.raises(BlueprintError, match="repeats anchors"):
        load_yaml_documents(text)


def test_ordinary_aliases_are_kept() -> None:
    text = "base: &b {weight: 2, text: x}\nitems: [*b, *b, {<<: *b, weight: 3}]\n"
    doc = load_yaml_documents(text)[0][0]
    assert doc["items"][0] == {"weight": 2, "text": "x"}
    assert doc["items"][2] == {"weight": 3, "text": "x"}


def test_anchors_may_be_redefined_as_in_js_yaml() -> None:
    doc = load_yaml_documents("a: &x 1\nb: &x 2\nc: *x\n")[0][0]
    assert doc == {"a": 1, "b": 2, "c": 2}


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 200_000])
def test_deep_flow_nesting_is_a_positioned_error(depth: int) -> None:
    with pytest.raises(BlueprintError) as info:
        load_yaml_documents("a: " + "[" * depth + "]" * depth + "\n")
    assert (info.value.line, info.value.column) == (1, MAX_DEPTH + 3)  # the mapping is level 1


def test_deep_block_nesting_is_a_positioned_error() -> None:
    lines = ["a:"] + [" " * i + "b:" for i in range(1, MAX_DEPTH + 5)]
    with pytest.raises(BlueprintError, match="nested more than") as info:
        load_yaml_documents("\n".join(lines) + " x\n")
    assert info.value.line == MAX_DEPTH + 1


def test_nesting_up_to_the_limit_is_read() -> None:
    depth = MAX_DEPTH - 1
    doc = load_yaml_documents("a: " + "[" * depth + "1" + "]" * depth + "\n")[0][0]
    value = doc["a"]
    for _ in range(depth - 1):
        value = value[0]
    assert value == [1]


def test_deep_json_is_a_positioned_error() -> None:
    with pytest.raises(BlueprintError, match="nested more than") as info:
        load_json_documents("[" * 100_000 + "]" * 100_000)
    assert info.value.line == 1


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("title: x\nprompt: h\x00i\n", 2, 10),
        ("title: é\x07\n", 1, 9),
        # U+2028 is no line break for js-yaml (YAML 1.2) nor for editors: line 2, column 5
        ("a: b\n\u2028c: \x01\n", 2, 5),
    ],
)
def test_control_characters_are_reported_at_their_position(
    text: str, line: int, column: int
) -> None:
    with pytest.raises(BlueprintError) as info:
        load_yaml_documents(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert "position" not in info.value.message


def test_messages_quote_only_a_short_excerpt() -> None:
    long = "y" * 10_000
    with pytest.raises(BlueprintError) as info:
        load_yaml_documents(f"v: !!int {long}\n")
    assert len(info.value.message) < 200
    with pytest.raises(BlueprintError) as info:
        load_yaml_documents(f"{long}: 1\n{long}: 2\n")
    assert len(info.value.message) < 300


def test_parser_messages_quote_a_short_excerpt_of_a_long_value() -> None:
    text = "- prompt: hi\n  should:\n    - [[" + ", ".join(["x" * 50] * 200) + "]]\n"
    with pytest.raises(BlueprintError) as info:
        parse_blueprint(text)
    assert "Nested arrays" in info.value.message
    assert len(info.value.message) < 400 and "x" * 61 not in info.value.message


def test_a_passed_through_value_of_the_wrong_type_is_positioned() -> None:
    with pytest.raises(BlueprintError) as info:
        parse_blueprint("title: t\ntemperatures: [A]\n---\n- prompt: hi\n")
    assert (info.value.line, info.value.column) == (2, 15)
    assert "wrong type" in info.value.message and "pydantic" not in info.value.message


def test_a_lone_surrogate_is_positioned() -> None:
    with pytest.raises(BlueprintError) as info:
        load_yaml_documents("title: x\nprompt: a\ud800b\n")
    assert (info.value.line, info.value.column) == (2, 10)


UNICODE_BREAKS = [
    # (text of the first prompt, and of its point, as written; js-yaml reads both as they are)
    ("hi\u2028there", "a\u2029b"),
    ("caf\u00e9\u0085 ok", "x\u2028 y"),
    ('"quoted\u2028text"', "'single\u2029quoted'"),
    ("|\n    line one\u2028still one\n    line two", "p"),
    (">\n    folded\u0085\n    more", "q"),
]


@pytest.mark.parametrize(("prompt", "point"), UNICODE_BREAKS)
def test_unicode_line_breaks_are_characters_of_a_text_as_in_js_yaml(
    prompt: str, point: str
) -> None:
    # libyaml (YAML 1.1) ended lines at U+0085, U+2028 and U+2029, so these were syntax
    # errors or lost characters; js-yaml 4 (YAML 1.2) ends lines at LF and CR only
    text = f"title: t\u2028x\n---\n- prompt: {prompt}\n  should:\n    - {point}\n"
    weval = parse_blueprint(text).to_weval()
    expected = {
        "hi\u2028there": "hi\u2028there",
        "caf\u00e9\u0085 ok": "caf\u00e9\u0085 ok",
        '"quoted\u2028text"': "quoted\u2028text",
        "|\n    line one\u2028still one\n    line two": "line one\u2028still one\nline two\n",
        ">\n    folded\u0085\n    more": "folded\u0085 more\n",
    }[prompt]
    assert weval["title"] == "t\u2028x"
    assert weval["prompts"][0]["messages"][0]["content"] == expected
    assert weval["prompts"][0]["points"][0]["text"] == point.strip("'")
    assert not [d for d in lint(text) if d.severity == "error"]


def test_positions_after_a_unicode_line_break_count_lines_as_js_yaml() -> None:
    text = "title: a\u2028b\u0085c\n---\n- prompt: hi\n  should: [a\n  bad: x\n"
    with pytest.raises(BlueprintError) as info:
        parse_blueprint(text)
    assert (info.value.line, info.value.column) == (5, 6)
    assert [(d.line, d.column) for d in lint(text) if d.code == "yaml-syntax"] == [(5, 6)]


def test_a_masked_character_is_never_one_the_text_holds_or_escapes() -> None:
    text = 'a: "\\ue000\ue001"\nb: x\u2028y\n'
    docs = load_yaml_documents(text)
    assert docs[0][0] == {"a": "\ue000\ue001", "b": "x\u2028y"}
