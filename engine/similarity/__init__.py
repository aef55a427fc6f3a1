"""Embedding similarity (Weval §5.10): cosine, per-prompt tables, the matrix, the hybrid score.

May import: `engine.scoring` and everything below it; never the comparison, runs or reports.
"""

from engine.similarity.math import cosine_similarity, hybrid_score
from engine.similarity.tables import (
    DEFAULT_EMBEDDING_MODEL,
    SimilarityTables,
    eval_methods,
    similarity_tables,
    uses_embeddings,
)

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "SimilarityTables",
    "cosine_similarity",
    "eval_methods",
    "hybrid_score",
    "similarity_tables",
    "uses_embeddings",
]
