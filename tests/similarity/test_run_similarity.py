"""Similarity in runs against the fake server: the JSON fields, the cache, failures, the plan."""

from __future__ import annotations

import importlib.util
import json
import textwrap
import threading
from dataclasses import replace

import pytest

from engine.comparison.read import read_comparison
from engine.comparison.weval import IDEAL_MODEL_ID
from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.similarity import cosine_similarity
from engine.store import open_store
from tests.fakes.llm_embeddings import fake_vector

BLUEPRINT = textwrap.dedent(
    """
    title: Similar answers
    models: [openai:fake-a, anthropic:fake-b]
    embeddingModel: openai:text-embedding-3-small
    ---
    - id: capital
      prompt: What is the capital of France
      ideal: The capital of France is Paris
      should:
        - $icontains: capital
    - id: colour
      prompt: Name a colour
      should:
        - $icontains: colour
    """
)
A, B = "openai:fake-a[temp:0]", "anthropic:fake-b[temp:0]"


@pytest.fixture
def env(fake_llm, monkeypatch):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    return fake_llm


def run(store, tmp_path, text=BLUEPRINT):
    options = RunOptions(out_dir=tmp_path, judge=False)
    prepared = prepare_run(store, text, source="bp.yml", options=options)
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed" and outcome.path is not None
    return prepared, outcome, json.loads(outcome.path.read_text())


def embedding_calls(fake):
    return [c for c in fake.calls if c.protocol == "embeddings"]


def test_run_writes_wevals_similarity_fields(env, tmp_path):
    prepared, outcome, data = run(open_store(), tmp_path)
    assert data["evalMethodsUsed"] == ["embedding", "llm-coverage"]
    results = data["evaluationResults"]
    axis = [IDEAL_MODEL_ID, B, A]
    assert list(results["similarityMatrix"]) == axis
    assert list(results["perPromptSimilarities"]) == ["capital", "colour"]
    answers = data["allFinalAssistantResponses"]["capital"]
    expected = cosine_similarity(fake_vector(answers[A]), fake_vector(answers[IDEAL_MODEL_ID]))
    capital = results["perPromptSimilarities"]["capital"]
    assert capital[A][IDEAL_MODEL_ID] == pytest.approx(expected)
    assert capital[IDEAL_MODEL_ID][IDEAL_MODEL_ID] == 1.0
    colour = results["perPromptSimilarities"]["colour"]
    assert colour[A][IDEAL_MODEL_ID] is None  # no ideal for this prompt
    assert results["similarityMatrix"][A][IDEAL_MODEL_ID] == pytest.approx(expected)
    # the texts went to /v1/embeddings with the blueprint's model: 2 models x 2 prompts + 1 ideal
    calls = embedding_calls(env)
    assert len(calls) == 5 and {c.model for c in calls} == {"text-embedding-3-small"}
    assert sorted(c.last_user for c in calls) == sorted(
        [t for row in data["allFinalAssistantResponses"].values() for t in row.values()]
    )
    # the same calls are counted and priced like the others
    assert outcome.progress.done_calls == prepared.plan.generation_calls + 5
    assert outcome.progress.cost_usd > 0
    # the file reads back with its tables
    again = read_comparison(outcome.path)
    assert again.similarity is not None and again.eval_methods == data["evalMethodsUsed"]
    assert again.to_weval()["evaluationResults"]["similarityMatrix"] == results["similarityMatrix"]


def test_embeddings_are_cached_on_a_second_run(env, tmp_path):
    store = open_store()
    _, _, first = run(store, tmp_path / "one")
    env.calls.clear()
    _, outcome, second = run(store, tmp_path / "two")
    assert env.calls == []  # answers and embeddings all from the cache
    assert outcome.progress.cached_calls == outcome.progress.done_calls
    assert (
        second["evaluationResults"]["perPromptSimilarities"]
        == first["evaluationResults"]["perPromptSimilarities"]
    )


def test_failed_answers_are_not_embedded_and_failed_embeddings_give_null(env, tmp_path):
    env.fail_when(lambda r: r.model == "fake-b" and "colour" in r.last_user, "400")
    env.fail_when(lambda r: r.protocol == "embeddings" and "Paris" in r.last_user, "400")
    _, _, data = run(open_store(), tmp_path)
    per = data["evaluationResults"]["perPromptSimilarities"]
    assert per["colour"][B][A] is None  # B failed to answer: seen on the axis, not embedded
    assert per["capital"][A][IDEAL_MODEL_ID] is None  # the ideal's embedding failed
    assert per["capital"][A][B] is not None
    embedded = [c.last_user for c in embedding_calls(env)]
    assert not any("<<error>>" in t for t in embedded)


def test_without_embedding_model_nothing_is_embedded(env, tmp_path):
    text = BLUEPRINT.replace("embeddingModel: openai:text-embedding-3-small\n", "")
    _, _, data = run(open_store(), tmp_path, text)
    assert data["evalMethodsUsed"] == ["llm-coverage"]
    results = data["evaluationResults"]
    assert results["similarityMatrix"] == results["perPromptSimilarities"] == {}  # as Weval
    assert embedding_calls(env) == []


