"""Result conversion in one place (spec §3.2) and the evaluator's facts (spec §7.3)."""

from __future__ import annotations

import math

import pytest

from engine.blueprint import parse_blueprint
from engine.checks import CheckEnv, Outcome, convert_result, evaluate_function_points
from engine.evidence import Evidence
from tests.checks.conftest import assess, make_evidence, make_point

POINT = make_point("contains", "x")


@pytest.mark.parametrize(
    ("result", "status", "score", "reflection", "error"),
    [
        (True, "scored", 1.0, "Contains 'x', as required: score 1.00.", None),
        (False, "scored", 0.0, "Does not contain 'x', but it should: score 0.00.", None),
        (
            0.125,
            "scored",
            0.125,
            "Contains 'x' only in part (13%): score 0.13.",
            None,
        ),  # JS toFixed
        (1.005, "scored", 1.0, "Contains 'x', as required: score 1.00.", None),
        (-3, "scored", 0.0, "Does not contain 'x', but it should: score 0.00.", None),
        (10**400, "scored", 1.0, "Contains 'x', as required: score 1.00.", None),
        ({"score": 0.5, "explain": "half"}, "scored", 0.5, "half", None),
        (
            {"score": True, "explain": ""},
            "scored",
            1.0,
            "Contains 'x', as required: score 1.00.",
            None,
        ),
        (
            {"score": 0.3, "explain": 5},
            "scored",
            0.3,
            "Contains 'x' only in part (30%): score 0.30.",
            None,
        ),
        ({"error": "boom", "score": 1}, "errored", None, None, "boom"),
        (
            {"score": "high"},
            "errored",
            None,
            None,
            "Invalid score type returned from point function: string",
        ),
        (
            {"score": None},
            "errored",
            None,
            None,
            "Invalid score type returned from point function: object",
        ),
        (
            {"other": 1},
            "errored",
            None,
            None,
            'Invalid return object from point function: {"other":1}',
        ),
        ([1, 2], "errored", None, None, "Invalid return object from point function: [1,2]"),
        ("yes", "errored", None, None, 'Invalid return value from point function: "yes"'),
        (None, "errored", None, None, "Invalid return value from point function: null"),
    ],
)
def test_conversion_table(result, status, score, reflection, error):
    a = convert_result(POINT, result)
    assert (a.status, a.coverage_extent, a.reflection, a.error) == (
        status,
        score,
        reflection,
        error,
    )
    assert a.kind == "function" and a.fn == "contains"


def test_inversion_happens_after_conversion_and_before_the_reflection():
    point = make_point("contains", "x", inverted=True, multiplier=2.5, citation="R1", path=3)
    a = convert_result(point, 0.25)
    assert a.coverage_extent == 0.75 and a.reflection == (
        "Contains 'x' only in part (25%), which it should not: score 0.75."
    )
    assert (a.is_inverted, a.multiplier, a.citation, a.path_id) == (True, 2.5, "R1", "path_3")
    assert a.key_point_text == 'Function: contains("x")'
    errored = convert_result(point, {"error": "e"})
    assert errored.coverage_extent is None and errored.status == "errored"


@pytest.mark.parametrize("value", [math.nan, {"score": math.nan}])
def test_nan_is_errored_not_scored(value):
    a = convert_result(POINT, value)
    assert a.status == "errored" and a.coverage_extent is None
    assert a.error is not None and "NaN" in a.error and not a.counts


def test_typed_outcomes_keep_status_findings_and_never_score_unless_scored():
    unverified = convert_result(
        POINT, Outcome(status="unverified", score=1.0, reflection="no data")
    )
    assert (unverified.status, unverified.coverage_extent) == ("unverified", None)
    inverted = convert_result(
        make_point("required_text", ["a"], inverted=True), Outcome(status="scored", score=1.0)
    )
    assert inverted.coverage_extent == 0.0


def test_unknown_function_and_exceptions():
    a = assess("unknown", "hello", None)
    assert (a.status, a.coverage_extent, a.error, a.reflection) == (
        "errored",
        None,
        "Unknown point function: 'unknown'",
        "Error: Unknown point function: 'unknown'",
    )
    assert a.key_point_text == "Function: unknown(undefined)"
    quoted = assess("icontains: 'war of northern aggression'", "x")
    assert quoted.error == "Unknown point function: 'icontains: 'war of northern aggression''"


def test_evaluate_function_points_facts():
    env = CheckEnv()
    evidence = make_evidence("hello world")
    points = [
        make_point("contains", "world"),
        make_point("contains", "goodbye"),
        make_point("contains", "world", inverted=True),
        make_point("contains", "goodbye", inverted=True),
        make_point("word_count_between", [1, 5]),
        make_point("word_count_between", [1, 5], inverted=True),
        make_point("unknown", "x"),
    ]
    scores = [a.coverage_extent for a in evaluate_function_points(points, evidence, env=env)]
    assert scores == [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, None]
    six = make_evidence("one two three four five six")
    [a] = evaluate_function_points(
        [make_point("word_count_between", [5, 10], inverted=True)], six, env=env
    )
    assert a.coverage_extent == 0.0
    [m] = evaluate_function_points(
        [make_point("matches", "^pattern$")], make_evidence("this does not match"), env=env
    )
    assert m.coverage_extent == 0.0


def test_points_from_a_parsed_blueprint_text_points_are_skipped():
    blueprint = parse_blueprint(
        "- id: p1\n  prompt: Hi\n  should:\n    - $contains: fiduciary\n    - A judged point.\n"
        "    - $is_json\n    - fn: matches\n      arg: '[0-9]+'\n      weight: 0.5\n"
        "  should_not:\n    - $contains: guarantee\n"
    )
    prompt = blueprint.prompts[0]
    evidence = Evidence(prompt_id="p1", model_id="m", text="A fiduciary duty, clause 12.")
    out = evaluate_function_points(
        prompt.points, evidence, env=CheckEnv(), blueprint=blueprint, prompt=prompt
    )
    assert [(a.key_point_text, a.coverage_extent, a.multiplier) for a in out] == [
        ('Function: contains("fiduciary")', 1.0, 1.0),
        ("Function: is_json(undefined)", 0.0, 1.0),
        ('Function: matches("[0-9]+")', 1.0, 0.5),
        ('Function: contains("guarantee")', 1.0, 1.0),
    ]
    assert out[3].is_inverted


def test_every_catalogue_function_survives_hostile_arguments():
    env = CheckEnv()
    hostile = [None, 0, -1, math.nan, "", "[", {}, [], [None], {"name": None}, [[["deep"]]], True]
    for name in sorted(__import__("engine.checks", fromlist=["CATALOGUE"]).CATALOGUE):
        if name in ("call", "external", "factcheck"):
            continue
        for args in hostile:
            a = assess(name, "some text", args, env=env)
            assert a.status in ("scored", "errored", "unverified")
            if a.status != "scored":
                assert a.coverage_extent is None
            else:
                assert a.coverage_extent is not None and 0.0 <= a.coverage_extent <= 1.0


def test_fast_built_assessments_equal_validated_ones():
    from engine.assessment import PointAssessment

    cases = [
        assess("contains", "hello", "ell", inverted=True),
        assess("matches", "x", "["),
        assess("required_text", "abc", ["zzz"]),
        assess("factcheck", "claim"),
        assess("unknown", "x"),
    ]
    for a in cases:
        again = PointAssessment.model_validate(a.model_dump())
        assert again == a and again.model_dump() == a.model_dump()
        a.reflection = "edited"  # still an ordinary, mutable model
        assert "reflection" in a.model_fields_set
