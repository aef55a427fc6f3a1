"""Weval's `perPromptSimilarities` and `similarityMatrix` (`embedding-evaluator.ts`), and when to run it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.blueprint.models import Blueprint
from engine.similarity.math import cosine_similarity

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "SimilarityTables",
    "embedding_model",
    "eval_methods",
    "similarity_tables",
    "uses_embeddings",
]

DEFAULT_EMBEDDING_MODEL = "openai:text-embedding-3-small"
"""Weval's embedding model when a blueprint names none."""

Table = dict[str, dict[str, float | None]]


def uses_embeddings(blueprint: Blueprint) -> bool:
    """Whether a run of `blueprint` computes similarities.

    Weval's CLI runs its embedding evaluator unless `--eval-method` says otherwise; here a
    blueprint asks for it by naming an `embeddingModel` or by an `embedding` entry in its
    `evaluationConfig` (so that runs never need an embedding key they were not asked for).
    """
    return bool(blueprint.weval.get("embeddingModel")) or "embedding" in (
        blueprint.evaluation_config or {}
    )


def embedding_model(blueprint: Blueprint) -> str:
    """The blueprint's `embeddingModel`, else Weval's default."""
    named = blueprint.weval.get("embeddingModel")
    return (
        str(named).strip()
        if isinstance(named, str) and named.strip()
        else (DEFAULT_EMBEDDING_MODEL)
    )


def eval_methods(blueprint: Blueprint) -> list[str]:
    """`evalMethodsUsed` of a run of `blueprint`, in Weval's order."""
    return ["embedding", "llm-coverage"] if uses_embeddings(blueprint) else ["llm-coverage"]


@dataclass
class SimilarityTables:
    """What the embedding evaluator adds to `evaluationResults` (None stands for NaN)."""

    per_prompt: dict[str, Table] = field(default_factory=dict)
    matrix: Table = field(default_factory=dict)

    def to_weval(self) -> dict[str, Any]:
        """`{"similarityMatrix", "perPromptSimilarities"}` as Weval writes them."""
        return {"similarityMatrix": self.matrix, "perPromptSimilarities": self.per_prompt}

    def to_ideal(self, prompt_id: str, model_id: str, ideal_id: str) -> float | None:
        """The similarity of a model's answer to the ideal (or its reverse entry), if any."""
        row = self.per_prompt.get(prompt_id, {})
        value = row.get(model_id, {}).get(ideal_id)
        return value if value is not None else row.get(ideal_id, {}).get(model_id)

    @staticmethod
    def from_weval(results: Mapping[str, Any]) -> SimilarityTables | None:
        """Read the tables of an `evaluationResults` object; None when it has none."""
        matrix = _table(results.get("similarityMatrix"))
        per_prompt_raw = results.get("perPromptSimilarities")
        per_prompt = (
            {str(p): _table(t) for p, t in per_prompt_raw.items()}
            if isinstance(per_prompt_raw, Mapping)
            else {}
        )
        if not matrix and not any(per_prompt.values()):
            return None
        return SimilarityTables(per_prompt=per_prompt, matrix=matrix)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if value != value else float(value)


def _table(raw: Any) -> Table:
    if not isinstance(raw, Mapping):
        return {}
    return {
        str(m1): {str(m2): _number(v) for m2, v in row.items()}
        for m1, row in raw.items()
        if isinstance(row, Mapping)
    }


def _similarity(a: Sequence[float] | None, b: Sequence[float] | None) -> float | None:
    if a is None or b is None:
        return None
    try:
        value = cosine_similarity(a, b)
    except ValueError:  # vectors of different lengths: Weval logs it and leaves NaN
        return None
    return None if value != value else value


def similarity_tables(
    prompt_ids: Iterable[str],
    model_ids: Iterable[str],
    embeddings: Mapping[tuple[str, str], Sequence[float]],
) -> SimilarityTables:
    """Compute the tables as Weval's embedding evaluator does.

    Args:
        prompt_ids: Every prompt of the evaluation.
        model_ids: Every model id seen (errored ones too) and `IDEAL_BENCHMARK` when a prompt
            has an ideal; they make the sorted axis of every table.
        embeddings: `(prompt_id, model_id)` -> vector, for the texts that were embedded.
    """
    models = sorted(set(model_ids))
    sums: dict[tuple[str, str], float] = {}
    counts: dict[tuple[str, str], int] = {}
    per_prompt: dict[str, Table] = {}
    for pid in prompt_ids:
        table: Table = {}
        for m1 in models:
            row: dict[str, float | None] = {}
            for m2 in models:
                if m1 == m2:
                    row[m2] = 1.0
                    continue
                value = _similarity(embeddings.get((pid, m1)), embeddings.get((pid, m2)))
                row[m2] = value
                if value is not None:
                    sums[m1, m2] = sums.get((m1, m2), 0.0) + value
                    counts[m1, m2] = counts.get((m1, m2), 0) + 1
            table[m1] = row
        per_prompt[pid] = table
    matrix: Table = {}
    for m1 in models:
        matrix[m1] = {}
        for m2 in models:
            if m1 == m2:
                matrix[m1][m2] = 1.0
            else:
                count = counts.get((m1, m2), 0)
                matrix[m1][m2] = sums[m1, m2] / count if count else None
    return SimilarityTables(per_prompt=per_prompt, matrix=matrix)
