"""Judge prompts, tolerant parsing, consensus, backup rule and Krippendorff's alpha (spec §5)."""

from __future__ import annotations

import asyncio
import re

import pytest

from engine.blueprint import parse_blueprint
from engine.conversation import build_evidence
from engine.judge import (
    BACKUP_JUDGE,
    DEFAULT_JUDGES,
    FIVE_POINT,
    NINE_POINT,
    ConsensusJudge,
    JudgeParseError,
    JudgeSpec,
    build_judge_prompt,
    judge_agreement,
    krippendorff_alpha,
    parse_judgement,
    scale_for,
    transcript,
)

BP = parse_blueprint(
    """
title: t
description: Checks politeness.
---
- id: p1
  messages:
    - user: hi
    - assistant: null
    - user: and?
  should:
    - be polite
    - $contains: hello
  should_not:
    - be rude
"""
)
PROMPT = BP.prompts[0]
EVIDENCE = build_evidence(
    PROMPT,
    "m[temp:0]",
    response="second",
    messages=[
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "first"},
        {"role": "user", "content": "and?"},
        {"role": "assistant", "content": "second"},
    ],
)


def answer(cls: str, reflection: str = "ok") -> str:
    return f"<reflection>{reflection}</reflection>\n<classification>{cls}</classification>"


def caller_from(table):
    calls = []

    async def call(judge, system, user):
        calls.append((judge, system, user))
        result = table[judge.model]
        if isinstance(result, Exception):
            raise result
        return result

    call.calls = calls
    return call


# --- parsing (spec §5.4) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cls", "score"),
    [
        (answer("CLASS_EXACT"), "CLASS_EXACT", 1.0),
        (answer("exact"), "CLASS_EXACT", 1.0),
        (answer(" class_very_nearly "), "CLASS_VERY_NEARLY", 0.875),
        (
            "<Reflection>r</Reflection><CLASSIFICATION>**CLASS_TRACE**</CLASSIFICATION>",
            "CLASS_TRACE",
            0.125,
        ),
        ("I think this is CLASS_UNMET overall.", "CLASS_UNMET", 0.001),
        (answer("CLASS_UTTERLY_UNMET"), "CLASS_UTTERLY_UNMET", 0.0),
    ],
)
def test_tolerant_parser(text, cls, score):
    j = parse_judgement(text, NINE_POINT)
    assert (j.class_name, j.score) == (cls, score)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Empty response"),
        ("   ", "Empty response"),
        ("<reflection>x</reflection>", "Failed to parse XML"),
        (
            answer("CLASS_MAJORLY_MET"),
            "Invalid classification value",
        ),  # a 5-point name on the 9-point scale
        ("CLASS_EXACT or CLASS_TRACE", "Failed to parse XML"),
    ],
)
def test_parser_errors(text, message):
    with pytest.raises(JudgeParseError, match=message):
        parse_judgement(text, NINE_POINT)


def test_parser_error_never_quotes_the_answer():
    secret = "UNTRUSTED-MODEL-TEXT-123"
    with pytest.raises(JudgeParseError) as info:
        parse_judgement(f"blah {secret} blah", NINE_POINT)
    assert secret not in str(info.value)


def test_five_point_scale_when_asked():
    assert scale_for({"llm-coverage": {"useExperimentalScale": False}}) is FIVE_POINT
    assert scale_for({}) is NINE_POINT
    assert parse_judgement(answer("MAJORLY_MET"), FIVE_POINT).score == 0.75


# --- prompts (spec §5.1-§5.2) ----------------------------------------------------------


def test_transcript_marks_generated_and_fixed_turns():
    text = transcript(
        [
            {"role": "system", "content": "s"},
            {"role": "user", "content": "u"},
            {"role": "assistant", "content": "fixed"},
            {"role": "assistant", "content": "gen"},
        ],
        [3],
    )
    assert text.split("\n--------------------\n") == [
        "system: s",
        "user: u",
        "assistant (fixed): fixed",
        "assistant (generated): gen",
    ]


