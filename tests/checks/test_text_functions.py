"""Upstream's test facts (spec §7.3) for the string functions, plus JS-string traps (§3.4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.checks.text import word_count
from engine.js.engine import run_fresh
from tests.checks.conftest import raw

E_CONTAINS = "Invalid arguments for 'contains'. Expected a string."

# (function, response, argument, expected raw result)
FACTS = [
    # contains.test.ts
    ("contains", "This is a test response.", "test", True),
    ("contains", "This is a sample response.", "test", False),
    ("contains", "This is a Test response.", "test", False),
    ("contains", "This is a test response.", 123, {"error": E_CONTAINS}),
    ("contains", "This is a test response.", "", True),
    ("contains", "", "test", False),
    ("contain", "hello world", "world", True),
    # point-functions.test.ts
    ("is_json", '{"key": "value"}', None, True),
    ("is_json", '{key: "value"}', None, False),
    ("is_json", "just a string", None, False),
    ("is_json", "[1, 2, 3]", None, True),
    ("is_json", '"a string literal"', None, False),
    ("starts_with", "Hello world", "Hello", True),
    ("starts_with", "Hello world", "world", False),
    (
        "starts_with",
        "Hello world",
        123,
        {"error": "Invalid arguments for 'starts_with'. Expected a string prefix."},
    ),
    ("ends_with", "Hello world", "world", True),
    ("ends_with", "Hello world", "Hello", False),
    (
        "ends_with",
        "Hello world",
        123,
        {"error": "Invalid arguments for 'ends_with'. Expected a string suffix."},
    ),
    ("word_count_between", "one two three four", [3, 5], 1.0),
    ("word_count_between", "one two", [4, 8], 0.5),
    ("word_count_between", "one two three four five", [2, 4], 0.8),
    (
        "word_count_between",
        "text",
        [5, 3],
        {
            "error": "Invalid arguments for 'word_count_between'. Expected an array with two numbers [min, max] where 0 <= min <= max."
        },
    ),
    ("contains_any_of", "hello world", ["world", "foo"], True),
    ("contains_any_of", "hello world", ["foo", "bar"], False),
    (
        "contains_any_of",
        "hello world",
        "world",
        {"error": "Invalid arguments for 'contains_any_of'. Expected an array of strings."},
    ),
    ("contains_all_of", "hello cruel world", ["world", "hello"], 1.0),
    ("contains_all_of", "hello world", ["hello", "foo"], 0.5),
    ("contains_all_of", "hello world", ["goodbye", "foo"], 0.0),
    (
        "contains_all_of",
        "hello world",
        "world",
        {"error": "Invalid arguments for 'contains_all_of'. Expected an array of strings."},
    ),
    ("icontains", "Hello World", "hello", True),
    ("icontains", "Hello World", "goodbye", False),
    ("icontains_all_of", "Hello Cruel WORLD", ["world", "HELLO"], 1.0),
    ("icontains_all_of", "HELLO world", ["hello", "foo"], 0.5),
    ("icontains_all_of", "hello world", ["GOODBYE", "FOO"], 0.0),
    (
        "icontains_all_of",
        "hello world",
        "world",
        {"error": "Invalid arguments for 'icontains_all_of'. Expected an array of strings."},
    ),
    ("icontains_any_of", "Hello WORLD", ["world", "foo"], True),
    ("icontains_any_of", "hello world", ["FOO", "BAR"], False),
    (
        "icontains_any_of",
        "hello world",
        "world",
        {"error": "Invalid arguments for 'icontains_any_of'. Expected an array of strings."},
    ),
    ("istarts_with", "Hello world", "hello", True),
    ("istarts_with", "HELLO world", "hello", True),
    ("istarts_with", "Hello world", "WORLD", False),
    (
        "istarts_with",
        "Hello world",
        123,
        {"error": "Invalid arguments for 'istarts_with'. Expected a string prefix."},
    ),
    ("iends_with", "Hello world", "WORLD", True),
    ("iends_with", "Hello WORLD", "world", True),
    ("iends_with", "Hello world", "HELLO", False),
    (
        "iends_with",
        "Hello world",
        123,
        {"error": "Invalid arguments for 'iends_with'. Expected a string suffix."},
    ),
    # all_of.test.ts
    ("contains_all_of", "hello world, this is a test", ["hello", "world", "test"], 1.0),
    ("contains_all_of", "hello world, this is a test", ["hello", "world", "missing"], 2 / 3),
    ("contains_all_of", "hello world, this is a test", ["foo", "bar", "baz"], 0.0),
    ("contains_all_of", "hello world, this is a test", [], 1.0),
    (
        "contains_all_of",
        "hello world, this is a test",
        "not-an-array",
        {"error": "Invalid arguments for 'contains_all_of'. Expected an array of strings."},
    ),
    # at_least_n_of.test.ts
    ("contains_at_least_n_of", "one two three four five", [3, ["one", "two", "three"]], 1.0),
    ("contains_at_least_n_of", "one two three four five", [2, ["one", "two", "three"]], 1.0),
    ("contains_at_least_n_of", "one two three four five", [4, ["one", "two", "six"]], 0.5),
    (
        "contains_at_least_n_of",
        "one two three four five",
        [3, "one"],
        {
            "error": "Invalid arguments for 'contains_at_least_n_of'. Expected an array of the format [n, ['substring1', 'substring2', ...]]."
        },
    ),
    ("icontains_at_least_n_of", "One Two Three Four Five", [3, ["one", "two", "THREE"]], 1.0),
    (
        "icontains_at_least_n_of",
        "One Two Three Four Five",
        [5, ["one", "two", "six", "SEVEN", "eight"]],
        0.4,
    ),
    # spec §3.3 edge cases
    ("contains_any_of", "anything", [], False),
    ("contains_at_least_n_of", "abc", [0, ["zzz"]], 1.0),
    ("contains_at_least_n_of", "abc", [-1, []], 1.0),
    ("contains_at_least_n_of", "abc", [2, []], 0.0),
    ("contains_at_least_n_of", "abc", [2, ["a", "a"]], 1.0),
    (
        "contains_at_least_n_of",
        "abc",
        [1, ["a"], "extra"],
        {
            "error": "Invalid arguments for 'contains_at_least_n_of'. Expected an array of the format [n, ['substring1', 'substring2', ...]]."
        },
    ),
    (
        "contains_at_least_n_of",
        "abc",
        [True, ["a"]],
        {
            "error": "Invalid arguments for 'contains_at_least_n_of'. Expected an array of the format [n, ['substring1', 'substring2', ...]]."
        },
    ),
    ("starts_with", " abc", "abc", False),
    ("ends_with", "abc\n", "abc", False),
    ("word_count_between", "a b c", [2.5, 2.9], 2.9 / 3),
    ("word_count_between", "", [0, 5], 1.0),
    ("word_count_between", "a b c", [0, 0], 0.0),
    (
        "word_count_between",
        "a b",
        [-1, 3],
        {
            "error": "Invalid arguments for 'word_count_between'. Expected an array with two numbers [min, max] where 0 <= min <= max."
        },
    ),
    (
        "word_count_between",
        "a b",
        [1, 2, 3],
        {
            "error": "Invalid arguments for 'word_count_between'. Expected an array with two numbers [min, max] where 0 <= min <= max."
        },
    ),
    (
        "word_count_between",
        "a b",
        ["1", 2],
        {
            "error": "Invalid arguments for 'word_count_between'. Expected an array with two numbers [min, max] where 0 <= min <= max."
        },
    ),
    ("is_json", '  {"a": [1, 2]}\n\t', True, True),
    ("is_json", "```json\n{}\n```", None, False),
    ("is_json", "123", None, False),
    ("is_json", "null", None, False),
    ("is_json", "[NaN]", None, False),
    ("is_json", '{"a": Infinity}', None, False),
    ("is_json", "\ufeff{}", None, False),
    ("is_json", "\u00a0{}", None, False),
    ("is_json", '{"a": 1,}', None, False),
    ("is_json", "[" * 3000 + "]" * 3000, None, True),
]


@pytest.mark.parametrize(("fn", "text", "args", "expected"), FACTS)
def test_upstream_facts(fn, text, args, expected):
    result = raw(fn, text, args)
    if isinstance(expected, float) and not isinstance(expected, bool):
        assert isinstance(result, float)
        assert result == pytest.approx(expected, abs=1e-12)
    else:
        assert result == expected
        assert type(result) is type(expected)


# JS whitespace and case traps (spec §3.4)
WORD_COUNTS = [
    ("a\ufeffb", 2),  # U+FEFF is whitespace in JS, not in Python
    ("a\u00a0b", 2),
    ("a\u2028b\u2029c", 3),
    ("a\x1cb", 1),  # Python's str.split() would say 2
    ("a\x85b", 1),
    ("a\u200bb", 1),  # zero-width space is not whitespace in JS
    ("  leading and trailing  ", 3),
    ("tab\tnew\nline\rcr\x0bvt\x0cff", 6),
    ("\u3000ideographic\u3000space", 2),
]


@pytest.mark.parametrize(("text", "words"), WORD_COUNTS)
def test_word_count_uses_the_js_whitespace_set(text, words):
    assert raw("word_count_between", text, [words, words]) == 1.0
    assert raw("word_count_between", text, [words + 1, words + 1]) == words / (words + 1)


CASE_TRAPS = [
    ("icontains", "STRASSE", "straße", False),
    ("icontains", "ΟΔΟΣ", "οδο\u03c3", False),  # final sigma: toLowerCase gives ς, not σ
    ("icontains", "ΟΔΟΣ", "οδο\u03c2", True),
    ("icontains", "İstanbul", "i̇stanbul", True),  # İ lowercases to i + combining dot
    ("icontains", "ſ", "s", False),
    ("icontains", "\u212a", "k", True),  # Kelvin sign lowercases to k
]


@pytest.mark.parametrize(("fn", "text", "needle", "expected"), CASE_TRAPS)
def test_case_insensitivity_is_js_to_lower_case(fn, text, needle, expected):
    assert raw(fn, text, needle) is expected
    oracle = run_fresh(
        "(function (p) { const [t, n] = JSON.parse(p);"
        " return JSON.stringify(t.toLowerCase().includes(n.toLowerCase())); })",
        [text, needle],
    )
    assert oracle is expected


TRICKY = "aZ İK\u212aſßς\u00a0\ufeff\u2028\x1c\x85\t\n é😀.-"


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=TRICKY, max_size=30), needle=st.text(alphabet=TRICKY, max_size=3))
def test_fast_paths_agree_with_quickjs(text, needle):
    oracle = run_fresh(
        "(function (p) { const [t, n] = JSON.parse(p); return JSON.stringify(["
        "(t.match(/\\S+/g) || []).length, t.toLowerCase().includes(n.toLowerCase()),"
        "t.toLowerCase().startsWith(n.toLowerCase()), t.toLowerCase().endsWith(n.toLowerCase())]); })",
        [text, needle],
    )
    assert word_count(text) == oracle[0]
    assert [raw(f, text, needle) for f in ("icontains", "istarts_with", "iends_with")] == oracle[1:]


def test_is_json_reads_an_integer_of_more_than_4300_digits_as_json_parse_does():
    from engine.js.strings import js_json_parse

    ok, value = js_json_parse("[1" + "0" * 5000 + "]")
    assert ok and value == [float("inf")]
    assert js_json_parse("[NaN]") == (False, None)
    assert js_json_parse('{"a": 1') == (False, None)
