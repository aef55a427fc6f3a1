"""The real Weval corpus lints without a crash, and its real problems are found where they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CORPUS, EXAMPLES, NO_CORPUS_REASON
from tests.lint.helpers import lint_strict, span

FILES = sorted((CORPUS / "blueprints").glob("*.yml")) if CORPUS else []
corpus = pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS_REASON)


def _lint(name: str):
    assert CORPUS is not None
    return lint_strict((CORPUS / "blueprints" / name).read_text(encoding="utf-8"), source=name)


@corpus
def test_corpus_is_here():
    assert len(FILES) == 40


@corpus
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_corpus_file_lints_without_a_crash(path: Path):
    for d in lint_strict(path.read_text(encoding="utf-8"), source=path.name):
        assert d.line >= 1 and d.message


@corpus
@pytest.mark.parametrize(
    ("name", "code", "minimum"),
    [
        ("lost-cause-narrative-probe.yml", "quoted-function", 1),
        ("benchmarks__olymmath.yml", "quoted-function", 8),
        ("factual-recall__geography-sample.yml", "single-element-path", 4),
        ("confidence-high-stakes-domains.yml", "single-element-path", 2),
        ("prompting-techniques-meta-eval.yml", "single-element-path", 2),
        ("visual__bias-detection-svg.yml", "single-element-path", 10),
        ("mh_z_tests__mh1.yml", "should-not", 2),
        ("indian-bias-forced-choice.yml", "should-not-path-merge", 1),
        ("test.yml", "unknown-key", 2),
        ("inventories__personality-signal-probes.yml", "missing-id", 10),
    ],
)
def test_real_problems_are_found(name: str, code: str, minimum: int):
    found = [d for d in _lint(name) if d.code == code]
    assert len(found) >= minimum


@corpus
def test_real_problems_exact_positions():
    quoted = [d for d in _lint("lost-cause-narrative-probe.yml") if d.code == "quoted-function"]
    assert [span(d) for d in quoted] == [(48, 7, 48, 49)]
    assert quoted[0].fix is not None
    assert quoted[0].fix.replacement == "$icontains: 'war of northern aggression'"
    paths = [
        d for d in _lint("factual-recall__geography-sample.yml") if d.code == "single-element-path"
    ]
    assert (248, 7, 248, 69) in [span(d) for d in paths]


@corpus
def test_unparseable_files_give_positioned_errors_and_linting_goes_on():
    maternal = _lint("maternal-health-uttar-pradesh.yml")
    syntax = [d for d in maternal if d.code == "yaml-syntax"]
    assert [(d.line, d.column, d.severity) for d in syntax] == [(2, 25, "error")]
    assert "quotes" in syntax[0].message
    assert any(d.code == "model-collection" and d.line > 2 for d in maternal)
    native = _lint("tool-use-native-test.yml")
    invalid = [d for d in native if d.code == "invalid-blueprint"]
    assert [(d.line, d.column, d.end_column) for d in invalid] == [(14, 9, 13)]
    assert "trace-only" in invalid[0].message
    assert any(d.code == "single-element-path" for d in native)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yml")), ids=lambda p: p.name)
def test_examples_have_no_warnings_or_errors(path: Path):
    found = lint_strict(path.read_text(encoding="utf-8"), source=path.name)
    assert [d for d in found if d.severity != "info"] == []
