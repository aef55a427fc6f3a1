"""The similarity stage of a run: embed answers and ideals through the caller, then the tables.

As Weval's embedding evaluator: each model's final answer and each prompt's ideal (as
`IDEAL_BENCHMARK`) are embedded; failed or empty answers are skipped, and a text whose
embedding fails is left out (its similarities are null). The vectors are kept in the run's
call log (and the cache), so the tables are computed again from the log whenever the run's
comparison is assembled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from engine.comparison.weval import IDEAL_MODEL_ID, Comparison
from engine.errors import EngineError, StoreError
from engine.providers.embeddings import EmbedRequest
from engine.run.calls import Caller, RunStopped, embed_key
from engine.similarity.tables import SimilarityTables, similarity_tables
from engine.store import CallRow

__all__ = ["attach_similarity", "embed_answers", "embedding_texts"]


def embedding_texts(comparison: Comparison) -> list[tuple[str, str, str]]:
    """The texts Weval embeds: `(prompt_id, model_id, text)`, the ideal under IDEAL_BENCHMARK."""
    out: list[tuple[str, str, str]] = []
    for pid in comparison.prompt_ids:
        errors = comparison.errors.get(pid, {})
        for model, text in comparison.responses.get(pid, {}).items():
            if model == IDEAL_MODEL_ID:
                if text:
                    out.append((pid, model, text))
                continue
            if model in errors or "<<error>>" in text or not text.strip():
                continue
            out.append((pid, model, text))
    return out


def _axis(comparison: Comparison) -> list[str]:
    """Every model seen, and IDEAL_BENCHMARK when a prompt has an ideal to embed."""
    models = {m for row in comparison.responses.values() for m in row if m != IDEAL_MODEL_ID}
    models |= {m for row in comparison.cells.values() for m in row if m != IDEAL_MODEL_ID}
    if any(row.get(IDEAL_MODEL_ID) for row in comparison.responses.values()):
        models.add(IDEAL_MODEL_ID)
    return sorted(models)


async def embed_answers(caller: Caller, model_id: str, comparison: Comparison) -> int:
    """Embed every text of `comparison` through `caller`; return how many failed.

    Raises:
        RunStopped: The run is stopping.
        StoreError: An answer could not be written to the store.
    """

    async def one(pid: str, model: str, text: str) -> bool:
        try:
            await caller.embed(
                EmbedRequest(model_id=model_id, text=text), prompt_id=pid, cell_model=model
            )
        except (RunStopped, StoreError):
            raise
        except EngineError:
            return False  # logged by the caller; this pair's similarities stay null
        return True

    done = await asyncio.gather(*(one(*t) for t in embedding_texts(comparison)))
    return sum(1 for ok in done if not ok)


def attach_similarity(
    comparison: Comparison, model_id: str, calls: Mapping[str, CallRow]
) -> SimilarityTables:
    """Compute the tables from the vectors in a run's call log and attach them."""
    vectors: dict[tuple[str, str], list[float]] = {}
    for pid, model, text in embedding_texts(comparison):
        row = calls.get(embed_key(EmbedRequest(model_id=model_id, text=text)))
        answer = row.answer if row is not None else None
        vector = answer.get("vector") if answer else None
        if isinstance(vector, list):
            vectors[pid, model] = [float(x) for x in vector]
    tables = similarity_tables(comparison.prompt_ids, _axis(comparison), vectors)
    comparison.similarity = tables
    comparison.eval_methods = ["embedding", "llm-coverage"]
    return tables
