"""A corpus blueprint run with similarity, offline through the fake server, opened in the studio."""

from __future__ import annotations

import json

import pytest

from engine.comparison import IDEAL_MODEL_ID
from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store
from studio import services, state
from studio.views.results.similarity import IDEAL_LABEL
from tests.conftest import CORPUS, NO_CORPUS_REASON
from tests.studio.helpers import app, texts

corpus = pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS_REASON)
MODELS = ["openai:fake-a", "anthropic:fake-b"]
NAME = "cromer-norfolk-knowledge.yml"  # 7 prompts, each with an ideal


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def corpus_text() -> str:
    """The corpus file with Weval's default embedding model named (Weval's CLI uses it anyway)."""
    assert CORPUS is not None
    text = (CORPUS / "blueprints" / NAME).read_text(encoding="utf-8")
    assert "\nconcurrency: 5\n" in text
    return text.replace(
        "\nconcurrency: 5\n", "\nconcurrency: 5\nembeddingModel: openai:text-embedding-3-small\n", 1
    )


def table(at, key):
    """The similarity section ends the page: its model table, then its table of the ideal."""
    return at.dataframe[-2 if key == "similarity-matrix" else -1].value


@pytest.fixture
def corpus_run(env, tmp_path):
    store = open_store()
    prepared = prepare_run(
        store, corpus_text(), source=NAME, options=RunOptions(models=MODELS, out_dir=tmp_path)
    )
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed" and outcome.path is not None
    return store, prepared, outcome


@corpus
def test_corpus_blueprint_runs_with_similarity_offline(corpus_run, env):
    _store, prepared, outcome = corpus_run
    data = json.loads(outcome.path.read_text())
    prompts = [p.id for p in prepared.plan.blueprint.prompts]
    assert data["evalMethodsUsed"] == ["embedding", "llm-coverage"]
    per = data["evaluationResults"]["perPromptSimilarities"]
    assert sorted(per) == sorted(prompts)
    models = [m for m in data["effectiveModels"] if m != IDEAL_MODEL_ID]
    assert all(isinstance(per[p][m][IDEAL_MODEL_ID], float) for p in prompts for m in models)
    assert len([c for c in env.calls if c.protocol == "embeddings"]) == 3 * len(prompts)
    # judged as usual, and the hybrid score is the coverage (Weval's weights)
    hybrid = data["evaluationResults"]["perModelHybridScores"]
    coverage = data["blueprintStudio"]["perModelSummary"]
    assert {m: round(h["average"], 6) for m, h in hybrid.items()} == {
        m: round(s["average"], 6) for m, s in coverage.items()
    }


@corpus
def test_its_comparison_json_opens_in_the_results_page(corpus_run):
    _store, _prepared, outcome = corpus_run
    results = services.read_uploaded(outcome.path.read_bytes(), outcome.path.name)
    at = app()
    at.session_state[state.UPLOADED] = (outcome.path.name, results)
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert "Similarity of the answers" in texts(at, "subheader")
    matrix = table(at, "similarity-matrix")
    assert list(matrix.index) == [IDEAL_LABEL, "anthropic:fake-b", "openai:fake-a"]
    assert all(matrix.loc[n, n] == "1.00" for n in matrix.index)
    data = json.loads(outcome.path.read_text())
    a = "openai:fake-a[temp:0]"
    expected = data["evaluationResults"]["similarityMatrix"][a][IDEAL_MODEL_ID]
    assert matrix.loc["openai:fake-a", IDEAL_LABEL] == f"{expected:.2f}"
    ideal = table(at, "similarity-ideal")
    assert list(ideal.columns) == ["anthropic:fake-b", "openai:fake-a"]
    first = ideal.index[0]
    value = data["evaluationResults"]["perPromptSimilarities"][first][a][IDEAL_MODEL_ID]
    assert ideal.loc[first, "openai:fake-a"] == f"{value:.2f}"


@corpus
def test_the_stored_run_shows_the_same_similarities(corpus_run):
    _store, prepared, outcome = corpus_run
    at = app()
    at.query_params["run"] = prepared.run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert "Similarity of the answers" in texts(at, "subheader")
    matrix = table(at, "similarity-matrix")
    data = json.loads(outcome.path.read_text())
    expected = data["evaluationResults"]["similarityMatrix"]["anthropic:fake-b[temp:0]"]
    assert matrix.loc["anthropic:fake-b", "openai:fake-a"] == (
        f"{expected['openai:fake-a[temp:0]']:.2f}"
    )