def test_ollama_embeddings_use_its_openai_compatible_endpoint(env, tmp_path):
    text = BLUEPRINT.replace("openai:text-embedding-3-small", "ollama:nomic-embed-text")
    _, _, data = run(open_store(), tmp_path, text)
    calls = embedding_calls(env)
    assert calls and {c.path for c in calls} == {"/v1/embeddings"}
    assert {c.model for c in calls} == {"nomic-embed-text"}
    assert data["evaluationResults"]["similarityMatrix"][A][IDEAL_MODEL_ID] is not None


def test_a_missing_embedding_key_is_a_problem_before_anything_runs(env, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    text = BLUEPRINT.replace("openai:fake-a", "anthropic:fake-a")
    prepared = prepare_run(open_store(), text, source="bp.yml", options=RunOptions(judge=False))
    assert any("OPENAI_API_KEY" in p and "embeddingModel" in p for p in prepared.problems)


def test_an_embedding_model_without_an_endpoint_is_a_problem(env):
    text = BLUEPRINT.replace("openai:text-embedding-3-small", "anthropic:claude-haiku-4.5")
    options = replace(RunOptions(), judge=False)
    prepared = prepare_run(open_store(), text, source="bp.yml", options=options)
    assert any("no embeddings endpoint" in p for p in prepared.problems)


def test_cli_plan_shows_the_embedding_calls_and_their_cost(env, tmp_path):
    from tests.run.test_run import cli

    bp = tmp_path / "bp.yml"
    bp.write_text(
        BLUEPRINT.replace("openai:fake-a", "openai:gpt-4.1-mini").replace(
            "anthropic:fake-b", "anthropic:claude-haiku-4.5"
        )
    )
    out = cli("plan", str(bp), "--no-judge")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # 2 models x 2 prompts, and the one ideal
    assert "Embedding calls: at most 5 with openai:text-embedding-3-small" in out.stdout
    cost = next(x for x in lines if x.startswith("Cost (estimate):"))
    assert "cost unknown" not in cost  # every model here, the embedding model too, has a price
    plain = BLUEPRINT.replace("embeddingModel: openai:text-embedding-3-small\n", "")
    bp.write_text(plain)
    assert "Embedding calls" not in cli("plan", str(bp), "--no-judge").stdout


needs_wordllama = pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None,
    reason="the local-embeddings extra is not installed (pip install -e '.[local-embeddings]')",
)


@needs_wordllama
def test_a_run_with_local_embeddings_needs_no_embedding_key(env, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    text = BLUEPRINT.replace("openai:text-embedding-3-small", "local:wordllama").replace(
        "openai:fake-a", "ollama:fake-a"
    )
    _, outcome, data = run(open_store(), tmp_path, text)
    assert embedding_calls(env) == []
    per = data["evaluationResults"]["perPromptSimilarities"]["capital"]
    assert isinstance(per["ollama:fake-a[temp:0]"][IDEAL_MODEL_ID], float)
    assert outcome.progress.cost_usd == 0.0


def test_a_run_stopped_while_embedding_resumes_without_repeating_calls(env, tmp_path):
    from engine.run.service import prepare_resume

    store = open_store()
    options = RunOptions(out_dir=tmp_path, judge=False, concurrency=1)
    prepared = prepare_run(store, BLUEPRINT, source="bp.yml", options=options)
    generations = prepared.plan.generation_calls
    stop = threading.Event()
    env.latency_ms = 200  # an answer takes longer than recording the one before it

    def on_progress(progress):
        if progress.done_calls > generations:
            stop.set()  # a Ctrl-C once the first text is embedded

    first = run_sync(
        prepared.run_id, prepared.plan, store, prepared.options, stop=stop, on_progress=on_progress
    )
    assert first.status == "stopped" and first.path is None
    done = [c.last_user for c in embedding_calls(env)]
    assert 1 <= len(done) < 5
    env.reset()
    again = prepare_resume(store, prepared.run_id)
    outcome = run_sync(again.run_id, again.plan, store, again.options)
    assert outcome.status == "completed"
    redone = [c.last_user for c in embedding_calls(env)]
    assert [c.protocol for c in env.calls] == ["embeddings"] * len(redone)  # no answer again
    assert not set(redone) & set(done)  # the finished ones came from the run's log
    assert len(done) + len(redone) == 5
    data = json.loads(outcome.path.read_text())
    per = data["evaluationResults"]["perPromptSimilarities"]["capital"]
    assert per[A][IDEAL_MODEL_ID] is not None and per[B][A] is not None


def test_the_html_report_shows_the_similarities_escaped(env, tmp_path):
    from engine.report import render_html

    _, outcome, data = run(open_store(), tmp_path)
    data["config"]["embeddingModel"] = "<script>alert(1)</script>"
    page = render_html(read_comparison(data))
    assert "<h2>Similarity of the answers</h2>" in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    expected = data["evaluationResults"]["similarityMatrix"][A][IDEAL_MODEL_ID]
    assert f">{expected:.2f}</td>" in page
    plain = BLUEPRINT.replace("embeddingModel: openai:text-embedding-3-small\n", "")
    _, outcome, _ = run(open_store(), tmp_path / "plain", plain)
    assert "Similarity of the answers" not in render_html(read_comparison(outcome.path))
