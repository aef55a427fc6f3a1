"""`perPromptSimilarities` and `similarityMatrix` as Weval's embedding evaluator writes them."""

from __future__ import annotations

import json

import pytest

from engine.blueprint import parse_blueprint
from engine.comparison.weval import IDEAL_MODEL_ID
from engine.similarity import eval_methods, similarity_tables, uses_embeddings
from engine.similarity.tables import SimilarityTables, embedding_model

VECTORS = {
    ("p1", "b:m"): [1.0, 0.0],
    ("p1", "a:m"): [1.0, 1.0],
    ("p1", IDEAL_MODEL_ID): [0.0, 1.0],
    ("p2", "a:m"): [1.0, 0.0],
    ("p2", "b:m"): [1.0, 0.0],
    # p2: no ideal; c:m failed everywhere (seen, never embedded)
}


@pytest.fixture
def tables() -> SimilarityTables:
    return similarity_tables(["p1", "p2"], ["b:m", "c:m", "a:m", IDEAL_MODEL_ID], VECTORS)


def test_axis_is_sorted_with_the_ideal(tables):
    assert list(tables.matrix) == [IDEAL_MODEL_ID, "a:m", "b:m", "c:m"]
    for table in tables.per_prompt.values():
        assert list(table) == [IDEAL_MODEL_ID, "a:m", "b:m", "c:m"]
        assert all(list(row) == list(table) for row in table.values())


def test_diagonal_is_one_even_without_an_embedding(tables):
    for table in [tables.matrix, *tables.per_prompt.values()]:
        assert all(table[m][m] == 1.0 for m in table)


def test_per_prompt_values_and_nulls(tables):
    p1 = tables.per_prompt["p1"]
    assert p1["a:m"]["b:m"] == pytest.approx(2**-0.5)
    assert p1["a:m"][IDEAL_MODEL_ID] == pytest.approx(2**-0.5)
    assert p1["b:m"][IDEAL_MODEL_ID] == 0.0
    assert p1["c:m"]["a:m"] is None  # never embedded: NaN in Weval, null in JSON
    assert tables.per_prompt["p2"]["a:m"][IDEAL_MODEL_ID] is None
    assert tables.per_prompt["p2"]["a:m"]["b:m"] == 1.0


def test_matrix_is_the_mean_of_valid_prompts_and_symmetric(tables):
    m = tables.matrix
    assert m["a:m"]["b:m"] == pytest.approx((2**-0.5 + 1.0) / 2)
    assert m["a:m"][IDEAL_MODEL_ID] == pytest.approx(2**-0.5)  # p2 has no ideal: left out
    assert m["c:m"]["a:m"] is None
    assert all(m[x][y] == m[y][x] for x in m for y in m)


def test_serialized_nan_is_null_and_reads_back(tables):
    text = json.dumps(tables.to_weval(), allow_nan=False)
    assert '"c:m": null' in text
    again = SimilarityTables.from_weval(json.loads(text))
    assert again == tables


def test_reading_treats_non_numbers_as_null():
    raw = {"similarityMatrix": {"a": {"a": 1, "b": "x"}}, "perPromptSimilarities": {}}
    read = SimilarityTables.from_weval(raw)
    assert read is not None and read.matrix == {"a": {"a": 1.0, "b": None}}
    assert (
        SimilarityTables.from_weval({"similarityMatrix": {}, "perPromptSimilarities": {}}) is None
    )


def test_vectors_of_different_lengths_give_null():
    t = similarity_tables(["p"], ["a", "b"], {("p", "a"): [1.0], ("p", "b"): [1.0, 0.0]})
    assert t.per_prompt["p"]["a"]["b"] is None and t.matrix["a"]["b"] is None


def test_to_ideal_falls_back_to_the_reverse_entry():
    t = SimilarityTables(per_prompt={"p": {IDEAL_MODEL_ID: {"a": 0.5}, "a": {}}})
    assert t.to_ideal("p", "a", IDEAL_MODEL_ID) == 0.5


@pytest.mark.parametrize(
    ("header", "uses", "model"),
    [
        ("title: t", False, "openai:text-embedding-3-small"),
        ("embeddingModel: local:wordllama", True, "local:wordllama"),
        ("evaluationConfig:\n  embedding: {}", True, "openai:text-embedding-3-small"),
    ],
)
def test_blueprint_asks_for_embeddings(header, uses, model):
    bp = parse_blueprint(f"{header}\nmodels: [openai:x]\n---\n- prompt: hi\n  should: [ok]\n")
    assert uses_embeddings(bp) is uses
    assert embedding_model(bp) == model
    assert eval_methods(bp) == (["embedding", "llm-coverage"] if uses else ["llm-coverage"])
