"""Weval's headline score beside ours when similarity ran and a prompt has no coverage score.

Weval's `calculateHybridScore` (src/app/utils/calculationUtils.ts, weval-org/app 51dc4d3) is
the coverage when there is one, else the similarity to the ideal; its leaderboard shows the
per-model average of it. A prompt whose key points could not be extracted has no coverage,
so Weval counts it by similarity while our average leaves it out: both figures are shown.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.comparison import read_comparison
from engine.comparison.weval import IDEAL_MODEL_ID
from engine.report import render_html
from engine.similarity import cosine_similarity
from studio.core.resultdata import Results
from studio.views.results.results_view import NBSP, leaderboard_markdown
from tests.fakes.llm_embeddings import fake_vector

IDEAL = "Water at about 80 degrees. Steep it for two minutes."
BLUEPRINT = textwrap.dedent(
    f"""
    title: Headline
    models: [openai:fake-a]
    embeddingModel: openai:text-embedding-3-small
    ---
    - id: tea
      prompt: How hot should the water be for green tea?
      ideal: {IDEAL}
    - id: plain
      prompt: Say hello
      ideal: Hello!
      should:
        - $icontains: hello
    """
)
A = "openai:fake-a[temp:0]"


def _run(fake_llm, tmp_path: Path, blueprint: str = BLUEPRINT) -> tuple[str, Path]:
    bp = tmp_path / "bp.yml"
    bp.write_text(blueprint)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "engine", "run", str(bp), "--judges", "openai:judge-1"]
    done = subprocess.run(
        [*command, "--out", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, **fake_llm.env()},
    )
    assert done.returncode == 0, done.stderr
    [path] = out.glob("*_comparison.json")
    return done.stdout, path


@pytest.fixture
def failed_extraction(fake_llm, tmp_path):
    fake_llm.fail_when(lambda r: "<IDEAL_RESPONSE>" in r.last_user, "400")
    stdout, path = _run(fake_llm, tmp_path)
    comparison = read_comparison(path)
    answer = comparison.responses["tea"][A]
    similarity = cosine_similarity(fake_vector(answer), fake_vector(IDEAL))
    # tea counts by its similarity, plain by its coverage (1: the echo says hello)
    return stdout, comparison, (similarity + 1) / 2


def test_the_cli_prints_wevals_score_beside_the_average(failed_extraction):
    stdout, comparison, weval = failed_extraction
    assert comparison.cells["tea"] == {}
    assert comparison.summaries()[A].average == 1
    # the model's own line (the closing "how sure" lines may name it too)
    shown = A.removesuffix("[temp:0]")  # one temperature: the CLI shows the model's own name
    [line] = [x for x in stdout.splitlines() if shown in x and x.strip().startswith("1.00")]
    assert f"Weval's score {weval:.2f}" in line
    assert "note: Weval's score is the average of its hybrid score" in stdout


def test_the_json_studio_and_html_show_wevals_figure(failed_extraction):
    _, comparison, weval = failed_extraction
    hybrid = comparison.to_weval()["evaluationResults"]["perModelHybridScores"]
    assert hybrid[A]["average"] == pytest.approx(weval)
    assert comparison.weval_scores() == {A: pytest.approx(weval)}
    table = leaderboard_markdown(Results(comparison).leaderboard()).splitlines()
    assert "| Weval's score |" in table[0]
    assert f"| **1.00** | :primary-background[{NBSP * 16}] | {weval:.2f} |" in table[2]
    html = render_html(comparison)
    assert "<th>Weval's score</th>" in html and f"<td class=num>{weval:.2f}</td>" in html


def test_when_every_prompt_has_coverage_the_figures_are_one(fake_llm, tmp_path):
    stdout, path = _run(fake_llm, tmp_path)
    comparison = read_comparison(path)
    assert comparison.similarity is not None and IDEAL_MODEL_ID in comparison.models
    assert comparison.weval_scores() == {}
    assert "Weval's score" not in stdout
    assert "Weval's score" not in leaderboard_markdown(Results(comparison).leaderboard())
