"""Key points from an ideal: when, which models, and parsing a hostile or malformed answer."""

from __future__ import annotations

from engine.blueprint import parse_blueprint
from engine.judge.keypoints import (
    DEFAULT_EXTRACTION_MODELS,
    MAX_KEY_POINT_CHARS,
    MAX_KEY_POINTS,
    extraction_models,
    extraction_user_text,
    key_point_prompts,
    parse_key_points,
    prompt_context,
)


def test_items_are_read_in_any_case_across_lines_and_trimmed():
    text = "Sure!\n<key_point> First </key_point>\n<KEY_POINT>Second\nline</Key_Point> junk"
    assert parse_key_points(text) == ["First", "Second\nline"]


def test_malformed_and_empty_answers_give_no_items():
    assert parse_key_points("") == []
    assert parse_key_points("<key_point>never closed") == []
    assert parse_key_points("</key_point>backwards<key_point>") == []
    assert parse_key_points("<key_point>   </key_point><key_point>\n</key_point>") == []


def test_items_are_bounded_in_number_and_length():
    many = "".join(f"<key_point>p{i}</key_point>" for i in range(MAX_KEY_POINTS + 30))
    found = parse_key_points(many)
    assert len(found) == MAX_KEY_POINTS and found[-1] == f"p{MAX_KEY_POINTS - 1}"
    [long] = parse_key_points(f"<key_point>{'x' * 100_000}</key_point>")
    assert len(long) == MAX_KEY_POINT_CHARS and long.endswith("…")


def test_nested_tags_end_at_the_first_closing_tag():
    assert parse_key_points("<key_point>a <key_point>b</key_point> c</key_point>") == [
        "a <key_point>b"
    ]


def test_which_prompts_and_which_models():
    bp = parse_blueprint(
        "evaluationConfig:\n  llm-coverage:\n    judgeModels: [openai:kp, ' ', 7, openai:kp]\n"
        "---\n"
        "- id: a\n  prompt: q\n  ideal: An answer.\n"
        "- id: b\n  prompt: q\n  ideal: An answer.\n  should: [x]\n"
        "- id: c\n  prompt: q\n  ideal: ''\n"
        "- id: d\n  prompt: q\n  ideal: An answer.\n  should_not: [y]\n"
    )
    assert [p.id for p in key_point_prompts(bp)] == ["a"]
    assert extraction_models(bp) == ["openai:kp"]
    plain = parse_blueprint("- id: a\n  prompt: q\n  ideal: An answer.\n")
    assert extraction_models(plain) == list(DEFAULT_EXTRACTION_MODELS)


def test_the_request_shows_the_conversation_and_the_ideal():
    bp = parse_blueprint(
        "- id: a\n  messages:\n    - user: Hi\n    - assistant: null\n    - user: And?\n"
        "  ideal: Fine.\n"
    )
    text = extraction_user_text(bp.prompts[0])
    assert "user: Hi" in text and "user: And?" in text
    assert "<IDEAL_RESPONSE>\nFine.\n</IDEAL_RESPONSE>" in text


DASHES = "\n" + "-" * 20 + "\n"


def test_the_prompt_is_rendered_as_weval_renders_it():
    # src/cli/evaluators/llm-coverage-evaluator.ts getPromptContextString (weval-org/app
    # 51dc4d3): `role: text` for every turn, a single prompt too; a line of 20 dashes between
    # turns; an `assistant: null` turn as a placeholder the model under test writes
    single = parse_blueprint("- id: a\n  prompt: Is tea hot?\n  ideal: Yes.\n")
    assert prompt_context(single.prompts[0]) == "user: Is tea hot?"
    chat = parse_blueprint(
        "- id: a\n  messages:\n    - user: Hi\n    - assistant: Hello.\n"
        "    - user: And?\n    - assistant: null\n    - user: Well?\n  ideal: Fine.\n"
    )
    assert prompt_context(chat.prompts[0]) == DASHES.join(
        [
            "user: Hi",
            "assistant: Hello.",
            "user: And?",
            "assistant (placeholder-null): <TO_BE_GENERATED>",
            "user: Well?",
        ]
    )


def test_the_request_asks_for_distinct_tagged_points_and_nothing_else():
    bp = parse_blueprint("- id: a\n  prompt: Is tea hot?\n  ideal: Yes, about 80 C.\n")
    text = extraction_user_text(bp.prompts[0])
    assert "<PROMPT>\nuser: Is tea hot?\n</PROMPT>" in text
    assert "distinct" in text and "<key_point>" in text and "nothing but" in text
