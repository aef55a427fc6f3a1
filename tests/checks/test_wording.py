"""Function-point reflections say what happened in the user's terms (issue 14)."""

from __future__ import annotations

import pytest

from engine.checks.registry import CATALOGUE
from tests.checks.conftest import assess

ANSWER = 'Pack your Sandals and a hat. {"a": 1}'


@pytest.mark.parametrize(
    ("fn", "args", "inverted", "text", "expected"),
    [
        # the case: a should_not icontains point over an answer that contains it
        (
            "icontains",
            "sandals",
            True,
            ANSWER,
            "Contains 'sandals' (ignoring case), which it should not: score 0.00.",
        ),
        (
            "icontains",
            "boots",
            True,
            ANSWER,
            "Does not contain 'boots' (ignoring case), as required: score 1.00.",
        ),
        ("contains", "Sandals", False, ANSWER, "Contains 'Sandals', as required: score 1.00."),
        (
            "contains",
            "boots",
            False,
            ANSWER,
            "Does not contain 'boots', but it should: score 0.00.",
        ),
        # not_ forms read the same as should_not of the positive function
        (
            "not_contains",
            "Sandals",
            False,
            ANSWER,
            "Contains 'Sandals', which it should not: score 0.00.",
        ),
        ("not_contains", "Sandals", True, ANSWER, "Contains 'Sandals', as required: score 1.00."),
        ("starts_with", "Pack", False, ANSWER, "Starts with 'Pack', as required: score 1.00."),
        (
            "not_ends_with",
            "hat.",
            False,
            ANSWER,
            "Does not end with 'hat.', as required: score 1.00.",
        ),
        (
            "contains_any_of",
            ["boots", "hat"],
            True,
            ANSWER,
            "Contains one of 'boots', 'hat', which it should not: score 0.00.",
        ),
        (
            "contains_all_of",
            ["hat", "boots"],
            False,
            ANSWER,
            "Contains all of 'hat', 'boots' only in part (50%): score 0.50.",
        ),
        (
            "contains_at_least_n_of",
            [2, ["hat", "Pack", "x"]],
            False,
            ANSWER,
            "Contains at least 2 of 'hat', 'Pack', 'x', as required: score 1.00.",
        ),
        (
            "matches",
            r"\bhat\b",
            True,
            ANSWER,
            r"Matches /\bhat\b/, which it should not: score 0.00.",
        ),
        (
            "not_imatches",
            "^pack",
            False,
            ANSWER,
            "Matches /^pack/ (ignoring case), which it should not: score 0.00.",
        ),
        (
            "matches_all_of",
            ["hat", "boot"],
            False,
            ANSWER,
            "Matches all of /hat/, /boot/ only in part (50%): score 0.50.",
        ),
        (
            "contains_word",
            "Sand",
            False,
            ANSWER,
            "Does not contain the word 'Sand', but it should: score 0.00.",
        ),
        (
            "is_json",
            None,
            False,
            ANSWER,
            "Is not a JSON object or array, but it should: score 0.00.",
        ),
        (
            "word_count_between",
            [1, 3],
            True,
            ANSWER,
            "Has 1 to 3 words only in part (38%), which it should not: score 0.63.",
        ),
        (
            "js",
            "r.length > 3",
            True,
            ANSWER,
            "Passes its JavaScript check, which it should not: score 0.00.",
        ),
        (
            "tool_called",
            "search",
            False,
            ANSWER,
            "Did not call 'search', but it should: score 0.00.",
        ),
        (
            "tool_call_count_between",
            [1, 2, "search"],
            False,
            ANSWER,
            "Did not make 1 to 2 tool calls to 'search', but it should: score 0.00.",
        ),
    ],
)
def test_reflection_says_what_happened(fn, args, inverted, text, expected):
    assessment = assess(fn, text, args, inverted=inverted)
    assert assessment.reflection == expected
    assert "evaluated to" not in expected


def test_every_function_family_has_its_own_words():
    from engine.checks.wording import Wording

    for name, check in CATALOGUE.items():
        if check.typed:
            continue  # typed evaluators write their own reflections
        sentence = Wording(name, "abc", False).reflection(1.0, "1.00")
        assert not sentence.startswith("Function"), name


def test_quotes_only_a_short_excerpt_of_the_argument_and_never_the_answer():
    long_arg = "sandals " * 40
    answer = "SECRET model output " + long_arg
    assessment = assess("contains", answer, long_arg, inverted=True)
    reflection = assessment.reflection or ""
    assert "SECRET" not in reflection and "\n" not in reflection
    assert len(reflection) < 120 and "…" in reflection
