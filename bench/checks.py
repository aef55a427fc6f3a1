"""Benchmark the point functions: assessments per second per function, beside bare Python.

Run: python -m bench.checks   (about a minute)

Scores 10,000 generated responses of 1-2 KB (seeded, deterministic) against 20 functions
through the public path scoring uses (`evaluate_point`: registry lookup, the function, and the
conversion to a `PointAssessment`), and the same work done with bare Python (`in`,
`re.search`, ...) in the same process. It also measures the raw registry function without the
conversion, and the regex engines behind the JS-regex decision.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from functools import partial
from typing import Any

import regex

from bench.common import median_seconds
from engine.assessment import PointAssessment
from engine.blueprint.models import Point
from engine.checks import CATALOGUE, CheckContext, CheckEnv, evaluate_point
from engine.evidence import Evidence
from engine.js.engine import js_regex_test

N_RESPONSES = 10_000
N_JS = 2_000
WORDS = [
    "the",
    "a",
    "of",
    "and",
    "to",
    "in",
    "is",
    "was",
    "for",
    "on",
    "that",
    "with",
    "as",
    "by",
    "at",
    "from",
    "river",
    "source",
    "because",
    "since",
    "concept",
    "fiduciary",
    "blue",
    "red",
    "data",
    "model",
    "answer",
    "question",
    "city",
    "capital",
    "France",
    "Paris",
    "report",
    "number",
    "value",
    "clause",
    "duty",
    "search",
    "retrieve",
    "apple",
    "pear",
    "plum",
    "Paraná",
    "São",
    "café",
    "well-known",
]


def responses(n: int, seed: int = 7) -> list[str]:
    """Return `n` deterministic responses of 1-2 KB."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        target = rng.randint(1024, 2048)
        parts: list[str] = []
        size = 0
        while size < target:
            word = rng.choice(WORDS)
            if rng.random() < 0.05:
                word = str(rng.randint(1, 9999))
            if rng.random() < 0.08:
                word += rng.choice([".", ",", ";", "!"])
            parts.append(word)
            size += len(word) + 1
        if i % 10 == 0:
            parts.insert(
                rng.randint(0, len(parts)),
                '\nTOOL_CALL {"name": "search", "arguments": {"q": "x"}}\n',
            )
        out.append(" ".join(parts)[:target])
    return out


_RE_NUM = re.compile(r"\d{3}")
_RE_SOURCE = re.compile(r"\bsource\b", re.IGNORECASE)
_RE_ANY = [re.compile(r"\d+"), re.compile("blue")]
_RE_N = [re.compile(p, re.IGNORECASE) for p in (r"\d+ apples", "pears?", "capital")]
_RE_WORD = regex.compile(r"(?<![\p{L}\p{N}_])river(?![\p{L}\p{N}_])")
_RE_IWORD = regex.compile(r"(?<![\p{L}\p{N}_])paraná(?![\p{L}\p{N}_])", regex.IGNORECASE)


def _is_json(t: str) -> bool:
    try:
        return isinstance(json.loads(t), dict | list)
    except ValueError:
        return False


# (function, argument, kind, bare-Python equivalent)
CASES: list[tuple[str, Any, str, Callable[[str], Any]]] = [
    ("contains", "fiduciary", "string", lambda t: "fiduciary" in t),
    ("icontains", "Concept", "string", lambda t: "concept" in t.lower()),
    ("starts_with", "The", "string", lambda t: t.startswith("The")),
    ("iends_with", ".", "string", lambda t: t.lower().endswith(".")),
    ("contains_any_of", ["because", "since"], "string", lambda t: "because" in t or "since" in t),
    (
        "icontains_all_of",
        ["Paris", "France", "xyz"],
        "string",
        lambda t: sum(w.lower() in t.lower() for w in ("Paris", "France", "xyz")) / 3,
    ),
    (
        "contains_at_least_n_of",
        [2, ["apple", "pear", "plum"]],
        "string",
        lambda t: min(1, sum(w in t for w in ("apple", "pear", "plum")) / 2),
    ),
    ("not_contains", "As an AI", "string", lambda t: "As an AI" not in t),
    ("word_count_between", [50, 400], "string", lambda t: len(t.split())),
    ("is_json", None, "string", _is_json),
    ("matches", r"\d{3}", "regex", lambda t: _RE_NUM.search(t) is not None),
    ("imatches", r"\bsource\b", "regex", lambda t: _RE_SOURCE.search(t) is not None),
    (
        "matches_all_of",
        [r"\d+", "blue"],
        "regex",
        lambda t: sum(p.search(t) is not None for p in _RE_ANY) / 2,
    ),
    (
        "imatch_at_least_n_of",
        [2, [r"\d+ apples", "pears?", "capital"]],
        "regex",
        lambda t: min(1, sum(p.search(t) is not None for p in _RE_N) / 2),
    ),
    ("not_matches", r"As an AI", "regex", lambda t: re.search("As an AI", t) is None),
    ("contains_word", "river", "regex", lambda t: _RE_WORD.search(t) is not None),
    ("icontains_word", "PARANÁ", "regex", lambda t: _RE_IWORD.search(t) is not None),
    ("tool_called", "search", "tool", lambda t: "TOOL_CALL " in t and '"search"' in t),
    ("tool_call_count_between", [0, 2, "search"], "tool", lambda t: t.count("TOOL_CALL ") <= 2),
    (
        "js",
        "r.length > 1500 && r.includes('river')",
        "js",
        lambda t: len(t) > 1500 and "river" in t,
    ),
]
TARGETS = {"string": 200_000, "regex": 50_000, "tool": 50_000, "js": 5_000}


