"""JSON bodies from outside (providers, custom models, judges, embeddings), read within bounds."""

from __future__ import annotations

import json
from typing import Any, Final

import orjson

from engine.jsonl import MAX_DEPTH, bracket_depth

__all__ = ["MAX_ANSWER_BYTES", "MAX_DEPTH", "BoundError", "check_depth", "loads_bounded"]

MAX_ANSWER_BYTES: Final = 64 * 1024 * 1024
"""The largest JSON answer read (64 MB): far above any model's answer."""


class BoundError(ValueError):
    """A JSON body that is too large or nested too deeply to read (the message says which)."""


def loads_bounded(data: bytes | str, *, max_bytes: int = MAX_ANSWER_BYTES) -> Any:
    """Parse a JSON body from outside, refusing one too large or nested more than `MAX_DEPTH`.

    Never raises `RecursionError`: whatever the nesting, a bad body is a `ValueError`, so the
    caller treats it as any invalid answer (a provider fault that is retried).

    Raises:
        BoundError: The body is larger than `max_bytes` or nested too deeply.
        ValueError: It is not JSON (`json.JSONDecodeError`).
    """
    if len(data) > max_bytes:
        raise BoundError(
            f"the answer is {len(data) / 1e6:.1f} MB, more than the {max_bytes / 1e6:.0f} MB "
            "limit for a JSON answer"
        )
    try:
        value = orjson.loads(data)  # stops at 1,024 levels by itself
    except orjson.JSONDecodeError:
        try:
            value = json.loads(data)  # NaN, Infinity, lone surrogates: as `json` reads them
        except RecursionError:
            raise _too_deep() from None
    check_depth(data)
    return value


def _too_deep() -> BoundError:
    return BoundError(f"the answer nests JSON more than {MAX_DEPTH} levels deep")


def check_depth(data: bytes | str) -> None:
    """Refuse a JSON text (already parsed, so valid) nested more than `MAX_DEPTH` deep.

    What is read from it is then walked without risk of `RecursionError`.

    Raises:
        BoundError: It is nested too deeply.
    """
    if isinstance(data, bytes):
        brackets = data.count(b"[") + data.count(b"{")
    else:
        brackets = data.count("[") + data.count("{")
    if brackets > MAX_DEPTH:
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        if bracket_depth(text) > MAX_DEPTH:
            raise _too_deep()
