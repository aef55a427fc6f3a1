"""Patterns JavaScript matches at once are no false timeout on a 3 MB answer (issue 32, item 8).

`(a{1000}){1000}` runs in QuickJS (the `regex` module would expand it): QuickJS spent seconds
resetting the repeated group's capture, and 100 ms is less than it needs to scan megabytes.
"""

from __future__ import annotations

import pytest

from engine.js.engine import js_regex_test
from engine.js.regex import compile_js_regex
from engine.js.regex_run import match_time_limit, without_captures
from tests.checks.conftest import raw

MB3 = 3_000_000


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a" * MB3, True), ("b" * MB3, False), ("b" * (MB3 - 1_000_001) + "a" * 1_000_001, True)],
    ids=["all a", "all b", "a run at the end"],
)
def test_a_counted_group_repeat_on_a_3_mb_answer_is_matched_not_timed_out(
    text: str, expected: bool
) -> None:
    assert raw("matches", text, "(a{1000}){1000}") is expected
    assert raw("not_matches", text, "(?<run>a{1000}){1000}") is (not expected)


def test_catastrophic_backtracking_on_a_short_answer_still_stops_at_100_ms() -> None:
    result = raw(
        "matches",
        "a" * 40 + "!",
        "^(a|a)*$",
    )
    assert isinstance(result, dict) and "took longer than 100 ms" in result["error"]


def test_the_limit_grows_with_the_text_only() -> None:
    assert match_time_limit(0) == pytest.approx(0.1)
    assert match_time_limit(MB3) == pytest.approx(0.7)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("(a{1000}){1000}", "(?:a{1000}){1000}"),
        (r"\(a\)(b)", r"\(a\)(?:b)"),
        ("[(]a(b)", "[(]a(?:b)"),
        ("[]](a)", "[]](?:a)"),
        (r"[\]](a)", r"[\]](?:a)"),
        ("(?<n>x)(?<=y)(?<!z)(?:q)(?=r)(?!s)", "(?:x)(?<=y)(?<!z)(?:q)(?=r)(?!s)"),
    ],
)
def test_captures_are_dropped_and_nothing_else(pattern: str, expected: str) -> None:
    assert without_captures(pattern) == expected


@pytest.mark.parametrize(
    "pattern",
    ["(a|ab)(c|bcd)(d*)", "^(a+)+b$", "(x)?(?:y(z))*", "((a)|b)+c", "(?<w>\\w+) (\\d)"],
)
@pytest.mark.parametrize("text", ["abcd", "aaab", "yzyz", "babac", "word 7", ""])
def test_without_captures_quickjs_answers_the_same(pattern: str, text: str) -> None:
    assert js_regex_test(without_captures(pattern), "", text) == js_regex_test(pattern, "", text)


def test_patterns_with_backreferences_keep_their_captures() -> None:
    compiled = compile_js_regex("(a|b)\\1")
    assert not compiled.translated and compiled.run_source is None
    assert compiled.test("xbb") and not compiled.test("xab")
