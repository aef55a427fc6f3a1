"""`blueprint score --answers` with a chat app's pasted answers: the `app:` name is checked and a
prompt without an answer is listed as not answered, never scored as a failure."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from engine.cli import cli
from tests.pasted.data import CAPITALS_APP


def files(tmp_path: Path, rows: list[dict[str, str]]) -> tuple[str, str]:
    blueprint = tmp_path / "capitals.yml"
    blueprint.write_text(CAPITALS_APP, encoding="utf-8")
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(blueprint), str(answers)


def test_two_answers_of_three_prompts_score_two_and_list_one_as_not_answered(tmp_path: Path):
    blueprint, answers = files(
        tmp_path,
        [
            {"prompt_id": "france", "model": "app:chatgpt-web", "response": "Paris."},
            {"prompt_id": "italy-trip", "model": "app:chatgpt-web", "response": "Milan?"},
        ],
    )
    result = CliRunner().invoke(cli, ["score", blueprint, "--answers", answers, "--no-judge"])
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)["evaluationResults"]["llmCoverageScores"]
    assert scores["france"]["app:chatgpt-web"]["avgCoverageExtent"] == 1.0
    assert scores["italy-trip"]["app:chatgpt-web"]["avgCoverageExtent"] == 0.0
    assert "app:chatgpt-web" not in scores.get("spain", {})
    assert (
        "not answered by app:chatgpt-web: 1 prompt(s) (spain); no score, not counted as failed"
        in result.stderr
    )


def test_a_bad_app_name_is_refused(tmp_path: Path):
    blueprint, answers = files(
        tmp_path, [{"prompt_id": "france", "model": "app:chat gpt", "response": "Paris."}]
    )
    result = CliRunner().invoke(cli, ["score", blueprint, "--responses", answers, "--no-judge"])
    assert result.exit_code == 2
    assert "'app:chat gpt' is not a name for an app's answers" in result.stderr