@pytest.mark.parametrize("scale", [FIVE_POINT, NINE_POINT])
def test_prompt_uses_only_the_active_scales_class_names(scale):
    system, user = build_judge_prompt(
        criterion="c", transcript_text="t", subject="s", scale=scale, approach="holistic"
    )
    other = NINE_POINT if scale is FIVE_POINT else FIVE_POINT
    names = {c.name for c in scale.classes}
    foreign = {c.name for c in other.classes} - names
    for name in foreign:
        assert not re.search(rf"\b{name}\b", system + user)
    assert scale.highest.name in system and scale.lowest.name in system
    assert f"ONE of the {len(scale.classes)} class names" in user


def test_holistic_description_and_no_literal_undefined():
    system, _ = build_judge_prompt(
        criterion="c",
        transcript_text="t",
        subject="s",
        scale=NINE_POINT,
        approach="holistic",
        description="Suite context here",
    )
    assert "<BROAD_EVALUATION_DESCRIPTION>" in system and "Suite context here" in system
    system, _ = build_judge_prompt(
        criterion="c",
        transcript_text="t",
        subject="s",
        scale=NINE_POINT,
        approach="holistic",
        description=None,
    )
    assert "BROAD_EVALUATION_DESCRIPTION" not in system and "undefined" not in system
    _, standard = build_judge_prompt(
        criterion="c", transcript_text="t", subject="s", scale=NINE_POINT
    )
    _, aware = build_judge_prompt(
        criterion="c", transcript_text="t", subject="s", scale=NINE_POINT, approach="prompt-aware"
    )
    assert "the following <CRITERION>" in standard and "THIS SPECIFIC <CRITERION>" in aware


# --- consensus (spec §5.6-§5.7) --------------------------------------------------------


def judge_cell(judges, table, custom=True):
    call = caller_from(table)
    records = []
    judge = ConsensusJudge(judges, call, custom=custom, on_record=records.append)
    texts = [p for p in PROMPT.points if p.fn is None]
    assessments, agreement = asyncio.run(judge.judge_points(BP, PROMPT, EVIDENCE, texts))
    return assessments, agreement, call.calls, records


def test_two_custom_judges_average_and_invert():
    judges = [JudgeSpec("custom:judge1", "standard"), JudgeSpec("custom:judge2", "holistic")]
    assessments, agreement, calls, records = judge_cell(
        judges, {"custom:judge1": answer("CLASS_EXACT"), "custom:judge2": answer("CLASS_MODERATE")}
    )
    polite, rude = assessments
    assert polite.coverage_extent == 0.75
    assert polite.judge_model_id == "consensus(standard(custom:judge1), holistic(custom:judge2))"
    assert [j.coverage_extent for j in polite.individual_judgements] == [1.0, 0.5]
    assert polite.reflection.startswith("Consensus from 2 judge(s). Average score: 0.75.")
    assert rude.is_inverted and rude.coverage_extent == 0.25
    assert rude.reflection.startswith("[INVERTED] ")
    assert len(calls) == 4 and len(records) == 4
    assert agreement["numItems"] == 2 and agreement["numJudges"] == 2
    # the judge sees the generated turns as the subject and the criterion
    _system, user = calls[0][1], calls[0][2]
    assert (
        "<CRITERION>\nbe polite\n</CRITERION>" in user
        or "<CRITERION>\nbe rude\n</CRITERION>" in user
    )
    assert "<TEXT>\nfirst\n\nsecond\n</TEXT>" in user


def test_custom_judge_failure_gives_partial_consensus_without_backup():
    judges = [JudgeSpec("custom:judge1", "standard"), JudgeSpec("custom:judge2", "standard")]
    assessments, *_, calls, _ = judge_cell(
        judges, {"custom:judge1": answer("CLASS_EXACT"), "custom:judge2": RuntimeError("boom")}
    )
    polite = assessments[0]
    assert polite.coverage_extent == 1.0 and polite.status == "scored"
    assert polite.judge_model_id == "consensus(standard(custom:judge1))"
    assert polite.error.startswith("1 of 2 judges failed to return a valid assessment.")
    assert "WARNING:" in polite.reflection
    assert all(c[0] is not BACKUP_JUDGE for c in calls)


