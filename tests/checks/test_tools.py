"""Tool functions (spec §3.7): trace parsing, upstream's facts, native calls, `where` forms."""

from __future__ import annotations

import json

import pytest

from engine.checks import CheckEnv, parse_tool_trace
from engine.evidence import ToolCall
from tests.checks.conftest import assess, raw


def trace(*calls: tuple[str, object]) -> str:
    lines = ["Let me look that up."]
    for name, arguments in calls:
        lines.append("TOOL_CALL " + json.dumps({"name": name, "arguments": arguments}))
    return "\n".join(lines)


CALC = trace(("calculator", {"expression": "1+1"}))
RETRIEVE = trace(("retrieve", {"docId": "42", "meta": {"a": 1}}))
ABA = trace(("a", {}), ("b", {}), ("a", {}))
SRA = trace(("search", {}), ("retrieve", {}), ("answer", {}))

FACTS = [
    ("tool_called", CALC, "calculator", True),
    ("tool_called", CALC, "retrieve", False),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": {"docId": "42"}}, True),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": {"docId": "43"}}, False),
    ("tool_call_count_between", ABA, [2, 3], True),
    ("tool_call_count_between", ABA, [1, 1, "a"], False),
    ("tool_call_count_between", ABA, [2, 2, "a"], True),
    ("tool_call_order", SRA, ["search", "retrieve"], True),
    ("tool_call_order", SRA, ["retrieve", "search"], False),
    # spec §3.3 edge cases
    ("tool_called", CALC, "", {"error": "tool_called expects a string tool name"}),
    ("tool_called", CALC, 5, {"error": "tool_called expects a string tool name"}),
    (
        "tool_args_match",
        RETRIEVE,
        {"where": {}},
        {"error": "tool_args_match expects { name, where }"},
    ),
    (
        "tool_args_match",
        RETRIEVE,
        ["retrieve"],
        {"error": "tool_args_match expects { name, where }"},
    ),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": {"meta": {"a": 1}}}, True),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": {"meta": {"a": "1"}}}, False),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": {"missing": None}}, False),
    ("tool_args_match", RETRIEVE, {"name": "retrieve"}, False),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": "args.docId === '42'"}, True),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": "args.meta.a > 1"}, False),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": "args.nope.deeper"}, False),
    ("tool_args_match", RETRIEVE, {"name": "retrieve", "where": "this is not js ("}, False),
    (
        "tool_args_match",
        trace(("s", {"q": "a b\tc"})),
        {"name": "s", "where": {"q": "abc"}, "normalizeWhitespace": True},
        True,
    ),
    ("tool_args_match", trace(("s", {"q": "a b\tc"})), {"name": "s", "where": {"q": "abc"}}, False),
    (
        "tool_args_match",
        trace(("s", {"q": "a\ufeffb"})),
        {"name": "s", "where": {"q": "ab"}, "normalizeWhitespace": True},
        True,
    ),
    (
        "tool_args_match",
        trace(("s", {"ids": [1, 2, 3]})),
        {"name": "s", "where": {"ids": [1, 2]}},
        True,
    ),
    (
        "tool_args_match",
        trace(("s", {"ids": [1, 2, 3]})),
        {"name": "s", "where": {"ids": {"length": 3}}},
        True,
    ),
    ("tool_args_match", trace(("s", {"n": 1})), {"name": "s", "where": {"n": True}}, False),
    ("tool_args_match", trace(("s", {"n": 1})), {"name": "s", "where": {"n": 1.0}}, True),
    ("tool_args_match", trace(("s", None)), {"name": "s", "where": {}}, False),
    ("tool_call_count_between", ABA, "not a list", True),
    ("tool_call_count_between", ABA, [4], False),
    ("tool_call_count_between", ABA, [None, 2], False),
    ("tool_call_count_between", ABA, [0, 3, ""], True),
    ("tool_call_count_between", "no calls here", [0, 0], True),
    ("tool_call_order", ABA, ["a", "a"], True),
    ("tool_call_order", trace(("a", {})), ["a", "a"], False),
    ("tool_call_order", SRA, [1, "answer"], True),
    ("tool_call_order", SRA, [1, 2], {"error": "tool_call_order expects an array of tool names"}),
    ("tool_call_order", SRA, "search", {"error": "tool_call_order expects an array of tool names"}),
]


@pytest.mark.parametrize(("fn", "text", "args", "expected"), FACTS)
def test_upstream_facts(fn, text, args, expected):
    assert raw(fn, text, args) == expected


def test_trace_parser_follows_upstream_rules():
    text = "\r\n".join(
        [
            '  TOOL_CALL {"name": "ok", "arguments": {"x": 1}}  ',
            'TOOL_CALL{"name": "no space"}',
            'TOOL_CALL {"name": 5}',
            "TOOL_CALL [1, 2]",
            "TOOL_CALL {bad json}",
            'TOOL_CALL {"name": "no args"}',
            '\ufeffTOOL_CALL {"name": "bom trimmed"}',
            'tool_call {"name": "lower case"}',
            'say TOOL_CALL {"name": "not at start"}',
        ]
    )
    calls = parse_tool_trace(text)
    assert [(c.name, c.arguments, c.source) for c in calls] == [
        ("ok", {"x": 1}, "trace"),
        ("no args", None, "trace"),
        ("bom trimmed", None, "trace"),
    ]


def test_native_calls_win_over_the_trace_when_recorded():
    native = [
        ToolCall(name="lookup", arguments={"id": 7}),
        ToolCall(name="lookup", arguments={"id": 8}),
    ]
    assert raw("tool_called", CALC, "lookup", tool_calls=native) is True
    assert raw("tool_called", CALC, "calculator", tool_calls=native) is False
    assert raw("tool_call_count_between", CALC, [2, 2, "lookup"], tool_calls=native) is True
    assert (
        raw(
            "tool_args_match", CALC, {"name": "lookup", "where": "args.id === 8"}, tool_calls=native
        )
        is True
    )
    # an empty native list means "none recorded": the trace is parsed
    assert raw("tool_called", CALC, "calculator", tool_calls=[]) is True


def test_partial_match_on_a_primitive_throws_like_javascript():
    text = trace(("s", {"meta": None}))
    assessment = assess("tool_args_match", text, {"name": "s", "where": {"meta": {"a": 1}}})
    assert assessment.status == "errored"
    assert assessment.error == (
        "Error executing point function 'tool_args_match': "
        "Cannot use 'in' operator to search for 'a' in null"
    )


def test_where_expression_is_sandboxed_and_time_limited():
    assert (
        raw(
            "tool_args_match",
            RETRIEVE,
            {"name": "retrieve", "where": "typeof process === 'undefined'"},
        )
        is True
    )
    result = raw(
        "tool_args_match",
        RETRIEVE,
        {"name": "retrieve", "where": "(() => { while (true) {} })()"},
        env=CheckEnv(),
    )
    assert result == {
        "error": "tool_args_match: the `where` expression did not finish within 100 ms"
    }
