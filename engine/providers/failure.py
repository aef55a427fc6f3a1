"""How a chat attempt failed (kinds, the failure record) and secret redaction, without HTTP."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Failure", "FailureKind", "redact"]

FailureKind = Literal[
    "rate_limited",
    "server",
    "timeout",
    "connection",
    "invalid_response",
    "auth",
    "not_found",
    "rejected",
]
"""Why an attempt failed. The first five are retried; `auth`, `not_found`, `rejected` are not."""


@dataclass(frozen=True)
class Failure:
    """A failed attempt.

    Attributes:
        kind: Why it failed.
        message: What happened, in plain words, with secrets removed.
        status: The HTTP status, if an answer came.
        retryable: Whether another attempt may succeed.
        retry_after: Seconds the provider asked to wait (`Retry-After`), if it did.
    """

    kind: FailureKind
    message: str
    status: int | None = None
    retryable: bool = True
    retry_after: float | None = None


def redact(text: str, secrets: tuple[str, ...]) -> str:
    """Replace every secret in `text` with `***`."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
