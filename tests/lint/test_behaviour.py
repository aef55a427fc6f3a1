"""What the diagnostics say and how the linter copes: messages, recovery, JSON, settings, fixes."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.blueprint import parse_blueprint
from engine.lint import CODES, Diagnostic, Fix, apply_fix, lint
from engine.settings import Settings
from tests.lint.helpers import codes, find, lint_strict, span

P = "- id: p\n  prompt: hi\n"


def test_single_element_paths_explain_or_versus_and():
    (first, _) = find(
        P + "  should:\n    - - $icontains: a\n    - - $icontains: b\n", "single-element-path"
    )
    assert "1.0" in first.message and "0.5" in first.message
    (lone,) = find(P + "  should:\n    - A\n    - B\n    - - C\n", "single-element-path")
    assert "half of the final score" in lone.message and "2 points" in lone.message


def test_a_lone_one_point_path_with_nothing_else_is_harmless():
    assert "single-element-path" not in codes(P + "  should:\n    - - C\n")


def test_or_block_info_only_when_a_real_path_sits_beside_required_points():
    text = P + "  should:\n    - A\n    - - B\n    - - C\n"
    assert "or-block-with-required" not in codes(text)  # the warnings already explain it
    (info,) = find(P + "  should:\n    - A\n    - - B\n      - C\n", "or-block-with-required")
    assert "ONE item" in info.message and "half" in info.message
    # one-point paths kept as alternatives on purpose: the warnings are silenced, the info says
    marked = text.replace("B\n", "B  # lint: ignore[single-element-path]\n").replace(
        "C\n", "C  # lint: ignore[single-element-path]\n"
    )
    assert codes(marked) == ["or-block-with-required"]


def test_parser_errors_are_not_repeated_when_a_rule_explains_them():
    found = codes(P + "  should:\n    - point: a\n      weight: 20\n")
    assert found.count("weight-out-of-range") == 1 and "invalid-blueprint" not in found
    found = codes(P + "  system: [a, b]\n  should: [a]\n")
    assert "prompt-system-list" in found and "invalid-blueprint" not in found


def test_parser_errors_in_each_prompt_are_all_reported():
    text = (
        P
        + "  should: [a]\n  render_as: pdf\n- id: q\n  prompt: hi\n  should: [a]\n  temperature: hot\n"
    )
    invalid = find(text, "invalid-blueprint")
    assert [d.line for d in invalid] == [4, 8]
    assert "render_as" in invalid[0].message and "temperature" in invalid[1].message


def test_a_prompt_that_is_not_a_mapping_is_positioned():
    (d,) = find(P + "  should: [a]\n- 5\n", "invalid-blueprint")
    assert span(d)[:2] == (4, 3) and "mapping" in d.message


def test_linting_goes_on_after_a_syntax_error():
    text = (
        "title: t\n---\n- id: a\n  prompt: Benefits: Uttar Pradesh\n  should: [x]\n"
        "- id: b\n  prompt: hi\n  should:\n    - point: y\n      weight: 50\n"
        "- id: c\n  prompt: 'unclosed\n  should: [z]\n"
    )
    found = lint_strict(text)
    syntax = [d for d in found if d.code == "yaml-syntax"]
    assert [(d.line, d.column) for d in syntax] == [(4, 19), (12, 11)]
    assert any(d.code == "weight-out-of-range" and d.line == 10 for d in found)


def test_duplicate_keys_are_reported_everywhere_and_the_rest_is_linted():
    text = P + "  should: [a]\n  should: [b]\n  weight: 30\n"
    found = lint_strict(text)
    assert [(d.code, d.line) for d in found if d.code == "duplicate-key"] == [("duplicate-key", 4)]
    assert "weight-out-of-range" in [d.code for d in found]


def test_byte_order_mark_keeps_columns_right():
    text = "\ufeffid: x\ntitle: t\n---\n" + P + "  should: [a]\n"
    (d,) = find(text, "header-id")
    assert span(d) == (1, 2, 1, 7)
    assert apply_fix(text, d.model_copy(update={"fix": Fix(title="t", replacement="")})).startswith(
        "\ufeff\ntitle"
    )


def test_json_blueprints_are_linted_with_positions_and_no_fixes():
    text = (
        '{"title": "t",\n "prompts": [{"prompt": "hi", "should": [["$is_json"], ["x", "y"], "z"]}]}'
    )
    found = lint_strict(text, source="b.json")
    assert {d.code for d in found} >= {"missing-id", "single-element-path", "function-text-in-path"}
    assert all(d.fix is None for d in found)
    (paths,) = [d for d in found if d.code == "single-element-path"]
    assert span(paths) == (2, 42, 2, 54)
    (bad,) = lint_strict('{"title": "t",\n "prompts": [}', source="b.json")
    assert (bad.code, bad.line, bad.column) == ("yaml-syntax", 2, 14)


def test_call_allow_list_from_settings():
    text = P + "  should:\n    - $call: {url: 'https://checker.example.org/score'}\n"
    assert "call-host-refused" in codes(text)
    allowed = Settings(call_allow=("checker.example.org",))
    assert "call-host-refused" not in codes(text, settings=allowed)
    (d,) = find(text, "call-host-refused")
    assert "BLUEPRINT_CALL_ALLOW" in d.message


def test_no_secret_reaches_a_message(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CHECKER_TOKEN", "sk-very-secret")
    text = (
        "externalServices:\n  checker:\n    url: http://10.1.2.3/score\n"
        "    headers: {Authorization: 'Bearer ${CHECKER_TOKEN}'}\n---\n"
        + P
        + "  should:\n    - $call: {service: checker}\n"
    )
    found = lint_strict(text)
    assert "call-host-refused" in [d.code for d in found]
    assert all("sk-very-secret" not in d.message for d in found)


def test_base_url_makes_a_provider_known(monkeypatch: pytest.MonkeyPatch):
    text = "models: [vllm:my-model]\n---\n" + P + "  should: [a]\n"
    (d,) = find(text, "unknown-provider")
    assert "openrouter" in d.message and "VLLM_BASE_URL" in d.message
    monkeypatch.setenv("VLLM_BASE_URL", "http://127.0.0.1:8000/v1")
    assert "unknown-provider" not in codes(text)


def test_collections_are_info_and_say_what_they_run():
    (d,) = find("models: [CORE]\n---\n" + P + "  should: [a]\n", "model-collection")
    assert d.severity == "info" and "runs 33 models" in d.message and "blueprint plan" in d.message


def test_should_not_offers_the_not_form_or_a_rephrasing():
    (d,) = find(P + "  should_not:\n    - $icontains: sorry\n", "should-not")
    assert "`$not_icontains: sorry`" in d.message
    (d,) = find(P + "  should_not:\n    - $not_contains: sorry\n", "should-not")
    assert "double negative" in d.message and "`$contains: sorry`" in d.message
    (d,) = find(P + "  should_not:\n    - Gives a dosage.\n", "should-not")
    assert "no `$not_` form" in d.message and "good answer does" in d.message


def test_should_not_text_is_noted_once_per_list_and_functions_move_to_should():
    text = (
        P + "  should:\n    - Is kind.\n  should_not:\n    - $icontains: sorry\n"
        "    - Gives a dosage.\n    - Is rude.\n"
    )
    found = find(text, "should-not")
    notes = [d for d in found if d.severity == "info"]
    assert len(notes) == 1 and "these 2 judged points" in notes[0].message
    (moved,) = [d for d in found if d.severity == "warning"]
    assert moved.fix is not None and moved.fix.score_neutral  # 1 - s either way
    fixed = apply_fix(text, moved)
    assert "- $not_icontains: sorry" in fixed.split("should_not:")[0]
    after = parse_blueprint(fixed).prompts[0].points
    assert [(p.text or f"${p.fn}", p.inverted) for p in after] == [
        ("Is kind.", False),
        ("$not_icontains", False),
        ("Gives a dosage.", True),
        ("Is rude.", True),
    ]
    assert [d.severity for d in find(fixed, "should-not")] == ["info"]


def test_inline_i_on_a_negated_match_becomes_the_negated_caseless_function():
    text = P + "  should:\n    - $not_matches: '(?i)sorry'\n"
    (d,) = find(text, "invalid-regex")
    assert d.fix is not None and d.fix.replacement == "$not_imatches: 'sorry'"
    assert "invalid-regex" not in codes(apply_fix(text, d))


def test_dollar_text_in_a_path_is_fixed_to_a_mapping():
    text = P + "  should:\n    - - $is_json\n      - Has a name.\n"
    (d,) = find(text, "function-text-in-path")
    assert d.fix is not None and d.fix.replacement == "$is_json: null"


def test_extension_and_alias_functions_are_known():
    text = (
        P
        + "  should:\n    - $required_text: [refund]\n    - $contain: x\n    - $expr: r.length > 1\n"
    )
    assert "unknown-function" not in codes(text)


def test_no_criteria_not_reported_when_an_ideal_answer_exists():
    assert "no-criteria" not in codes(P + "  ideal: Paris.\n")


def test_an_ideal_without_points_says_which_model_extracts_and_what_it_costs():
    (d,) = find(P + "  ideal: Paris.\n", "ideal-key-points")
    assert d.severity == "info"
    assert "openai:gpt-4o-mini, then openrouter:google/gemini-1.5-flash-latest" in d.message
    assert "one extra call" in d.message and "judge call per point" in d.message
    own = (
        "evaluationConfig:\n  llm-coverage:\n    judgeModels: [openai:kp-1]\n---\n"
        + P
        + "  ideal: Paris.\n"
    )
    (d,) = find(own, "ideal-key-points")
    assert "(openai:kp-1)" in d.message and "gpt-4o-mini" not in d.message
    # points written, or an empty ideal: nothing is extracted
    assert "ideal-key-points" not in codes(P + "  ideal: Paris.\n  should: [Paris]\n")
    assert "ideal-key-points" not in codes(P + "  ideal: ''\n")


def test_missing_ids_get_distinct_slugs():
    text = "- prompt: Hello there\n  should: [a]\n- prompt: Hello there!\n  should: [b]\n"
    fixes = [d.fix.replacement for d in find(text, "missing-id") if d.fix]
    assert fixes == [
        "id: hello-there\n  prompt: Hello there",
        "id: hello-there-2\n  prompt: Hello there!",
    ]


def test_trailing_assistant_null_at_end_of_file_without_newline():
    text = "- id: p\n  should: [a]\n  messages:\n    - user: Hi\n    - assistant: null"
    (d,) = find(text, "trailing-assistant-null")
    assert span(d) == (5, 1, 5, 22)
    assert apply_fix(text, d).endswith("    - user: Hi\n")


def test_header_system_list_counts_as_systems():
    text = "system: [a, b]\n---\n" + P + "  system: c\n  should: [x]\n"
    assert "prompt-system-with-systems" in codes(text)


def test_messages_in_plain_words_name_the_effect_on_the_score():
    text = P + "  should:\n    - $contains: [a]\n    - $nope\n    - $matches: '('\n"
    for d in lint_strict(text):
        assert "left out of the score" in d.message


def test_diagnostics_are_frozen_and_codes_are_checked():
    d = Diagnostic(
        line=1, column=1, end_line=1, end_column=2, severity="info", code="header-id", message="m"
    )
    with pytest.raises(ValidationError):
        d.line = 3  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Diagnostic(
            line=1, column=1, end_line=1, end_column=2, severity="info", code="nope", message="m"
        )
    assert all(code in CODES for code in codes("id: x\n"))


def test_apply_fix_inserts_at_a_zero_width_range_and_refuses_without_fix():
    d = Diagnostic(
        line=2, column=3, end_line=2, end_column=3, severity="warning", code="missing-id",
        message="m", fix=Fix(title="t", replacement="id: p\n  "),
    )  # fmt: skip
    assert apply_fix("- x\n- prompt: hi\n", d) == "- x\n- id: p\n  prompt: hi\n"
    with pytest.raises(ValueError, match="no fix"):
        apply_fix("x", d.model_copy(update={"fix": None}))


def test_public_lint_uses_the_users_settings_and_never_raises(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("BLUEPRINT_CALL_ALLOW", "checker.example.org")
    text = P + "  should:\n    - $call: {url: 'https://checker.example.org/score'}\n"
    assert "call-host-refused" not in [d.code for d in lint(text)]


def test_a_prompt_cut_by_a_syntax_error_is_not_reported_as_empty():
    text = (
        "prompt: a\nshould: [x]\nid: a\n---\nprompt: hi\nshould: [- - x]\n---\nid: c\nprompt: c\n"
    )
    found = [(d.line, d.code) for d in lint_strict(text)]
    assert (6, "yaml-syntax") in found
    assert not any(line in (5, 6) and code != "yaml-syntax" for line, code in found)
    assert (8, "no-criteria") in found  # the prompts after the error are still checked


def _bomb_header() -> list[str]:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return lines


def test_an_alias_bomb_is_one_error_not_a_cascade_of_missing_anchors():
    text = "\n".join([*_bomb_header(), "prompts:\n  - prompt: hi\n    should: [*i]"]) + "\n"
    found = [d for d in lint(text) if d.code == "yaml-syntax"]
    assert len(found) == 1, [d.message for d in found]
    assert "1,000,000 items" in found[0].message and found[0].line == 7


def test_an_alias_to_an_anchor_never_written_is_still_reported_after_a_recovery():
    text = "\n".join([*_bomb_header(), "---", "- prompt: hi", "  should: [*nope]"]) + "\n"
    found = [(d.line, d.message) for d in lint(text) if d.code == "yaml-syntax"]
    assert [line for line, _ in found] == [7, 12], found
    assert "not defined above it" in found[1][1]


OR = P + "  should:\n    - - $icontains: abuja\n    - - $icontains: lagos\n"


def test_an_ignore_comment_silences_its_codes_on_its_line_only():
    one = OR.replace("abuja\n", "abuja  # lint: ignore[single-element-path]\n")
    (left,) = find(one, "single-element-path")
    assert left.line == 5  # the other path, on the next line, still warns
    both = one.replace(
        "lagos\n", "lagos  # note  # lint: ignore[missing-id, single-element-path]\n"
    )
    assert "single-element-path" not in codes(both)
    # another code in the comment does not silence this one
    other = OR.replace("abuja\n", "abuja  # lint: ignore[missing-id]\n")
    assert [d.line for d in find(other, "single-element-path")] == [4, 5]
    # as in YAML, a `#` right after other text starts no comment
    quoted = P + "  should:\n    - - 'x#lint: ignore[single-element-path]'\n    - - y\n"
    assert len(find(quoted, "single-element-path")) == 2


def test_a_one_point_path_states_both_readings_and_offers_both_fixes():
    first, _ = find(OR, "single-element-path")
    assert "Two readings" in first.message and "any one of these paths is enough" in first.message
    assert [f.title for f in first.fixes] == [
        "Make it a required point",
        "Keep as alternatives: either is enough",
    ]
    keep = first.alternatives[0]
    assert keep.score_neutral and not first.fix.score_neutral
    kept = apply_fix(OR, first, keep)
    assert kept.splitlines()[3] == "    - - $icontains: abuja  # lint: ignore[single-element-path]"
    assert [d.line for d in find(kept, "single-element-path")] == [5]
    # a flow list with more on the line: the comment cannot go there, only the flatten fix
    flow = P + "  should: [[$icontains: abuja], [$icontains: lagos]]\n"
    assert all(not d.alternatives for d in find(flow, "single-element-path"))


@pytest.mark.parametrize(
    ("key", "meant"),
    [("shuold", "should"), ("shoud", "should"), ("Should", "should"), ("shouldnot", "should_not")],
)
def test_a_points_key_one_edit_away_is_an_error_with_a_rename(key: str, meant: str):
    text = P + f"  {key}:\n    - Says hi.\n    - Is kind.\n"
    (d,) = find(text, "unknown-key")
    assert (
        d.severity == "error"
        and "its 2 points" in d.message
        and "nothing under it is scored" in d.message
    )
    assert d.fix is not None and d.fix.replacement == meant
    fixed = apply_fix(text, d)
    assert len(parse_blueprint(fixed).prompts[0].points) == 2


def test_other_unknown_prompt_keys_stay_warnings():
    (d,) = find(P + "  ideel: x\n  should: [a]\n", "unknown-key")
    assert d.severity == "warning"
    (d,) = find(P + "  should: [a]\n  shuold: [b]\n", "unknown-key")
    assert d.severity == "error" and d.fix is None and "already has `should`" in d.message


def test_a_lone_should_not_check_becomes_a_should_list():
    text = P + "  should_not:\n    - $icontains: sorry  # keep it short\n  ideal: Hi.\n"
    (d,) = find(text, "should-not")
    assert d.fix is not None and d.fix.span is not None
    fixed = apply_fix(text, d)
    assert fixed == P + "  should:\n    - $not_icontains: sorry  # keep it short\n  ideal: Hi.\n"
    # a flow list has no line of its own to move: the advice stays, with no fix
    (flow,) = find(P + "  should_not: [$icontains: sorry]\n", "should-not")
    assert flow.fix is None and "`$not_icontains: sorry`" in flow.message