def test_all_judges_failing_is_an_error_left_out():
    judges = [JudgeSpec("custom:judge1")]
    assessments, agreement, *_ = judge_cell(judges, {"custom:judge1": "garbage"})
    assert assessments[0].status == "errored"
    assert assessments[0].error == "All judges failed in consensus mode."
    assert assessments[0].coverage_extent is None and assessments[0].judge_model_id is None
    assert agreement is None


def test_default_judges_use_the_backup_when_one_fails():
    table = {j.model: answer("CLASS_EXACT") for j in DEFAULT_JUDGES}
    table[DEFAULT_JUDGES[0].model] = RuntimeError("down")
    assert BACKUP_JUDGE.model == DEFAULT_JUDGES[2].model  # same model, answered by the table
    assessments, agreement, _calls, records = judge_cell(list(DEFAULT_JUDGES), table, custom=False)
    polite = assessments[0]
    assert polite.error is None
    assert "NOTE: Backup judge was used" in polite.reflection
    assert polite.judge_model_id.endswith(
        "backup-claude-4-5-haiku(openrouter:anthropic/claude-haiku-4.5))"
    )
    assert sum(1 for r in records if r.backup) == 2  # once per text point
    assert agreement["numJudges"] == 3


def test_no_backup_when_every_primary_succeeds():
    table = {j.model: answer("CLASS_EXACT") for j in DEFAULT_JUDGES}
    _, _, calls, _ = judge_cell(list(DEFAULT_JUDGES), table, custom=False)
    assert len(calls) == 6


def test_consensus_is_rounded_like_javascript():
    judges = [JudgeSpec("a:1"), JudgeSpec("a:2"), JudgeSpec("a:3")]
    assessments, *_ = judge_cell(
        judges,
        {"a:1": answer("CLASS_EXACT"), "a:2": answer("CLASS_TRACE"), "a:3": answer("CLASS_TRACE")},
    )
    # (1 + 0.125 + 0.125) / 3 = 0.41666 -> 0.42
    assert assessments[0].coverage_extent == 0.42


# --- agreement (spec §5.8) -------------------------------------------------------------


def test_krippendorff_facts():
    alpha, n = krippendorff_alpha([[0.75, 0.875], [0.625, 0.75], [0.5, 0.625]])
    assert round(alpha, 3) == 0.545 and n == 3
    assert krippendorff_alpha([[0.75, 0.75], [0.75, 0.75]])[0] == 1.0
    assert krippendorff_alpha([[0.0, 1.0], [0.0, 1.0]])[0] == pytest.approx(-0.5)


def test_agreement_block():
    judges = [JudgeSpec("x:a", id="A"), JudgeSpec("x:b", id="B")]
    assessments, agreement, *_ = judge_cell(
        judges, {"x:a": answer("CLASS_EXACT"), "x:b": answer("CLASS_UTTERLY_UNMET")}
    )
    assert agreement["interpretation"] == "unreliable"
    assert agreement["krippendorffsAlpha"] == -0.5
    assert agreement["numComparisons"] == 2
    assert [u["judgeId"] for u in agreement["judgesUsed"]] == ["A", "B"]
    assert len(agreement["judgeSetFingerprint"]) == 12
    single = judge_agreement(
        [
            assessments[0].model_copy(
                update={"individual_judgements": assessments[0].individual_judgements[:1]}
            )
        ]
    )
    assert single is None


def test_per_point_spread_of_the_judges():
    judges = [JudgeSpec("a:1"), JudgeSpec("a:2")]
    assessments, *_ = judge_cell(
        judges, {"a:1": answer("CLASS_EXACT"), "a:2": answer("CLASS_UTTERLY_UNMET")}
    )
    assert assessments[0].judge_spread == 0.5
    assert assessments[0].to_weval()["judgeSpread"] == 0.5
    single, *_ = judge_cell([JudgeSpec("a:1")], {"a:1": answer("CLASS_EXACT")})
    assert single[0].judge_spread is None
