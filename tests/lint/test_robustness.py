"""`lint` never raises, whatever the text: random text, random blueprint-like YAML, truncations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.lint import Diagnostic, lint
from tests.conftest import CORPUS, EXAMPLES
from tests.lint.helpers import lint_strict

KEYS = [
    "id", "title", "models", "prompt", "messages", "should", "should_not", "points", "expect",
    "ideal", "system", "systems", "temperature", "temperatures", "weight", "multiplier",
    "point", "text", "fn", "arg", "fnArgs", "citation", "user", "assistant", "ai", "role",
    "content", "$contains", "$matches", "$imatches", "$js", "$call", "$contains_all_of",
    "$contains_at_least_n_of", "$word_count_between", "$is_json", "$ref", "point_defs",
    "externalServices", "toolUse", "tools", "evaluationConfig", "schema", "$not_contains",
]  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [
            "",
            "$",
            "$contains: x",
            "$is_json",
            "(?i)x",
            "[",
            "CORE",
            "openai:gpt",
            "r.length >",
            "a",
            "null",
            "assistant",
        ]
    ),
    st.text(max_size=8),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=25,
)


def _check(found: list[Diagnostic]) -> None:
    for d in found:
        assert d.line >= 1 and d.column >= 1
        assert (d.end_line, d.end_column) >= (d.line, d.column)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_random_text_never_raises(text: str):
    _check(lint_strict(text))
    _check(lint_strict(text, source="x.json"))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(VALUES, min_size=1, max_size=3), st.booleans())
def test_random_blueprint_like_yaml_never_raises(docs: list[object], flow: bool):
    text = yaml.safe_dump_all(docs, default_flow_style=flow, allow_unicode=True)
    _check(lint_strict(text))
    _check(lint_strict(json.dumps(docs[0]), source="b.json"))


def _files() -> list[Path]:
    files = sorted(EXAMPLES.glob("*.yml"))
    if CORPUS is not None:
        files += sorted((CORPUS / "blueprints").glob("*.yml"))
    return files


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_truncations_of_every_file_never_raise(path: Path):
    text = path.read_text(encoding="utf-8")
    cuts = sorted(
        {
            *range(0, len(text), max(1, len(text) // 40)),
            *(i for i, ch in enumerate(text) if ch == "\n" and i % 7 == 0),
        }
    )[:120]
    for cut in cuts:
        _check(lint_strict(text[:cut]))


def test_public_lint_survives_odd_input():
    for text in ["", "\ufeff", "---\n---\n", "[" * 5000, "a: " + "[" * 3000, "\x00", "\ud800"]:
        _check(lint(text))
