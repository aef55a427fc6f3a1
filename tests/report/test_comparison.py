"""Weval's comparison JSON: written, read back equal, and foreign files rejected clearly."""

from __future__ import annotations

import json

import pytest

from engine.blueprint import load_blueprint
from engine.checks import CheckEnv
from engine.comparison import read_comparison
from engine.comparison.build import build_comparison
from engine.errors import InputError
from engine.responses import ResponseRow
from engine.scoring.offline import score_rows
from engine.settings import Settings
from tests.conftest import CORPUS, EXAMPLES, NO_CORPUS_REASON


def scored(path, answers):
    bp = load_blueprint(path)
    rows = [
        ResponseRow(i + 1, p.id, model, answers(p, model))
        for i, p in enumerate(bp.prompts)
        for model in ("m1", "m2")
    ]
    cells = score_rows(bp, rows, CheckEnv(settings=Settings()))
    responses = {}
    for r in rows:
        responses.setdefault(r.prompt_id, {})[r.model] = r.response
    return bp, build_comparison(
        bp, cells, responses=responses, run_label="label", timestamp="2026-01-01T00-00-00-000Z"
    )


@pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS_REASON)
def test_scored_corpus_blueprint_reads_back_equal(tmp_path):
    _, comparison = scored(
        CORPUS / "blueprints" / "factual-recall__geography-sample.yml",
        lambda p, m: (
            (p.ideal or "Cairo and Kinshasa, Lagos in Nigeria.") if m == "m1" else "I do not know."
        ),
    )
    data = comparison.to_weval()
    path = comparison.write(tmp_path)
    assert path.name == "label_2026-01-01T00-00-00-000Z_comparison.json"
    back = read_comparison(path)
    assert back.to_weval() == json.loads(path.read_text()) == json.loads(json.dumps(data))
    some = data["evaluationResults"]["llmCoverageScores"]
    assert all(set(row) == {"m1", "m2"} for row in some.values())


def test_shape_matches_weval_and_adds_status(tmp_path):
    _, comparison = scored(EXAMPLES / "or-paths.yml", lambda p, m: "January 1 is New Year's Day.")
    data = comparison.to_weval()
    for key in (
        "configId",
        "configTitle",
        "runLabel",
        "timestamp",
        "config",
        "evalMethodsUsed",
        "effectiveModels",
        "promptIds",
        "promptContexts",
        "allFinalAssistantResponses",
        "evaluationResults",
    ):
        assert key in data
    assert data["effectiveModels"] == ["IDEAL_BENCHMARK", "m1", "m2"]
    cell = data["evaluationResults"]["llmCoverageScores"]["new-year"]["m1"]
    kinds = [a["keyPointText"].startswith("Function: ") for a in cell["pointAssessments"]]
    assert kinds == sorted(kinds, reverse=True)  # function points first, then text points
    statuses = {a["keyPointText"]: a["status"] for a in cell["pointAssessments"]}
    assert statuses['Function: icontains("january 1")'] == "scored"
    assert statuses["Is polite and to the point."] == "unverified"
    for a in cell["pointAssessments"]:
        assert set(a) >= {
            "keyPointText",
            "coverageExtent",
            "multiplier",
            "pathId",
            "isInverted",
            "error",
            "status",
        }
    # only the function point was scored: the text points are left out, not zero
    assert cell["avgCoverageExtent"] == 1
    assert data["evaluationResults"]["perModelHybridScores"]["m1"] == {"average": 1, "stddev": None}


def test_reads_a_weval_made_file():
    weval = {
        "configId": "x",
        "configTitle": "X",
        "runLabel": "abc",
        "timestamp": "t",
        "effectiveModels": ["openai:gpt-4o[temp:0]"],
        "promptIds": ["p1"],
        "evaluationResults": {
            "llmCoverageScores": {
                "p1": {
                    "openai:gpt-4o[temp:0]": {
                        "keyPointsCount": 2,
                        "avgCoverageExtent": 0.5,
                        "pointAssessments": [
                            {
                                "keyPointText": "Mentions X",
                                "coverageExtent": 1,
                                "multiplier": 1,
                                "judgeModelId": "consensus(a)",
                                "individualJudgements": [
                                    {"judgeModelId": "a", "coverageExtent": 1, "reflection": "ok"}
                                ],
                            },
                            {
                                "keyPointText": "Function: foo(1)",
                                "error": "Unknown point function: 'foo'",
                                "multiplier": 1,
                            },
                        ],
                    },
                }
            }
        },
    }
    comparison = read_comparison(weval)
    cell = comparison.cell("p1", "openai:gpt-4o[temp:0]")
    assert cell.score == 0.5
    assert [a.status for a in cell.assessments] == ["scored", "errored"]
    assert cell.assessments[0].individual_judgements[0].reflection == "ok"


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "top level is not an object"),
        ('{"a": 1}', "llmCoverageScores is missing"),
        ('{"evaluationResults": {"llmCoverageScores": {"p": 5}}}', "is not an object"),
        (
            '{"evaluationResults": {"llmCoverageScores": {"p": {"m": {"pointAssessments": 3}}}}}',
            "not a list",
        ),
    ],
)
def test_malformed_files_give_clear_errors(tmp_path, content, needle):
    path = tmp_path / "x.json"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        read_comparison(path)
    assert needle in str(info.value)
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    "entry",
    [
        {"keyPointText": "x", "multiplier": "heavy"},
        {"keyPointText": "x", "findings": [{"nope": 1}]},
        {"keyPointText": "x", "individualJudgements": [{"coverageExtent": "a"}]},
    ],
)
def test_wrongly_shaped_entries_are_input_errors(entry):
    data = {
        "evaluationResults": {"llmCoverageScores": {"p": {"m": {"pointAssessments": [entry]}}}},
        "promptContexts": ["not", "a", "map"],
    }
    with pytest.raises(InputError) as info:
        read_comparison(data)
    assert "pointAssessments[0] of 'p' / 'm' has a wrong shape" in str(info.value)


def test_a_non_number_score_reads_as_an_errored_point():
    data = {
        "evaluationResults": {
            "llmCoverageScores": {
                "p": {
                    "m": {
                        "pointAssessments": [
                            {"keyPointText": "x", "coverageExtent": "high", "multiplier": 1}
                        ]
                    }
                }
            }
        }
    }
    (point,) = read_comparison(data).cell("p", "m").assessments
    assert point.status == "errored" and point.coverage_extent is None