def _rate(fn: Callable[[], object], count: int, repeat: int) -> float:
    return count / median_seconds(fn, repeat=repeat, warmup=1)


def _run_raw(check: Any, args: Any, texts: list[str], ctxs: list[CheckContext]) -> None:
    for text, ctx in zip(texts, ctxs, strict=True):
        check(text, args, ctx)


def _run_full(point: Point, evidences: list[Evidence], env: CheckEnv) -> None:
    for evidence in evidences:
        evaluate_point(point, evidence, env=env)


def _run_bare(bare: Callable[[str], Any], texts: list[str]) -> None:
    for text in texts:
        bare(text)


def _validated(evidences: list[Evidence], point: Point, env: CheckEnv) -> None:
    """The full path plus a validated copy of each assessment (what validation would cost)."""
    for evidence in evidences:
        PointAssessment.model_validate(evaluate_point(point, evidence, env=env).model_dump())


def regex_engines(texts: list[str]) -> dict[str, float]:
    """Tests/s of one pattern on the same texts: QuickJS (reused context), re, regex."""
    sample = texts[:2000]
    py_re, py_regex = re.compile(r"\bsource\b"), regex.compile(r"\bsource\b")
    return {
        "QuickJS RegExp.test (reused context)": _rate(
            lambda: [js_regex_test(r"\bsource\b", "", t) for t in sample], len(sample), 3
        ),
        "Python re": _rate(lambda: [py_re.search(t) for t in sample], len(sample), 5),
        "regex module": _rate(lambda: [py_regex.search(t) for t in sample], len(sample), 5),
    }


def main() -> None:
    texts = responses(N_RESPONSES)
    evidences = [Evidence(prompt_id="p", model_id="m", text=t) for t in texts]
    env = CheckEnv()
    print("Regex decision: hybrid. Our V8-compatible parser translates provably equivalent")
    print(
        "patterns onto the `regex` module; back-references, quantified lookaheads and other flags"
    )
    print("run in QuickJS. Measured now, one pattern over 1-2 KB responses (tests/s):")
    for name, rate in regex_engines(texts).items():
        print(f"  {name:40s} {rate:>12,.0f}")
    print()
    print(f"{N_RESPONSES:,} responses of 1-2 KB ({N_JS:,} for $js); assessments per second:")
    header = f"{'function':26s} {'kind':6s} {'raw fn':>11s} {'full path':>11s} {'bare py':>11s} {'bare/full':>9s} {'target':>8s}  ok"
    print(header)
    print("-" * len(header))
    failures = []
    for name, args, kind, bare in CASES:
        count = N_JS if kind == "js" else N_RESPONSES
        evs, subset = evidences[:count], texts[:count]
        point = Point(fn=name, args=args, has_args=args is not None)
        check = CATALOGUE[name]
        ctxs = [CheckContext(e, env) for e in evs]
        repeat = 1 if kind == "js" else 3
        raw_rate = _rate(partial(_run_raw, check, args, subset, ctxs), count, repeat)
        full_rate = _rate(partial(_run_full, point, evs, env), count, repeat)
        bare_rate = _rate(partial(_run_bare, bare, subset), count, 3)
        target = TARGETS[kind]
        ok = full_rate >= target
        if not ok:
            failures.append(name)
        print(
            f"{name:26s} {kind:6s} {raw_rate:>11,.0f} {full_rate:>11,.0f} {bare_rate:>11,.0f} {bare_rate / full_rate:>8.1f}x {target:>8,}  {'yes' if ok else 'NO'}"
        )
    point = Point(fn="contains", args="x", has_args=True)
    validate = _rate(partial(_validated, evidences[:2000], point, env), 2000, 3)
    print()
    print("The full path builds each PointAssessment without re-validation (its values come from a")
    print(
        f"validated Point and our own conversion); with full validation it would run at {validate:,.0f}/s"
    )
    print("for `contains` (see `_validated`).")
    print(
        f"Targets: string >= 200,000/s, regex and tool >= 50,000/s, $js >= 5,000/s (full path). Missed: {', '.join(failures) or 'none'}."
    )


if __name__ == "__main__":
    main()
