"""Upstream's facts for the regex functions and `contains_word` (spec §7.3), JS traps (§3.4)."""

from __future__ import annotations

import re

import pytest

from engine.js.engine import js_regex_test
from tests.checks.conftest import raw

FOX = "The quick brown fox jumps over the lazy dog."
EMAIL = r"[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}"

FACTS = [
    # matches.test.ts
    ("matches", FOX, "brown fox", True),
    ("matches", "Contact us at info@example.com for more.", EMAIL, True),
    ("matches", FOX, "^test$", False),
    ("matches", "CaSe SeNsItIvE", "[Cc][Aa][Ss][Ee] [Ss][Ee][Nn][Ss][Ii][Tt][Ii][Vv][Ee]", True),
    ("matches", "case sensitive", "[Cc][Aa][Ss][Ee] [Ss][Ee][Nn][Ss][Ii][Tt][Ii][Vv][Ee]x", False),
    ("matches", FOX, 123, {"error": "Invalid arguments for 'matches'. Expected a regex string."}),
    ("match", FOX, "lazy", True),
    # point-functions.test.ts
    ("imatches", "Sentence.", r"^sentence\.$", True),
    ("imatches", "Sentence.", "^foo", False),
    ("imatch", "Sentence.", r"^SENTENCE\.$", True),
    # all_of.test.ts
    ("matches_all_of", "The number is 123 and the color is blue.", [r"\d+", "blue"], 1.0),
    ("matches_all_of", "The number is 123 and the color is blue.", [r"\d+", "red"], 0.5),
    ("matches_all_of", "The number is 123 and the color is blue.", [r"^\s+$", "red"], 0.0),
    ("match_all_of", "abc", [], 1.0),
    ("imatch_all_of", "The number is 123 and the color is Blue.", [r"\d+", "blue"], 1.0),
    ("imatch_all_of", "The number is 123 and the color is Blue.", [r"\d+", "RED"], 0.5),
    (
        "matches_all_of",
        "abc",
        "abc",
        {"error": "Invalid arguments for 'matches_all_of'. Expected an array of regex strings."},
    ),
    # at_least_n_of.test.ts
    (
        "matches_at_least_n_of",
        "There are 3 apples and 4 oranges.",
        [2, [r"\d+ apples", r"\d+ oranges"]],
        1.0,
    ),
    (
        "matches_at_least_n_of",
        "There are 3 apples and 4 oranges.",
        [3, ["apples", "oranges", "pears"]],
        2 / 3,
    ),
    (
        "imatch_at_least_n_of",
        "There are 3 Apples and 4 Oranges.",
        [2, [r"\d+ apples", r"\d+ oranges"]],
        1.0,
    ),
    (
        "imatch_at_least_n_of",
        "There are 3 Apples and 4 Oranges.",
        [2, [r"\d+ APPLES", r"\d+ PEARS"]],
        0.5,
    ),
    ("matches_at_least_n_of", "x", [0, ["["]], 1.0),  # n <= 0: nothing is compiled
    (
        "matches_at_least_n_of",
        "x",
        [1, "x"],
        {
            "error": "Invalid arguments for 'matches_at_least_n_of'. Expected an array of the format [n, ['pattern1', 'pattern2', ...]]."
        },
    ),
    (
        "imatch_at_least_n_of",
        "x",
        [1, "x"],
        {
            "error": "Invalid arguments for 'imatch_at_least_n_of'. Expected an array of the format [n, ['pattern1', 'pattern2', ...]]."
        },
    ),
    # not_*.test.ts (spec §7.3)
    ("not_contains", "anything", "", False),
    ("not_contains", "Price: $100", "$50", True),
    ("not_contains_all_of", "The quick brown fox", ["quick", "brown", "slow"], 1 / 3),
    ("not_contains_all_of", "The quick brown fox", [], 0.0),
    ("not_contains_any_of", "The quick brown fox", [], True),
    ("not_ends_with", "anything", "", False),
    ("not_ends_with", "Hi", "Hello world", True),
    ("not_imatches", "Contact: INFO@EXAMPLE.COM", r"[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}", False),
    ("not_istarts_with", "anything", "", False),
    ("not_contains", "x", 123, {"error": "Invalid arguments for 'contains'. Expected a string."}),
    (
        "not_matches",
        "x",
        "[",
        {
            "error": "Invalid regex pattern for 'matches': Invalid regular expression: /[/: Unterminated character class"
        },
    ),
    ("not_start_with", "Hello", "He", False),
    ("not_icontain", "Hello", "HELLO", False),
]


