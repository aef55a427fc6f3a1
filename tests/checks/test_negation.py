"""Every derived `not_x` is exactly the inverse of `x` (errors identical), over many responses."""

from __future__ import annotations

import pytest

from engine.checks import CATALOGUE, lookup
from tests.checks.conftest import assess, raw

RESPONSES = [
    "",
    "Hello world",
    "The quick brown fox jumps over the lazy dog.",
    "HELLO WORLD, São Paulo and the Paraná",
    "hello\nworld\n",
    "Contact: INFO@EXAMPLE.COM",
]
ARGS = {
    "string": ["hello", "", "world\n", "São", "fox", "[", 123, None],
    "list": [["hello", "fox"], [], ["nope"], "hello", [1]],
}


def _args_for(check) -> list[object]:
    return ARGS["list"] if "list" in check.args else ARGS["string"]


NEGATED = sorted(name for name, check in CATALOGUE.items() if check.negated)


def test_there_are_fourteen_negations_with_singular_aliases():
    assert len(NEGATED) == 28


@pytest.mark.parametrize("name", NEGATED)
def test_not_x_is_one_minus_x(name):
    negated = CATALOGUE[name]
    positive = lookup(negated.canonical)
    assert positive is not None and not positive.negated
    for text in RESPONSES:
        for args in _args_for(positive):
            pos = raw(positive.name, text, args)
            neg = raw(name, text, args)
            if isinstance(pos, dict):
                assert neg == pos  # the error passes through and names the positive function
                assert positive.name in pos["error"] or "regex" in pos["error"]
            elif isinstance(pos, bool):
                assert neg is (not pos)
            else:
                assert neg == pytest.approx(1 - pos)
            a_pos, a_neg = assess(positive.name, text, args), assess(name, text, args)
            if a_pos.status == "scored":
                assert a_neg.coverage_extent == pytest.approx(1 - a_pos.coverage_extent)
            else:
                assert (a_neg.status, a_neg.error) == (a_pos.status, a_pos.error)
