"""Typed evidence evaluators: config errors, unverified evidence, failures with evidence refs."""

from __future__ import annotations

import pytest

from engine.assessment import PointAssessment
from engine.blueprint.models import Prompt
from engine.evidence import ToolCall
from tests.checks.conftest import assess

MARKER = "ZQX-SECRET-MARKER-7731"
MESSAGES = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Please say refund and guarantee."},
    {"role": "assistant", "content": f"We offer a refund within 14 days. {MARKER}"},
    {"role": "user", "content": "And the guarantee?"},
    {"role": "assistant", "content": f"{MARKER} No guarantee, sorry."},
]
TEXT = "\n\n".join(m["content"] for m in MESSAGES[2::2])
GEN = {"messages": MESSAGES, "generated_indices": [2, 4]}


def check_refs(a: PointAssessment) -> None:
    ids = {e.id for e in a.evidence}
    for finding in a.findings:
        assert set(finding.evidence) <= ids, finding
    if a.status == "scored" and a.coverage_extent == 0.0:
        assert a.findings and all(f.evidence for f in a.findings)


@pytest.mark.parametrize(
    ("fn", "args", "status", "score", "codes"),
    [
        ("required_text", ["refund", "14 days"], "scored", 1.0, []),
        ("required_text", ["refund", "warranty"], "scored", 0.0, ["required_text_missing"]),
        (
            "required_text",
            ["Please say"],
            "scored",
            0.0,
            ["required_text_missing"],
        ),  # user turn only
        ("required_text", [], "errored", None, ["config_error"]),
        ("required_text", ["refund", ""], "errored", None, ["config_error"]),
        ("required_text", "refund", "errored", None, ["config_error"]),
        ("forbidden_text", ["guarantee"], "scored", 0.0, ["forbidden_text"]),
        ("forbidden_text", ["Please say"], "scored", 1.0, []),
        ("forbidden_text", [""], "errored", None, ["config_error"]),
        ("forbidden_text", None, "errored", None, ["config_error"]),
    ],
)
def test_text_evaluators(fn, args, status, score, codes):
    a = assess(fn, TEXT, args, **GEN)
    assert (a.status, a.coverage_extent) == (status, score)
    assert [f.code for f in a.findings] == codes
    check_refs(a)


def test_forbidden_text_evidence_is_redacted():
    a = assess("forbidden_text", TEXT, ["guarantee"], **GEN)
    [ref] = a.evidence
    turn = MESSAGES[4]["content"]
    at = turn.index("guarantee")
    assert ref.kind == "message" and ref.message_index == 4
    assert ref.byte_count == len(turn.encode())
    assert (
        ref.excerpt
        == f"[{len(turn[:at].encode())} bytes] guarantee [{len(turn[at + 9 :].encode())} bytes]"
    )
    assert ref.sha256 is not None and len(ref.sha256) == 64


CALLS = [
    ToolCall(name="lookup", arguments={"q": MARKER}, result=MARKER, message_index=2),
    ToolCall(name="refund", arguments={"id": MARKER}, error=f"denied {MARKER}", message_index=4),
    ToolCall(name="lookup", arguments={}, error=f"timeout {MARKER}", message_index=4),
]


@pytest.mark.parametrize(
    ("fn", "args", "calls", "status", "score", "codes"),
    [
        ("required_tool", "lookup", CALLS, "scored", 1.0, []),
        ("required_tool", "search", CALLS, "scored", 0.0, ["required_tool_missing"]),
        ("required_tool", "search", None, "scored", 0.0, ["required_tool_missing"]),
        ("required_tool", "", CALLS, "errored", None, ["config_error"]),
        ("forbidden_tool", "refund", CALLS, "scored", 0.0, ["forbidden_tool"]),
        ("no_tool_call", "refund", CALLS, "scored", 0.0, ["forbidden_tool"]),
        ("forbidden_tool", "delete", CALLS, "scored", 1.0, []),
        ("forbidden_tool", 7, CALLS, "errored", None, ["config_error"]),
        ("tool_error_rate", None, CALLS, "scored", 1.0, []),
        ("tool_error_rate", 0.5, CALLS, "scored", 0.0, ["tool_error_rate_exceeded"]),
        ("tool_error_rate", {"max": 0.7}, CALLS, "scored", 1.0, []),
        ("tool_error_rate", {"max": 2 / 3}, CALLS, "scored", 1.0, []),
        ("tool_error_rate", 1.5, CALLS, "errored", None, ["config_error"]),
        ("tool_error_rate", float("nan"), CALLS, "errored", None, ["config_error"]),
        ("tool_error_rate", {"max": "x"}, CALLS, "errored", None, ["config_error"]),
        ("tool_error_rate", 0.5, None, "unverified", None, ["no_tool_operations"]),
    ],
)
def test_tool_evaluators(fn, args, calls, status, score, codes):
    a = assess(fn, TEXT, args, tool_calls=calls, **GEN)
    assert (a.status, a.coverage_extent) == (status, score)
    assert [f.code for f in a.findings] == codes
    check_refs(a)