@pytest.mark.parametrize(("fn", "text", "args", "expected"), FACTS)
def test_upstream_facts(fn, text, args, expected):
    result = raw(fn, text, args)
    if isinstance(expected, float):
        assert result == pytest.approx(expected, abs=1e-12)
    else:
        assert result == expected
        assert type(result) is type(expected)


def test_invalid_pattern_messages_are_v8s():
    result = raw("matches", "x", "[")
    assert re.match(
        r"^Invalid regex pattern for 'matches': .*Unterminated character class", result["error"]
    )
    assert raw("imatches", "x", "(?i)abc") == {
        "error": "Invalid regex pattern for 'imatches': Invalid regular expression: /(?i)abc/i: Invalid group"
    }
    assert raw("matches", "x", "(?i)abc") == {
        "error": "Invalid regex pattern for 'matches': Invalid regular expression: /(?i)abc/: Invalid group"
    }
    assert raw("matches_all_of", "x", ["x", "["]) == {
        "error": "Invalid regex pattern in 'matches_all_of': Invalid regular expression: /[/: Unterminated character class"
    }
    assert raw("imatch_at_least_n_of", "x", [1, ["a**"]]) == {
        "error": "Invalid regex pattern in 'imatch_at_least_n_of': Invalid regular expression: /a**/i: Nothing to repeat"
    }


# spec §3.4: pattern, flags, text, JS result (the reference), and Python re's different answer
JS_TRAPS = [
    (r"^Report #\d+$", "", "Report #12\n", False),
    (r"\d", "", "١٢٣", False),
    (r"\w", "", "é", False),
    (r"caf\b", "", "café!", True),
    ("s", "i", "ſ", False),
    ("k", "i", "\u212a", False),
    (r"\s", "", "\ufeff", True),
    (r"\s", "", "\x1c", False),
    (".", "", "\n", False),
    (".", "", "\u2028", False),
    ("^.$", "", "😀", False),  # one astral character is two UTF-16 code units
    ("^..$", "", "😀", True),
    ("a{", "", "a{", True),  # Annex B: a lone brace is a literal
    ("]", "", "]", True),
    (r"\c", "", "\\c", True),  # \c without a letter is a literal backslash
    (r"\cJ", "", "\n", True),
    (r"\101", "", "A", True),  # octal escape
    (r"\8", "", "8", True),
    (r"(?<=\$)\d+", "", "cost $42", True),  # lookbehind
    (r"(?<year>\d{4})-\k<year>", "", "2024-2024", True),  # named group and back-reference
    (r"(a)?\1b", "", "b", True),  # a back-reference to an unset group matches empty
    ("ß", "i", "ẞ", False),
    ("σ", "i", "ς", True),
    (r"[^a]", "i", "A", False),
    (r"\u00e9", "", "é", True),
    (r"\p{L}", "", "p{L}", True),  # no `u` flag: \p is just `p`
    (r"x*$", "", "abc\n", True),
]


@pytest.mark.parametrize(("pattern", "flags", "text", "expected"), JS_TRAPS)
def test_js_regex_traps(pattern, flags, text, expected):
    fn = "imatches" if flags == "i" else "matches"
    assert raw(fn, text, pattern) is expected
    assert js_regex_test(pattern, flags, text) is expected  # the oracle agrees


