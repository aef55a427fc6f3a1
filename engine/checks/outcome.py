"""`Outcome`: a point function's result when it needs a status, findings and evidence."""

from __future__ import annotations

from dataclasses import dataclass

from engine.assessment import EvidenceRef, Finding, Status

__all__ = ["Outcome"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A typed result (the typed evidence evaluators and `$factcheck` return these).

    `unverified` and `errored` outcomes never carry a score; every finding's evidence ids
    resolve to entries of `evidence`.
    """

    status: Status
    score: float | None = None
    reflection: str | None = None
    error: str | None = None
    findings: tuple[Finding, ...] = ()
    evidence: tuple[EvidenceRef, ...] = ()