def test_tool_error_rate_reports_the_ratio_without_a_maximum():
    a = assess("tool_error_rate", TEXT, None, tool_calls=CALLS)
    assert a.reflection == "2 of 3 tool operation(s) failed (rate 0.6667); no maximum was set."
    trace = 'TOOL_CALL {"name": "lookup", "arguments": {}}'
    assert assess("required_tool", trace, "lookup").coverage_extent == 1.0
    assert assess("tool_error_rate", trace, 0.0).coverage_extent == 1.0


@pytest.mark.parametrize(
    ("args", "spans", "status", "score"),
    [
        ("30s", [1200.0, 29999.0], "scored", 1.0),
        ("500ms", [120.0, 501.0, 90.0], "scored", 0.0),
        (1500, [1500.0], "scored", 1.0),
        ("2m", [120001.0], "scored", 0.0),
        ("0s", [1.0], "errored", None),
        (-5, [1.0], "errored", None),
        ("soon", [1.0], "errored", None),
        (float("nan"), [1.0], "errored", None),
        ("30s", None, "unverified", None),
        ("30s", [], "unverified", None),
    ],
)
def test_max_duration(args, spans, status, score):
    a = assess("max_duration", "x", args, durations_ms=spans)
    assert (a.status, a.coverage_extent) == (status, score)
    check_refs(a)
    if score == 0.0:
        assert a.findings[0].code == "duration_exceeded" and a.evidence[0].kind == "timing"


SCHEMA = {"type": "object", "required": ["age"], "properties": {"age": {"type": "integer"}}}


@pytest.mark.parametrize(
    ("text", "args", "prompt_schema", "status", "score", "codes"),
    [
        ('{"age": 3}', None, SCHEMA, "scored", 1.0, []),
        ('{"age": "3"}', None, SCHEMA, "scored", 0.0, ["schema_violation"]),
        ("{}", None, SCHEMA, "scored", 0.0, ["schema_violation"]),
        ("not json", None, SCHEMA, "scored", 0.0, ["not_json"]),
        ('{"age": 3}', {"type": "array"}, SCHEMA, "scored", 0.0, ["schema_violation"]),
        ('{"age": 3}', None, None, "unverified", None, ["no_schema"]),
        ('{"age": 3}', {"type": 5}, None, "errored", None, ["config_error"]),
        ('{"age": 3}', "object", None, "errored", None, ["config_error"]),
    ],
)
def test_schema_result(text, args, prompt_schema, status, score, codes):
    prompt = Prompt(id="p", response_schema=prompt_schema)
    a = assess("schema_result", text, args, prompt=prompt)
    assert (a.status, a.coverage_extent) == (status, score)
    assert [f.code for f in a.findings] == codes
    check_refs(a)


def test_typed_functions_never_echo_model_or_tool_content():
    texts = [
        TEXT,
        f'{{"age": "{MARKER}"}}',
        f'{{"{MARKER}": 1}}',
        f'TOOL_CALL {{"name": "{MARKER}"}}',
    ]
    cases = [
        ("required_text", ["refund", "warranty"]),
        ("required_text", ["14 days"]),
        ("forbidden_text", ["guarantee", "refund"]),
        ("required_tool", "search"),
        ("required_tool", "lookup"),
        ("forbidden_tool", "refund"),
        ("forbidden_tool", "lookup"),
        ("tool_error_rate", 0.1),
        ("tool_error_rate", None),
        ("max_duration", "1ms"),
        (
            "schema_result",
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"age": {"type": "integer"}},
            },
        ),
        ("schema_result", {"type": "array"}),
    ]
    seen = 0
    for text in texts:
        for calls in (CALLS, None):
            for fn, args in cases:
                a = assess(fn, text, args, tool_calls=calls, durations_ms=[5.0], **GEN)
                strings = [a.reflection or "", a.error or ""]
                strings += [f.message for f in a.findings]
                strings += [e.excerpt or "" for e in a.evidence] + [
                    e.detail or "" for e in a.evidence
                ]
                for s in strings:
                    assert MARKER not in s, (fn, args, s)
                seen += len(a.findings)
    assert seen > 50
