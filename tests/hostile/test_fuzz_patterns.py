"""Fuzz: hostile patterns and odd Unicode responses never raise and stay bounded in every check.

Patterns mix huge counted repeats (up to 10**20), nested groups, deep nesting (thousands of
levels), lookarounds and back-references; responses mix letters, surrogate-free astral text and
the line breaks JavaScript knows and Python splits on (U+2028, U+2029, U+0085, CR, LF). Each
example runs under an address-space limit 1 GB above what the process already maps, so a
pattern that the engine expanded would fail the test, not the machine.

The third test builds each pattern at run time inside `$js` (`new RegExp(...)`), where no
check of the source can see it: the worker process that runs it is killed past its deadline.

The second test gives every function that runs locally (all but `$call` and `$factcheck`)
random arguments of any JSON shape, patterns included, and responses with tool-call traces.
"""

from __future__ import annotations

import json
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.checks import function_names
from engine.lint.rules.fnpoint import regex_error
from tests.checks.conftest import assess

GB = 1 << 30
SECONDS = 10.0

COUNTS = st.sampled_from([0, 1, 2, 3, 7, 100, 1000, 65535, 10**5, 10**7, 2**31 - 1, 2**31, 10**20])
LITERALS = st.sampled_from(
    [
        *"aAbİıß.-_ ",
        "\\d",
        "\\w",
        "\\s",
        "\\b",
        "[a-z]",
        "[^\\n]",
        "\\u2028",
        "\\x85",
        "^",
        "$",
        "\\1",
    ]
)


@st.composite
def quantifier(draw: st.DrawFn) -> str:
    low = draw(COUNTS)
    kind = draw(st.sampled_from(["{n}", "{n,}", "{n,m}", "*", "+", "?", ""]))
    if kind == "{n,m}":
        return f"{{{low},{max(low, draw(COUNTS))}}}"
    return kind.replace("n", str(low)) + draw(st.sampled_from(["", "?"]))


def _group(inner: str, kind: str) -> str:
    return {"cap": f"({inner})", "non": f"(?:{inner})", "look": f"(?={inner})",
            "neg": f"(?!{inner})", "behind": f"(?<={inner})"}[kind]  # fmt: skip


PIECES = st.recursive(
    LITERALS,
    lambda inner: st.one_of(
        st.tuples(inner, quantifier()).map("".join),
        st.tuples(inner, st.sampled_from(["cap", "non", "look", "neg", "behind"])).map(
            lambda p: _group(p[0], p[1])
        ),
        st.lists(inner, min_size=2, max_size=4).map("".join),
        st.lists(inner, min_size=2, max_size=3).map("|".join),
    ),
    max_leaves=12,
)


@st.composite
def patterns(draw: st.DrawFn) -> str:
    body = draw(PIECES)
    depth = draw(st.sampled_from([0, 0, 0, 5, 40, 300, 3000]))
    opener = draw(st.sampled_from(["(?:", "(", "(?="]))
    pattern = opener * depth + body + ")" * depth
    if draw(st.booleans()):
        pattern += draw(quantifier())  # may be invalid: that is an error result too
    return pattern


RESPONSE_CHARS = st.sampled_from(
    ["a", "A", "b", "ab", "İ", "ı", "i", "ß", "ſ", "K", "1", "_", " ", "\t", "\n", "\r\n",
     "\u2028", "\u2029", "\x85", "\x1c", "\ufeff", "\U0001f600", "Москва", "a" * 200]
)  # fmt: skip
RESPONSES = st.lists(RESPONSE_CHARS, max_size=30).map("".join)


@contextmanager
def bounded_memory() -> Iterator[None]:
    """Limit this process's address space to what it maps now plus 1 GB, then restore it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm", encoding="ascii") as statm:
        mapped = int(statm.read().split()[0]) * resource.getpagesize()
    limit = mapped + GB if hard == resource.RLIM_INFINITY else min(mapped + GB, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


FUNCTIONS = ["matches", "imatches", "not_matches", "not_imatches"]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(pattern=patterns(), response=RESPONSES, word=RESPONSES)
def test_every_check_returns_a_result_within_bounds(pattern: str, response: str, word: str) -> None:
    with bounded_memory():
        start = time.monotonic()
        statuses = [assess(fn, response, pattern).status for fn in FUNCTIONS]
        statuses += [
            assess("matches_all_of", response, [pattern, "a"]).status,
            assess("imatch_at_least_n_of", response, [1, [pattern, pattern + "x"]]).status,
            assess("icontains_word", response, word).status,
            assess("contains_word", response, word).status,
            assess("not_icontains_word", response, pattern).status,
        ]
        error = regex_error(pattern, "")
        elapsed = time.monotonic() - start
    assert set(statuses) <= {"scored", "errored"}
    assert error is None or (isinstance(error, str) and len(error) < 300)
    assert elapsed < SECONDS, (elapsed, pattern[:80])


NETWORK = {"call", "external", "factcheck"}
LOCAL_FUNCTIONS = sorted(set(function_names()) - NETWORK)
TRACE = st.sampled_from(
    ['TOOL_CALL {"name": "search", "arguments": {"q": "a\\u2028b"}}', "TOOL_CALL {bad", ""]
)
ARGS = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from([0, 1, -1, 2.5, 10**20, float("nan")]),
        RESPONSES,
        patterns(),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["name", "where", "q", "min", "max"]), inner, max_size=3),
    ),
    max_leaves=6,
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(args=ARGS, response=RESPONSES, trace=TRACE)
def test_every_local_function_returns_a_result_for_any_argument(
    args: object, response: str, trace: str
) -> None:
    text = response + "\n" + trace
    with bounded_memory():
        start = time.monotonic()
        statuses = {fn: assess(fn, text, args).status for fn in LOCAL_FUNCTIONS}
        elapsed = time.monotonic() - start
    assert set(statuses.values()) <= {"scored", "errored", "unverified"}, statuses
    assert elapsed < 4 * SECONDS, elapsed


# 40 nested capturing groups repeated: QuickJS resets their captures without reading its clock
CAPTURE_RESETS = "(" * 40 + "\\1" + ")" * 40 + "{20000,}?"


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(pattern=patterns(), response=RESPONSES)
@example(pattern=CAPTURE_RESETS, response="hello")
def test_js_that_builds_any_pattern_at_run_time_returns_within_bounds(
    pattern: str, response: str
) -> None:
    source = f"new RegExp({json.dumps(pattern)}).test(r)"
    with bounded_memory():
        start = time.monotonic()
        assessment = assess("js", response, source)
        elapsed = time.monotonic() - start
    assert assessment.status in {"scored", "errored"}
    assert elapsed < SECONDS, (elapsed, pattern[:80])
