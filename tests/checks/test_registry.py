"""The one table: the derived names equal upstream's registry; lookup; docs are current."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.checks import CATALOGUE, function_names, lookup, render_reference

REPO = Path(__file__).resolve().parents[2]

# spec §3.1: the files of src/point-functions/ (index.ts and types.ts are not functions).
UPSTREAM_FILES = [
    "call.ts",
    "contains.ts",
    "contains_all_of.ts",
    "contains_any_of.ts",
    "contains_at_least_n_of.ts",
    "contains_word.ts",
    "ends_with.ts",
    "factcheck.ts",
    "icontains.ts",
    "icontains_all_of.ts",
    "icontains_any_of.ts",
    "icontains_at_least_n_of.ts",
    "icontains_word.ts",
    "iends_with.ts",
    "imatch_all_of.ts",
    "imatch_at_least_n_of.ts",
    "imatches.ts",
    "index.ts",
    "is_json.ts",
    "istarts_with.ts",
    "js.ts",
    "matches.ts",
    "matches_all_of.ts",
    "matches_at_least_n_of.ts",
    "not_contains.ts",
    "not_contains_all_of.ts",
    "not_contains_any_of.ts",
    "not_contains_word.ts",
    "not_ends_with.ts",
    "not_icontains.ts",
    "not_icontains_all_of.ts",
    "not_icontains_any_of.ts",
    "not_icontains_word.ts",
    "not_iends_with.ts",
    "not_imatches.ts",
    "not_istarts_with.ts",
    "not_matches.ts",
    "not_starts_with.ts",
    "starts_with.ts",
    "tool_args_match.ts",
    "tool_call_count_between.ts",
    "tool_call_order.ts",
    "tool_called.ts",
    "types.ts",
    "word_count_between.ts",
]

# spec §2.2 (b): registry aliases, alias -> canonical.
UPSTREAM_ALIASES = {
    "contain": "contains",
    "match": "matches",
    "match_all_of": "matches_all_of",
    "contain_all_of": "contains_all_of",
    "icontain": "icontains",
    "imatch": "imatches",
    "icontain_all_of": "icontains_all_of",
    "icontain_any_of": "icontains_any_of",
    "istart_with": "istarts_with",
    "iend_with": "iends_with",
    "contain_at_least_n_of": "contains_at_least_n_of",
    "icontain_at_least_n_of": "icontains_at_least_n_of",
    "match_at_least_n_of": "matches_at_least_n_of",
    "expr": "js",
    "external": "call",
    "contain_word": "contains_word",
    "icontain_word": "icontains_word",
    "not_contain": "not_contains",
    "not_icontain": "not_icontains",
    "not_contain_any_of": "not_contains_any_of",
    "not_icontain_any_of": "not_icontains_any_of",
    "not_contain_all_of": "not_contains_all_of",
    "not_icontain_all_of": "not_icontains_all_of",
    "not_match": "not_matches",
    "not_imatch": "not_imatches",
    "not_start_with": "not_starts_with",
    "not_istart_with": "not_istarts_with",
    "not_end_with": "not_ends_with",
    "not_iend_with": "not_iends_with",
    "not_contain_word": "not_contains_word",
    "not_icontain_word": "not_icontains_word",
}

EXTENSIONS = {
    "required_text",
    "forbidden_text",
    "required_tool",
    "forbidden_tool",
    "no_tool_call",
    "max_duration",
    "schema_result",
    "tool_error_rate",
}


def upstream_names() -> set[str]:
    files = {f.removesuffix(".ts") for f in UPSTREAM_FILES} - {"index", "types"}
    return files | set(UPSTREAM_ALIASES)


def test_spec_lists_are_what_we_think():
    assert len(UPSTREAM_FILES) == 45
    assert len(upstream_names()) == 74


def test_registered_names_equal_upstream_registry_plus_extensions():
    names = set(function_names())
    assert names - EXTENSIONS == upstream_names()
    assert names & EXTENSIONS == EXTENSIONS
    assert {n for n, c in CATALOGUE.items() if c.extension} == EXTENSIONS


@pytest.mark.parametrize(
    "name",
    [
        "imatches_all_of",
        "imatches_at_least_n_of",
        "start_with",
        "end_with",
        "contain_any_of",
        "not_is_json",
        "not_word_count_between",
        "not_js",
        "not_contains_at_least_n_of",
        "containsall",
        "icontains: 'x'",
        "toString",
    ],
)
def test_names_upstream_does_not_have_are_unknown(name):
    assert lookup(name) is None


@pytest.mark.parametrize(("alias", "canonical"), sorted(UPSTREAM_ALIASES.items()))
def test_aliases_resolve_to_their_canonical_function(alias, canonical):
    found = lookup(alias)
    assert found is not None
    target = lookup(canonical)
    assert target is not None
    assert found.canonical == target.canonical
    assert found.negated == target.negated


def test_not_start_with_exists_without_start_with():
    assert lookup("not_start_with") is not None
    assert lookup("start_with") is None


def test_negations_point_at_negatable_bases_and_typed_functions_are_not_negatable():
    for name, check in CATALOGUE.items():
        if check.negated:
            base = lookup(check.canonical)
            assert base is not None and base.negatable and not base.negated, name
        if check.typed:
            assert not check.negatable and lookup("not_" + name) is None


def test_every_entry_is_documented():
    for name, check in CATALOGUE.items():
        assert check.summary.endswith("."), name
        assert check.args, name
        assert check.example.startswith("$"), name


def test_case_insensitive_twins_share_one_function():
    contains, icontains = lookup("contains"), lookup("icontains")
    assert contains is not None and icontains is not None
    assert contains.fn.func is icontains.fn.func  # type: ignore[attr-defined]
    assert icontains.fn.keywords == {"ignore_case": True}  # type: ignore[attr-defined]


def test_docs_checks_md_is_current():
    path = REPO / "docs" / "checks.md"
    assert path.read_text(encoding="utf-8") == render_reference(), (
        "docs/checks.md is stale: run "
        'python -c "from engine.checks import render_reference; '
        "open('docs/checks.md', 'w').write(render_reference())\""
    )


def test_reference_has_a_section_per_base_function_with_aliases_and_negations():
    doc = render_reference()
    assert "## `$contains`" in doc
    section = doc.split("## `$contains`")[1].split("## ")[0]
    assert "`$contain`" in section and "`$not_contains`" in section and "`$not_contain`" in section
    starts = doc.split("## `$starts_with`")[1].split("## ")[0]
    assert "**Aliases:** none" in starts and "`$not_start_with`" in starts


def test_public_api_names_are_exported_from_engine():
    for name in (
        "CheckEnv",
        "evaluate_point",
        "evaluate_function_points",
        "lookup",
        "function_names",
        "js_regex_error",
        "js_syntax_error",
        "call_host_refusal",
    ):
        assert name in engine.__all__
