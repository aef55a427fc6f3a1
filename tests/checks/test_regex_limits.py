"""Huge counted repeats, deep nesting and long patterns: compiled within bounded time and memory.

Node never expands `a{10000000}`, so Weval scores such patterns; the `regex` module would expand
them (gigabytes). Anything that could blow up runs in a child process under a 1 GB address-space
limit, so a regression fails the test instead of taking the machine down.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from engine.js import regex as jsregex
from engine.js.engine import js_regex_test
from engine.js.regex import compile_js_regex
from engine.js.regex_limits import (
    MAX_REPEATED_CAPTURE_COST,
    MAX_TRANSLATED_COST,
    WeightedCache,
    expansion_cost,
    is_limit_message,
    limit_message,
    repeated_capture_cost,
)
from engine.js.regex_parse import parse_regex
from engine.lint.rules.fnpoint import regex_error
from tests.checks.conftest import raw

ROOT = Path(__file__).resolve().parents[2]
GB = 1 << 30
# Unbounded, these inputs take minutes (or never end); bounded, well under a second on a quiet
# machine. The bound leaves room for a machine busy with other tests.
BOUNDED_S = 10.0
DEEP = "(?:" * 5000 + "a" + ")" * 5000

# (pattern, flags, text): Node accepts each pattern and matches without expanding the repeat.
HUGE = [
    ("a{99999999999999999999}", "", "aaaa"),
    ("a{10000000}", "", "a" * 1000),
    ("a{10000000}", "i", "A" * 1000),
    ("(a{1000}){1000}", "", "a" * 1500),
    ("((((a{100}){100}){100}){100})", "", "a" * 500),
    ("x{0,99999999999999999999}y", "", "xxxy"),
    ("a{100000}", "", "a" * 100000),
    ("a{100000}", "", "a" * 100),
    ("(?:ab){30000}c", "i", "AB" * 30000 + "C"),
    ("b{3}" + "(?:c{200000})?" * 50 + "d", "", "bbbd"),
    ("[a-z]{2147483647}|ok", "", "ok"),
]


def _limit_child() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (GB, GB))


def run_bounded(
    args: list[str], timeout: float = 60.0, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a Python child under 1 GB of address space (the repository on its path)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
        preexec_fn=_limit_child,
    )


def in_child(code: str) -> Any:
    """Run `code` (which sets `out`) in a bounded child; return `out` decoded from JSON."""
    script = textwrap.dedent(code) + "\nimport json, sys\nsys.stdout.write(json.dumps(out))\n"
    done = run_bounded(["-"], stdin=script)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_huge_repeats_score_as_node_does() -> None:
    expected = [js_regex_test(p, f, t) for p, f, t in HUGE]  # QuickJS: Node's semantics
    out = in_child(
        f"""
        from tests.checks.conftest import raw
        cases = {HUGE!r}
        out = []
        for pattern, flags, text in cases:
            fn = "imatches" if flags else "matches"
            out.append([raw(fn, text, pattern), raw("not_" + fn, text, pattern)])
        """
    )
    assert [r[0] for r in out] == expected
    assert [r[1] for r in out] == [not e for e in expected]


def test_the_list_functions_score_huge_repeats() -> None:
    out = in_child(
        """
        from tests.checks.conftest import raw
        patterns = ["a{99999999999999999999}", "(a{1000}){1000}", "b{10000000}|a", "a"]
        out = [
            raw("matches_all_of", "aaa", patterns),
            raw("imatch_all_of", "AAA", patterns),
            raw("matches_at_least_n_of", "aaa", [2, patterns]),
            raw("imatch_at_least_n_of", "AAA", [3, patterns]),
        ]
        """
    )
    assert out == [0.5, 0.5, 1.0, 2 / 3]


def test_lint_accepts_huge_repeats_and_reports_what_cannot_run() -> None:
    out = in_child(
        f"""
        from engine.lint.rules.fnpoint import regex_error
        out = [regex_error(p, f) for p, f, _ in {HUGE!r}] + [regex_error({DEEP!r}, "")]
        """
    )
    assert out[:-1] == [None] * len(HUGE)
    assert is_limit_message(out[-1])
    assert len(out[-1]) < 200  # a short excerpt of the pattern, never all of it


def test_a_pattern_too_deep_to_run_is_errored_with_a_plain_message() -> None:
    out = in_child(
        f"""
        from tests.checks.conftest import assess
        a = assess("matches", "aaa", {DEEP!r})
        out = [a.status, a.error]
        """
    )
    status, error = out
    assert status == "errored"
    assert "too large or too deeply nested" in error and "simplify the pattern" in error
    for python_word in ("Error:", "Traceback", "RecursionError", "InternalError", "SyntaxError"):
        assert python_word not in error
    assert len(error) < 300


def test_lint_and_scoring_agree_on_what_quickjs_cannot_compile() -> None:
    pattern = "(a)" * 300 + "\\1"  # a back-reference runs in QuickJS: at most 255 groups
    assert is_limit_message(regex_error(pattern, "") or "")
    result = raw("matches", "aa", pattern)
    assert isinstance(result, dict) and "simplify the pattern" in result["error"]


def test_compiling_is_bounded_for_long_and_nested_patterns() -> None:
    out = in_child(
        """
        import time
        from engine.js.regex import compile_js_regex, js_regex_error
        patterns = [
            "(?:ab|cd)" * 100000,
            "[a-z]" * 200000,
            "(" * 3000 + "a" + ")" * 3000,
            "(?:a{2}){2}" * 20000,
            "a" * 3000000,
        ]
        out = []
        for pattern in patterns:
            start = time.perf_counter()
            error = js_regex_error(pattern)
            result = None if error else compile_js_regex(pattern).test("abcd" * 100)
            out.append([time.perf_counter() - start, error is None, result])
        """
    )
    for seconds, _valid, _result in out:
        assert seconds < BOUNDED_S
    assert [r[1:] for r in out[:2]] == [[True, False], [True, False]]


def test_a_very_long_word_is_bounded_in_the_word_functions() -> None:
    out = in_child(
        """
        import time
        from tests.checks.conftest import raw
        word = "word " * 200000
        out = []
        for fn in ("contains_word", "icontains_word", "not_icontains_word"):
            start = time.perf_counter()
            result = raw(fn, "a " + word.upper() + " b", word)
            out.append([time.perf_counter() - start, result])
        """
    )
    assert [r[1] for r in out] == [False, True, False]
    assert all(seconds < BOUNDED_S for seconds, _ in out)


def test_very_long_needles_are_bounded_in_the_caseless_string_functions() -> None:
    out = in_child(
        """
        import time
        from tests.checks.conftest import raw
        needle = "Ab" * 500000
        text = "x" + needle.upper() + "y"
        calls = [("icontains", needle), ("istarts_with", "x" + needle),
                 ("iends_with", needle + "Y"), ("not_icontains", needle)]
        out = []
        for fn, arg in calls:
            start = time.perf_counter()
            result = raw(fn, text, arg)
            out.append([time.perf_counter() - start, result])
        """
    )
    assert [r[1] for r in out] == [True, True, True, False]
    assert all(seconds < BOUNDED_S for seconds, _ in out)


def test_tool_argument_matching_with_huge_repeats_is_bounded() -> None:
    trace = 'TOOL_CALL {"name": "search", "arguments": {"q": "aaaa"}}'
    out = in_child(
        f"""
        from tests.checks.conftest import raw
        wheres = [
            "new RegExp('a{{99999999999999999999}}').test(args.q)",
            "/(a{{1000}}){{1000}}|a{{4}}/.test(args.q)",
            "new RegExp('(?:'.repeat(5000) + 'a' + ')'.repeat(5000)).test(args.q)",
        ]
        out = [raw("tool_args_match", {trace!r}, {{"name": "search", "where": w}}) for w in wheres]
        """
    )
    assert out[:2] == [False, True]
    assert out[2] is False or "error" in out[2]


def test_the_compiled_pattern_cache_is_bounded_by_weight() -> None:
    out = in_child(
        """
        import resource
        from engine.js.regex import compile_js_regex
        # each pattern expands to ~19,000 nodes (~5 MB) on the regex module
        out = [compile_js_regex(f"a{{19000}}x{i}").test("ab") for i in range(300)]
        out.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
        """
    )
    assert out[:-1] == [False] * 300
    assert out[-1] < 400  # MB: an entry-count cache alone would hold ~1.5 GB


def test_the_long_pattern_cache_is_bounded_by_characters() -> None:
    for i in range(5):
        try:
            compile_js_regex("ab" * 4_000_000 + str(i))  # 8 M characters each
        except ValueError:
            pass  # too large for QuickJS: the message is cached just the same
    held = sum(len(key[0]) for key in jsregex._long_cache._items)
    assert 0 < held <= 32_000_000


def test_weighted_cache_drops_the_least_recently_used_past_either_bound() -> None:
    cache: WeightedCache[str, str] = WeightedCache(max_items=3, max_weight=10)
    built: list[str] = []

    def build(key: str, weight: int) -> tuple[str, int]:
        built.append(key)
        return key.upper(), weight

    assert cache.get_or_build("a", lambda: build("a", 4)) == "A"
    assert cache.get_or_build("b", lambda: build("b", 4)) == "B"
    assert cache.get_or_build("a", lambda: build("a", 4)) == "A"  # a hit, now most recent
    cache.get_or_build("c", lambda: build("c", 4))  # weight 12 > 10: b goes
    cache.get_or_build("a", lambda: build("a", 4))
    cache.get_or_build("b", lambda: build("b", 4))  # rebuilt
    assert built == ["a", "b", "c", "b"]
    for key in "defg":
        cache.get_or_build(key, lambda k=key: build(k, 1))  # type: ignore[misc]
    cache.get_or_build("g", lambda: build("g", 1))
    assert built[-1] == "g" and built.count("g") == 1
    cache.get_or_build("d", lambda: build("d", 1))  # more than 3 items: d was dropped
    assert built.count("d") == 2


def test_expansion_cost_counts_required_repeats_and_stops_at_the_budget() -> None:
    cost = lambda p: expansion_cost(parse_regex(p).tree)  # noqa: E731
    assert cost("a{0,1000000}") < 10
    assert cost("a{3,1000000}") < 10
    assert 1000 <= cost("a{1000}") <= 1010
    assert cost("(?:a{100}){100}") >= 10000
    assert cost("a{99999999999999999999}") <= MAX_TRANSLATED_COST + 2
    assert cost("((((a{100}){100}){100}){100})") <= 2 * MAX_TRANSLATED_COST + 10


def test_small_patterns_stay_on_the_fast_path_and_big_ones_run_in_quickjs() -> None:
    assert compile_js_regex(r"^\d{3}-\d{4}$").translated
    assert compile_js_regex("[A-Z]{2,10}", "i").translated
    assert compile_js_regex("a{1000}").translated
    assert not compile_js_regex("a{100000}").translated
    assert not compile_js_regex("(?:a{300}){300}", "i").translated
    assert not compile_js_regex("x" * 5000).translated


def test_a_failing_pattern_does_not_spoil_the_thread_regex_context() -> None:
    big = "\\w" * 3000000  # QuickJS runs out of its 64 MB compiling this
    with pytest.raises(ValueError, match="too large"):
        compile_js_regex(big)
    # cached patterns fill the 64 MB heap: the context drops them instead of failing for good
    for i in range(20):
        assert js_regex_test("\\w" * 400000 + f"|x{i}", "", f"x{i}")
    assert compile_js_regex("a{100000}|ok").test("ok")


def test_limit_message_quotes_a_short_excerpt() -> None:
    message = limit_message("a" * 10000, "i")
    assert len(message) < 200 and is_limit_message(message)
    assert not is_limit_message("Invalid regular expression: /[/: Unterminated character class")


def _bomb_files(tmp_path: Path) -> tuple[Path, Path]:
    blueprint = tmp_path / "bombs.yml"
    blueprint.write_text(
        "title: regex bombs\n---\n- id: p1\n  prompt: Say a.\n  should:\n"
        '    - $matches: "a{99999999999999999999}"\n'
        '    - $imatches: "a{10000000}"\n'
        '    - $matches_all_of: ["(a{1000}){1000}", "((((a{100}){100}){100}){100})"]\n'
        '    - $not_matches: "(?:(?:a{100}){100}){100}"\n'
        f'    - $matches: "{DEEP}"\n',
        encoding="utf-8",
    )
    responses = tmp_path / "responses.jsonl"
    rows = [{"prompt_id": "p1", "model": "m", "response": "a" * 3000}]
    responses.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot a row\n", encoding="utf-8")
    return blueprint, responses


def test_lint_and_score_on_regex_bombs_finish_quickly_in_1gb(tmp_path: Path) -> None:
    blueprint, responses = _bomb_files(tmp_path)
    start = time.monotonic()
    lint = run_bounded(["-m", "engine", "lint", str(blueprint)], timeout=30)
    assert time.monotonic() - start < 10
    assert lint.returncode == 1, lint.stderr
    assert "Traceback" not in lint.stdout + lint.stderr
    # only the pattern that cannot run is an error, reported where it is written
    errors = [line for line in lint.stdout.splitlines() if " error " in line]
    assert len(errors) == 1 and f"{blueprint}:10:" in errors[0], lint.stdout
    assert "invalid-regex" in errors[0] and "simplify the pattern" in errors[0]

    out = tmp_path / "out.json"
    start = time.monotonic()
    score = run_bounded(
        ["-m", "engine", "score", str(blueprint), "--responses", str(responses),
         "--out", str(out)],
        timeout=30,
    )  # fmt: skip
    assert time.monotonic() - start < 10
    assert score.returncode == 1, score.stderr  # 1: the responses file has one bad line
    assert "Traceback" not in score.stdout + score.stderr
    result = json.loads(out.read_text(encoding="utf-8"))
    cell = result["evaluationResults"]["llmCoverageScores"]["p1"]["m"]
    statuses = [a["status"] for a in cell["pointAssessments"]]
    assert statuses == ["scored"] * 4 + ["errored"]
    scores = [a["coverageExtent"] for a in cell["pointAssessments"][:4]]
    assert scores == [0.0, 0.0, 0.0, 1.0]


def test_a_text_too_short_for_any_match_is_false_without_running_the_pattern() -> None:
    # QuickJS took ~80 ms (of its 100 ms clock) to say no: under load the verdict flipped
    nested = compile_js_regex("((((a{100}){100}){100}){100})")
    assert not nested.translated and nested.min_length == 100_000_000
    assert nested.test("a" * 3000) is False
    # lengths are JavaScript's: an astral character is two code units, so `..` matches it
    assert compile_js_regex("..").min_length == 2
    assert compile_js_regex("..").test("\U0001f600") is True
    assert compile_js_regex("^..$").test("\U0001f600") is True
    # assertions, lookarounds, back-references and optional parts may match nothing
    for pattern in ("a{2}|", "(?=abc)", "(a)?\\1", "\\b$", "(?:abc)*"):
        assert compile_js_regex(pattern).min_length == 0, pattern
    assert compile_js_regex("(?:ab|c){3}d").min_length == 4


# Found by the fuzz test: QuickJS spent 9 s on it (time growing with count² x captures) without
# looking at its 100 ms clock, which it reads only when it backtracks.
CAPTURE_LOOP = "(" * 40 + "\\1" + ")" * 40 + "{65535,}?"


def test_a_repeat_of_capturing_groups_quickjs_cannot_stop_is_errored_at_once() -> None:
    start = time.monotonic()
    results = [raw(fn, " \u2029ab", CAPTURE_LOOP) for fn in ("matches", "not_imatches")]
    assert time.monotonic() - start < 4.0  # 18 s if QuickJS ran them
    for result in results:
        assert isinstance(result, dict) and "simplify the pattern" in result["error"]
    assert is_limit_message(regex_error(CAPTURE_LOOP, "") or "")  # lint says so at the pattern
    assert regex_error("(" * 40 + "\\1" + ")" * 40 + "{100,}?", "") is None  # cheap: it runs
    assert raw("matches", "ab", "(" * 40 + "\\1" + ")" * 40 + "{100,}?") is True


def test_repeated_capture_cost_counts_the_captures_inside_each_counted_repeat() -> None:
    assert repeated_capture_cost("(a)(b){1000}") == 1000 * 1000
    assert repeated_capture_cost("((a)(?<n>b)(?:c)(?=d)(?<=e)){10,20}") == 10 * 10 * 3
    assert repeated_capture_cost("(?:a){99999}(a)*\\(b){99999}[(]c){99999}") == 0
    assert repeated_capture_cost("(a){12345678901234567890}") == 10**24
    assert repeated_capture_cost("(a){,5}(b){x}") == 0  # not quantifiers in JS: literal braces
    assert repeated_capture_cost("(" * 5000 + ")" * 5000 + "{3}") == 9 * 5000  # any depth
    assert repeated_capture_cost(CAPTURE_LOOP) > MAX_REPEATED_CAPTURE_COST
