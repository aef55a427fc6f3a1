"""What scoring one criterion produces: `PointAssessment` with a status, findings and evidence."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.records import Record, coerce_floats

__all__ = ["EvidenceRef", "Finding", "IndividualJudgement", "PointAssessment", "Status"]

Status = Literal["scored", "errored", "unverified"]
"""`scored`: has a score. `errored`: bad configuration or a failed check; never a pass.
`unverified`: evidence is missing (no judge, no timing, no schema); never a pass, never a fail.
Errored and unverified points are left out of every mean."""


def _js_number(value: float | None) -> float | int | None:
    """An integral float as an int (JSON `1`, not `1.0`); NaN and infinities as None."""
    if value is None or math.isnan(value) or math.isinf(value):
        return None
    return int(value) if value.is_integer() else value


@dataclass(frozen=True, kw_only=True, slots=True)
class EvidenceRef(Record):
    """A pointer to untrusted material, described without echoing it.

    Reflections and findings never quote model output or tool content; they cite these
    references (a message index, a byte count, a hash, a redacted excerpt) instead.
    """

    id: str
    """Identifier that findings use to cite this evidence, e.g. `ev1`."""
    kind: Literal["message", "tool_call", "timing", "output", "conversation"]
    """What the evidence is."""
    message_index: int | None = None
    """Index in the conversation."""
    byte_count: int | None = None
    """UTF-8 size of the material."""
    sha256: str | None = None
    """SHA-256 of the material (hex)."""
    excerpt: str | None = None
    """A redacted excerpt: only lengths and the user's own arguments are shown."""
    detail: str | None = None
    """A fixed token or a measured value."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Finding(Record):
    """One observation behind a verdict, in safe words (counts, fixed tokens, user arguments)."""

    code: str
    """A stable token such as `config_error` or `forbidden_text`."""
    message: str
    """What was found, without quoting untrusted text."""
    evidence: list[str] = field(default_factory=list)
    """Ids of `EvidenceRef`s."""


@dataclass(frozen=True, kw_only=True, slots=True)
class IndividualJudgement(Record):
    """One judge's verdict on one text point."""

    judge_model_id: str
    coverage_extent: float
    reflection: str

    def __post_init__(self) -> None:
        coerce_floats(self, ("coverage_extent",))


@dataclass(kw_only=True, slots=True)
class PointAssessment(Record):
    """The result of scoring one criterion for one response (Weval's `PointAssessment`)."""

    key_point_text: str
    """The criterion text, or `Function: name(args)`."""
    coverage_extent: float | None = None
    """Score in [0, 1] after inversion; None unless scored."""
    multiplier: float = 1.0
    """The point's weight."""
    reflection: str | None = None
    """Why the score is what it is."""
    error: str | None = None
    """What went wrong, if anything."""
    status: Status = "scored"
    path_id: str | None = None
    """`path_<i>` for alternative paths."""
    is_inverted: bool = False
    """True for `should_not` points."""
    citation: Any = None
    """The point's citation, if any."""
    kind: Literal["function", "text"] = "function"
    fn: str | None = None
    """The function name for function points."""
    judge_model_id: str | None = None
    """Consensus judge id (text points)."""
    individual_judgements: list[IndividualJudgement] | None = None
    judge_spread: float | None = None
    """Population standard deviation of the judges' scores (text points with two or more judges);
    above 0.3 the judges disagree."""
    findings: list[Finding] = field(default_factory=list)
    evidence: list[EvidenceRef] = field(default_factory=list)

    def __post_init__(self) -> None:
        coerce_floats(self, ("coverage_extent", "multiplier", "judge_spread"))

    @property
    def counts(self) -> bool:
        """Whether this point enters the averages (only scored, finite scores do)."""
        return (
            self.status == "scored"
            and self.coverage_extent is not None
            and not math.isnan(self.coverage_extent)
        )

    def to_weval(self) -> dict[str, Any]:
        """Return Weval's JSON shape, plus our `status` (and findings/evidence when present).

        Numbers print as JavaScript would (an integral score is `1`, not `1.0`).
        """
        out: dict[str, Any] = {"keyPointText": self.key_point_text}
        out["coverageExtent"] = (
            _js_number(self.coverage_extent) if self.status == "scored" else None
        )
        out["multiplier"] = _js_number(self.multiplier)
        if self.reflection is not None:
            out["reflection"] = self.reflection
        if self.citation is not None:
            out["citation"] = self.citation
        if self.judge_model_id is not None:
            out["judgeModelId"] = self.judge_model_id
        if self.individual_judgements is not None:
            out["individualJudgements"] = [
                {
                    "judgeModelId": j.judge_model_id,
                    "coverageExtent": _js_number(j.coverage_extent),
                    "reflection": j.reflection,
                }
                for j in self.individual_judgements
            ]
        if self.judge_spread is not None:
            out["judgeSpread"] = self.judge_spread
        out["isInverted"] = self.is_inverted
        out["pathId"] = self.path_id
        out["error"] = self.error
        out["status"] = self.status
        if self.findings:
            out["findings"] = [f.model_dump() for f in self.findings]
        if self.evidence:
            out["evidence"] = [e.model_dump(exclude_none=True) for e in self.evidence]
        return out

    @classmethod
    def from_weval(cls, data: dict[str, Any]) -> PointAssessment:
        """Read one point assessment of a comparison JSON (ours or Weval's)."""
        extent = data.get("coverageExtent")
        error = data.get("error")
        status = data.get("status")
        if status not in ("scored", "errored", "unverified"):
            status = "scored" if isinstance(extent, int | float) else "errored"
        judgements = data.get("individualJudgements")
        text = str(data.get("keyPointText", ""))
        return cls.validated(
            key_point_text=text,
            coverage_extent=float(extent) if isinstance(extent, int | float) else None,
            multiplier=float(data.get("multiplier", 1) or 1),
            reflection=data.get("reflection"),
            error=error if isinstance(error, str) else None,
            status=status,
            path_id=data.get("pathId") or None,
            is_inverted=bool(data.get("isInverted", False)),
            citation=data.get("citation"),
            kind="function" if text.startswith("Function: ") else "text",
            judge_model_id=data.get("judgeModelId"),
            judge_spread=float(data["judgeSpread"])
            if isinstance(data.get("judgeSpread"), int | float)
            else None,
            individual_judgements=[
                IndividualJudgement(
                    judge_model_id=str(j.get("judgeModelId", "")),
                    coverage_extent=float(j.get("coverageExtent", 0)),
                    reflection=str(j.get("reflection", "")),
                )
                for j in judgements
                if isinstance(j, dict)
            ]
            if isinstance(judgements, list)
            else None,
            findings=[
                Finding.model_validate(f) for f in data.get("findings") or [] if isinstance(f, dict)
            ],
            evidence=[
                EvidenceRef.model_validate(e)
                for e in data.get("evidence") or []
                if isinstance(e, dict)
            ],
        )
