"""The fake server's embeddings: deterministic hashed bag-of-words vectors.

`fake_vector(text)` has `DIMENSIONS` numbers: each lower-cased word (a run of letters or
digits) adds ±1 at a position chosen by its SHA-256, so texts that share words point the same
way (cosine near 1), texts without common words are near 0, and equal texts are equal.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

__all__ = ["DIMENSIONS", "embedding_body", "fake_vector"]

DIMENSIONS = 32
_WORD = re.compile(r"[^\W_]+")


def fake_vector(text: str) -> list[float]:
    """The embedding of `text` (all zeros for a text without words)."""
    vector = [0.0] * DIMENSIONS
    for word in _WORD.findall(text.lower()):
        digest = hashlib.sha256(word.encode("utf-8")).digest()
        vector[digest[0] % DIMENSIONS] += 1.0 if digest[1] % 2 == 0 else -1.0
    return vector


def embedding_body(model: str, text: str) -> dict[str, Any]:
    """An OpenAI embeddings answer for one input text."""
    tokens = len(_WORD.findall(text))
    return {
        "object": "list",
        "data": [{"object": "embedding", "index": 0, "embedding": fake_vector(text)}],
        "model": model,
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }
