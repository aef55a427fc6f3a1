"""`$js`: upstream's facts (spec §3.5), the sandbox's limits, threads, and `js_syntax_error`."""

from __future__ import annotations

import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.checks import CheckEnv
from engine.js import js_syntax_error
from tests.checks.conftest import assess, raw

FACTS = [
    ("hello world", "r.length === 11", True),
    ("hello world", 'r === "foo"', False),
    ("test", "r.length / 10", 0.4),
    ("test", "r.length * 100", 1.0),
    ("test", "-5", 0.0),
    ("85", "r == 85", True),
    ("84", "r == 85", False),
    (
        "85",
        "\n  const num = parseInt(r, 10);\n  if (num === 85) return true;\n  return false;\n",
        True,
    ),
    (
        "84",
        "\n  const num = parseInt(r, 10);\n  if (num === 85) return true;\n  return false;\n",
        False,
    ),
    ("test", "const x = 1;", False),
    ("hello world", "this.process === undefined", True),
    ("hello world", "typeof require === 'undefined' && typeof console === 'undefined'", True),
    (
        "any",
        "return { score: 0.75, explain: 'custom reflection' };",
        {"score": 0.75, "explain": "custom reflection"},
    ),
    ("any", "return { score: false };", {"score": 0.0}),
    ("any", "({score: 7})", {"score": 1.0}),
    ("hello", "response === r", True),
    ("x", "context.modelId === 'test-model'", True),
    ("abc", "const n = r.length;\nn > 2", True),
    ("abc", "r?.length > 2 && `${r}`.startsWith('a') && [1,2].map(x => x * 2)[1] === 4", True),
    ("x", "return;", False),
    (
        "x",
        "({})",
        {"error": "Script returned an invalid type: object. Must return a boolean or a number."},
    ),
    (
        "x",
        "null",
        {"error": "Script returned an invalid type: object. Must return a boolean or a number."},
    ),
    (
        "x",
        "[1]",
        {"error": "Script returned an invalid type: object. Must return a boolean or a number."},
    ),
    (
        "x",
        "() => 1",
        {"error": "Script returned an invalid type: function. Must return a boolean or a number."},
    ),
    ("x", "({score: 'high'})", {"error": "Invalid score type: string"}),
    (
        "hello world",
        '"a string"',
        {"error": "Script returned an invalid type: string. Must return a boolean or a number."},
    ),
]


@pytest.mark.parametrize(("text", "source", "expected"), FACTS)
def test_upstream_facts(text, source, expected):
    assert raw("js", text, source) == expected


def test_errors_are_reported_like_upstream():
    result = raw("js", "hello world", "r.foo()")
    assert set(result) == {"error"} and result["error"].startswith("Expression evaluation failed: ")
    syntax = raw("js", "x", "1 +;")
    assert syntax["error"].startswith("Expression evaluation failed: ")
    retried = raw("js", "x", "return 1 +;")  # the illegal return is seen first, as in V8
    assert retried["error"].startswith("Expression evaluation failed on retry: ")
    on_retry = raw("js", "x", "if (true) return undefinedName;")
    assert on_retry["error"].startswith("Expression evaluation failed on retry: ")
    assert "undefinedName" in on_retry["error"]
    assert raw("js", "x", 5) == {"error": "Argument for js must be a string expression."}
    assert raw("expr", "abc", "r.length === 3") is True


def test_nan_is_returned_and_then_errored_by_conversion():
    assert math.isnan(raw("js", "x", "NaN"))
    assessment = assess("js", "x", "0/0")
    assert assessment.status == "errored" and assessment.coverage_extent is None
    assert "NaN" in (assessment.error or "")


def test_score_object_becomes_the_reflection():
    assessment = assess("js", "x", "return { score: 0.75, explain: 'custom reflection' };")
    assert (assessment.coverage_extent, assessment.reflection) == (0.75, "custom reflection")
    inverted = assess("js", "x", "return { score: 0.75 };", inverted=True)
    assert (inverted.coverage_extent, inverted.reflection) == (
        0.25,
        "Passes its JavaScript check only in part (75%), which it should not: score 0.25.",
    )


PARIS = [
    {"role": "user", "content": "Tell me about Paris."},
    {
        "role": "assistant",
        "content": "Paris is the capital of France. It has many beautiful landmarks.",
    },
    {"role": "user", "content": "How many words was your response?"},
]
SELF_COUNT = """
    // Count words in previous assistant message
    const prevMsg = context.messages[1].content;
    const actualCount = prevMsg.split(/\\s+/).length;
    const statedCount = parseInt(r.match(/\\b\\d+\\b/)?.[0] || 0);
    const diff = Math.abs(actualCount - statedCount);
    return diff <= 2 ? 1 : (diff <= 5 ? 0.5 : 0);
"""


@pytest.mark.parametrize(
    ("response", "expected"), [("12 words", 1), ("15 words", 0.5), ("50 words", 0)]
)
def test_context_messages_self_count(response, expected):
    assert raw("js", response, SELF_COUNT, messages=PARIS) == expected


def test_context_messages_shape():
    messages = [{"role": "user", "content": "Hello"}, {"role": "assistant", "content": "Hi there!"}]
    source = "context.messages.length === 2 && context.messages[0].role === 'user' && context.messages[0].content === 'Hello'"
    assert raw("js", "test", source, messages=messages) is True
    assert raw("js", "test", "context.messages.length === 0") is True


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        ("while(true) {}", "Script execution timed out after 100ms"),
        ("for (;;) { Math.random(); }", "Script execution timed out after 100ms"),
        (
            "if (r) { while (true) {} } return 1;",
            "on retry: Script execution timed out after 100ms",
        ),
        (
            "let a = []; while (true) a.push(new Array(100000).fill(1));",
            "Expression evaluation failed: ",
        ),
        ("let s = 'x'; while (true) s = s + s;", "Expression evaluation failed: "),
        ("function f() { return f() + 1; } f();", "Expression evaluation failed: "),
    ],
)
def test_limits_end_in_an_errored_assessment_quickly(source, needle):
    start = time.perf_counter()
    assessment = assess("js", "hello world", source)
    assert time.perf_counter() - start < 5  # never a hang (the limit is 100 ms)
    assert assessment.status == "errored" and assessment.coverage_extent is None
    assert needle in (assessment.error or "")


def test_memory_bomb_names_the_limit():
    # a time limit a busy machine cannot reach first: the memory limit is what must stop it
    env = CheckEnv(js_memory_limit=16 << 20, js_time_limit_s=5.0)
    assessment = assess("js", "x", "let a = []; while (true) a.push('y'.repeat(1 << 20));", env=env)
    assert assessment.status == "errored"
    assert "out of memory" in (assessment.error or "")


def test_globals_do_not_leak_between_evaluations():
    assert raw("js", "a", "globalThis.leak = 1; true") is True
    assert raw("js", "a", "typeof leak === 'undefined'") is True


def test_eight_threads_run_js_concurrently_without_crashing():
    def work(i: int) -> list[object]:
        return [raw("js", "x" * i, f"r.length === {i}") for _ in range(25)]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(8)))
    assert results == [[True] * 25] * 8

    seen: list[str | None] = []
    lock = threading.Lock()

    def slow() -> None:
        a = assess("js", "x", "while(true){}")
        with lock:
            seen.append(a.error)

    threads = [threading.Thread(target=slow) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert seen == ["Expression evaluation failed: Script execution timed out after 100ms"] * 8


@pytest.mark.parametrize(
    ("source", "valid"),
    [
        ("r.length > 3", True),
        ("const n = r.length;\nn > 3", True),
        ("if (r) return 1;\nreturn 0;", True),
        ("({score: 1, explain: 'x'})", True),
        ("r.length >", False),
        ("return (", False),
        ("}); (function () {", False),
        ("let let = 1", False),
    ],
)
def test_js_syntax_error(source, valid):
    message = js_syntax_error(source)
    assert (message is None) is valid, message
    if not valid:
        assert message


def test_the_sandbox_globals_are_weval_s_in_weval_s_order() -> None:
    assert raw("js", "x", "Object.keys(this).join() === 'context,r,response'") is True
    assert raw("js", "x", "typeof performance === 'undefined'") is True
