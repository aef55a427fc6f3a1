"""docs/lint.md documents exactly the codes in `CODES`, each with a bad and a good example."""

from __future__ import annotations

import re

import pytest

from engine.lint import CODES
from tests.conftest import REPO
from tests.lint.helpers import codes

DOC = (REPO / "docs" / "lint.md").read_text(encoding="utf-8")
SECTIONS = dict(re.findall(r"^## (\S+)\n(.*?)(?=^## |\Z)", DOC, flags=re.M | re.S))


def _example(body: str, label: str) -> str:
    m = re.search(rf"^{label}:\n\n```yaml\n(.*?)```", body, flags=re.M | re.S)
    assert m, f"missing {label} example"
    return m.group(1)


def test_headings_are_exactly_the_codes():
    assert set(SECTIONS) == set(CODES)


def test_every_code_has_a_severity_and_summary():
    for code, info in CODES.items():
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", code)
        assert info.severity in ("error", "warning", "info") and info.summary
        assert f"**{info.severity}.**" in SECTIONS[code], code


@pytest.mark.parametrize("code", sorted(CODES))
def test_bad_example_gets_the_code_and_good_one_does_not(code: str):
    body = SECTIONS[code]
    assert code in codes(_example(body, "Bad"))
    assert code not in codes(_example(body, "Good"))