def test_catastrophic_backtracking_ends_with_an_error_quickly():
    import time

    for pattern in (r"^(a|aa)+$", r"^(a|aa)+\1?(b)\2$"):  # regex module, then QuickJS
        start = time.perf_counter()
        result = raw("matches", "a" * 60 + "!", pattern)
        assert time.perf_counter() - start < 5  # never a hang (the limit is 100 ms)
        assert result == {
            "error": "Regex evaluation failed in 'matches': matching took longer than 100 ms "
            "(catastrophic backtracking); simplify the pattern"
        }


# contains_word.test.ts and friends
WORD_FACTS = [
    ("The Paraná River flows south", "Paraná", True),
    ("São Paulo is big", "São", True),
    ("The café serves crème brûlée", "café", True),
    ("The café serves crème brûlée", "crème", True),
    ("The café serves crème brûlée", "brûlée", True),
    ("Hello world", "ell", False),
    ("Hello world", "orl", False),
    ("Paraná is a river", "Paraná", True),
    ("The river is the Paraná", "Paraná", True),
    ("Brazil, Paraguay, and Argentina", "Paraguay", True),
    ("The Paraná—a major river—flows south", "Paraná", True),
    ("The Amazon River", "amazon", False),
    ("This is a well-known fact", "well", True),
    ("This is a well-known fact", "known", True),
    ("This is a well-known fact", "well-known", True),
    ("长江 is the Yangtze River", "长江", True),
    ("长江 is the Yangtze River", "Yangtze", True),
    ("النيل نهر طويل", "النيل", True),
    ("Москва — столица", "Москва", True),
    ("The variable_name is defined", "variable_name", True),
    ("The variable_name is defined", "variable", False),
    ("Any text", "", True),
    ("Cost is $100.00 (dollars)", "$100.00", True),
    ("Cost is $100.00 (dollars)", "(dollars)", True),
    ("The Paranáense region", "Paraná", False),
    ("It's a beautiful day", "It", True),
    ("x1 and x", "x", True),
    ("x1", "x", False),
    ("naïve", "na", False),
]


@pytest.mark.parametrize(("text", "word", "expected"), WORD_FACTS)
def test_contains_word(text, word, expected):
    assert raw("contains_word", text, word) is expected
    assert raw("not_contains_word", text, word) is (not expected)
    if word:  # upstream answers true for '' before building a regex
        assert js_regex_test(_word_pattern(word), "u", text) is expected


ICASE_WORD_FACTS = [
    ("The Paraná River", "PARANÁ", True),
    ("São Paulo", "SÃO", True),
    ("São Paulo", "sÃo", True),
    ("The café serves crème brûlée", "CAFÉ", True),
    ("The café serves crème brûlée", "BRÛLÉE", True),
    ("Москва — столица", "москва", True),
    ("Москва — столица", "МОСКВА", True),
    ("Москва — столица", "киев", False),
    ("长江 is the Yangtze River", "yangtze", True),
    ("The Amazon River", "RiVeR", True),
    ("ſome text", "some", True),  # with `u`, case folding maps ſ to s
    ("\u212aelvin", "kelvin", True),
]


@pytest.mark.parametrize(("text", "word", "expected"), ICASE_WORD_FACTS)
def test_icontains_word(text, word, expected):
    assert raw("icontains_word", text, word) is expected
    assert raw("not_icontains_word", text, word) is (not expected)
    assert js_regex_test(_word_pattern(word), "iu", text) is expected


def test_contains_word_errors_and_empty_word():
    assert raw("contains_word", "x", 123) == {
        "error": "Invalid arguments for 'contains_word'. Expected a string."
    }
    assert raw("not_contains_word", "Any text", "") is False
    assert raw("icontains_word", "x", None) == {
        "error": "Invalid arguments for 'icontains_word'. Expected a string."
    }


def _word_pattern(word: str) -> str:
    escaped = re.sub(r"[.*+?^${}()|[\]\\]", lambda m: "\\" + m.group(0), word)
    return rf"(?<![\p{{L}}\p{{N}}_]){escaped}(?![\p{{L}}\p{{N}}_])"
