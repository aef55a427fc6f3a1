"""Drafts are refused for every point that runs code or calls out, by what it does (item 7)."""

from __future__ import annotations

import pytest

from engine.checks import CATALOGUE
from engine.drafting.check import DraftRefused, read_draft, read_points

RUNS_CODE_OR_CALLS_OUT = {
    "$expr": "$expr: 'r.length > 1'",
    "$js": "$js: 'r.length > 1'",
    "$call": "$call: {url: 'https://example.com/score'}",
    "$external": "$external: {url: 'https://example.com/score'}",
    "$factcheck": "$factcheck: dates",
    "$tool_args_match with a string where": "$tool_args_match: {name: f, where: 'args.x > 1'}",
}


@pytest.mark.parametrize("name", sorted(RUNS_CODE_OR_CALLS_OUT))
def test_a_draft_with_such_a_point_is_refused(name: str) -> None:
    point = RUNS_CODE_OR_CALLS_OUT[name]
    with pytest.raises(DraftRefused, match="runs code"):
        read_draft(f"- prompt: hi\n  should:\n    - {point}\n")
    with pytest.raises(DraftRefused, match="runs code"):
        read_points(f"should_not:\n  - {point}\n", "hi")


def test_every_registered_name_that_runs_code_or_calls_out_is_refused() -> None:
    """Whatever its name (alias, synonym, `not_*`), by the registry's description of it."""
    for name, check in CATALOGUE.items():
        if check.needs_network or (check.runs_js and check.runs_js_when is None):
            with pytest.raises(DraftRefused, match="runs code"):
                read_draft(f"- prompt: hi\n  should:\n    - ${name}: 'x'\n")


def test_tool_args_match_with_an_object_where_runs_no_code_and_is_kept() -> None:
    draft = read_draft(
        "- id: p\n  prompt: hi\n  should:\n    - $tool_args_match: {name: f, where: {x: 1}}\n"
    )
    assert "$tool_args_match" in draft.text
