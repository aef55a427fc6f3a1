"""Each rule on its smallest blueprint: code, severity, exact range, and whether a fix exists."""

from __future__ import annotations

import pytest

from engine.blueprint.source import load_yaml_documents
from engine.lint import apply_fix
from tests.lint.cases import CASES, Case
from tests.lint.helpers import find, lint_strict, span


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_rule_reports_code_severity_and_exact_range(case: Case):
    found = find(case.text, case.code)
    assert case.span in [span(d) for d in found], [span(d) for d in found]
    d = next(d for d in found if span(d) == case.span)
    assert d.severity == case.severity
    assert (d.fix is not None) == case.has_fix
    assert d.message[:1].isupper() or d.message.startswith("`")


@pytest.mark.parametrize("case", [c for c in CASES if c.has_fix], ids=lambda c: c.name)
def test_applying_the_fix_removes_the_diagnostic_and_keeps_valid_yaml(case: Case):
    before = find(case.text, case.code)
    d = next(d for d in before if span(d) == case.span)
    fixed = apply_fix(case.text, d)
    load_yaml_documents(fixed)  # raises if the fix broke the YAML
    after = find(fixed, case.code)
    assert len(after) == len(before) - 1, (fixed, after)


def test_diagnostics_are_sorted_by_position():
    text = CASES[0].text
    for case in CASES:
        found = lint_strict(case.text)
        assert found == sorted(found, key=lambda d: d.sort_key())
    assert text
