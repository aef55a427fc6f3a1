"""LLM judges for text points: several judges per point, consensus as the mean (spec §5.6-§5.7)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.assessment import IndividualJudgement, PointAssessment
from engine.blueprint.models import Blueprint, Point, Prompt
from engine.evidence import Evidence
from engine.js.values import js_round, js_to_fixed
from engine.judge.agreement import judge_agreement
from engine.judge.parse import Judgement, JudgeParseError, parse_judgement
from engine.judge.prompts import build_judge_prompt, transcript
from engine.judge.scales import Scale, scale_for

__all__ = [
    "BACKUP_JUDGE",
    "DEFAULT_JUDGES",
    "ConsensusJudge",
    "JudgeCaller",
    "JudgeSpec",
    "JudgmentRecord",
    "judge_messages",
]


@dataclass(frozen=True)
class JudgeSpec:
    """One judge: a model and an approach (`standard`, `prompt-aware` or `holistic`).

    `variant` is set when `model` names a custom model object of the blueprint: its
    fingerprint (address and model name), part of the judge calls' cache keys, so editing the
    custom model judges anew instead of reusing what another endpoint said.
    """

    model: str
    approach: str = "standard"
    id: str | None = None
    variant: str | None = None

    @property
    def label(self) -> str:
        """Weval's judge id string: `<id>(<model>)`, or `<approach>(<model>)` without an id."""
        return f"{self.id or self.approach}({self.model})"

    def as_dict(self) -> dict[str, str]:
        """The judge as `{id, model, approach}`."""
        return {"id": self.id or self.approach, "model": self.model, "approach": self.approach}


DEFAULT_JUDGES: tuple[JudgeSpec, ...] = (
    JudgeSpec("openrouter:google/gemini-2.5-flash", "holistic", "holistic-gemini-2-5-flash"),
    JudgeSpec("openrouter:openai/gpt-4.1-mini", "holistic", "holistic-gpt-4-1-mini"),
    JudgeSpec("openrouter:anthropic/claude-haiku-4.5", "holistic", "holistic-claude-haiku-4-5"),
)
BACKUP_JUDGE = JudgeSpec(
    "openrouter:anthropic/claude-haiku-4.5", "holistic", "backup-claude-4-5-haiku"
)

JudgeCaller = Callable[[JudgeSpec, str, str], Awaitable[str]]
"""Sends (judge, system, user) to the judge's model and returns its raw answer; raises on failure."""


@dataclass(frozen=True)
class JudgmentRecord:
    """One judge's raw answer on one point, kept for the record (and the studio)."""

    prompt_id: str
    model_id: str
    point_index: int
    judge: JudgeSpec
    raw_text: str | None
    class_name: str | None
    score: float | None
    reflection: str | None
    error: str | None
    backup: bool = False


def judge_messages(
    blueprint: Blueprint,
    evidence: Evidence,
    point: Point,
    judge: JudgeSpec,
    scale: Scale | None = None,
) -> tuple[str, str]:
    """Return the (system, user) messages a judge gets for one text point of one response."""
    return build_judge_prompt(
        criterion=point.text or "",
        transcript_text=transcript(evidence.messages, evidence.generated_indices),
        subject=evidence.text,
        scale=scale or scale_for(blueprint.evaluation_config),
        approach=judge.approach,
        description=blueprint.description,
    )


class ConsensusJudge:
    """Judges text points with several judges and averages their scores.

    Args:
        judges: The primary judges.
        caller: How to call a judge's model (provider, cache and retries are the caller's).
        custom: True when the judges were chosen by the user; then no backup judge is used.
        scale: A fixed scale; by default each blueprint's `evaluationConfig` chooses.
        on_record: Called with every judge's raw answer (for the store).
        propagate: Exception types a call may raise that must not count as a failed judge
            (for example a run being stopped); they propagate to the caller.
    """

    def __init__(
        self,
        judges: Sequence[JudgeSpec],
        caller: JudgeCaller,
        *,
        custom: bool,
        scale: Scale | None = None,
        on_record: Callable[[JudgmentRecord], None] | None = None,
        propagate: tuple[type[BaseException], ...] = (),
    ) -> None:
        if not judges:
            raise ValueError("at least one judge is needed")
        self.judges = tuple(judges)
        self.caller = caller
        self.custom = custom
        self.scale = scale
        self.on_record = on_record
        self.propagate = propagate

    async def _ask(
        self, judge: JudgeSpec, system: str, user: str, scale: Scale
    ) -> tuple[Judgement | None, str | None, str | None]:
        """Return (judgement, raw answer, error)."""
        try:
            raw = await self.caller(judge, system, user)
        except self.propagate:
            raise
        except Exception as exc:  # a failed judge is a result, never a crash
            return None, None, f"Judge call failed: {exc}"
        try:
            return parse_judgement(raw, scale), raw, None
        except JudgeParseError as exc:
            return None, raw, str(exc)

    async def judge_point(
        self, blueprint: Blueprint, prompt: Prompt, evidence: Evidence, point: Point, index: int
    ) -> PointAssessment:
        """Judge one text point with every judge and return the consensus assessment."""
        scale = self.scale or scale_for(blueprint.evaluation_config)
        prompts: dict[str, tuple[str, str]] = {}

        def prompt_for(judge: JudgeSpec) -> tuple[str, str]:
            if judge.approach not in prompts:
                prompts[judge.approach] = judge_messages(blueprint, evidence, point, judge, scale)
            return prompts[judge.approach]

        async def run(judge: JudgeSpec, backup: bool) -> Judgement | None:
            judgement, raw, error = await self._ask(judge, *prompt_for(judge), scale)
            if self.on_record is not None:
                self.on_record(
                    JudgmentRecord(
                        prompt_id=prompt.id,
                        model_id=evidence.model_id,
                        point_index=index,
                        judge=judge,
                        raw_text=raw,
                        class_name=judgement.class_name if judgement else None,
                        score=judgement.score if judgement else None,
                        reflection=judgement.reflection if judgement else None,
                        error=error,
                        backup=backup,
                    )
                )
            return judgement

        results = await asyncio.gather(*(run(j, False) for j in self.judges))
        successes = [(j, r) for j, r in zip(self.judges, results, strict=True) if r is not None]
        used_backup = False
        if not self.custom and len(successes) < len(self.judges):
            backup = await run(BACKUP_JUDGE, True)
            if backup is not None:
                successes.append((BACKUP_JUDGE, backup))
                used_backup = True
        return self._consensus(point, successes, len(self.judges), used_backup)

    @staticmethod
    def _consensus(
        point: Point,
        successes: list[tuple[JudgeSpec, Judgement]],
        total: int,
        used_backup: bool,
    ) -> PointAssessment:
        base: dict[str, Any] = {
            "key_point_text": point.display_text,
            "multiplier": point.multiplier,
            "path_id": point.path_id,
            "is_inverted": point.inverted,
            "citation": point.citation,
            "kind": "text",
        }
        if not successes:
            return PointAssessment(
                **base, status="errored", error="All judges failed in consensus mode."
            )
        average = sum(j.score for _, j in successes) / len(successes)
        reflection = (
            f"Consensus from {len(successes)} judge(s). Average score: {js_to_fixed(average, 2)}. "
            "See breakdown for individual reflections."
        )
        error = None
        if len(successes) < total and not used_backup:
            error = (
                f"{total - len(successes)} of {total} judges failed to return a valid assessment. "
                "The backup judge was not used or also failed. The final score is based on a "
                "partial consensus."
            )
            reflection += f"\n\nWARNING: {error}"
        elif used_backup:
            reflection += "\n\nNOTE: Backup judge was used to supplement failed primary judges."
        scores = [j.score for _, j in successes]
        spread = (
            js_round(math.sqrt(sum((x - average) ** 2 for x in scores) / len(scores)), 3)
            if len(scores) >= 2
            else None
        )
        extent = js_round(average, 2)
        if point.inverted:
            extent = 1 - extent
            reflection = f"[INVERTED] {reflection}"
        return PointAssessment(
            **base,
            coverage_extent=extent,
            reflection=reflection,
            error=error,
            status="scored",
            judge_model_id="consensus(" + ", ".join(s.label for s, _ in successes) + ")",
            judge_spread=spread,
            individual_judgements=[
                IndividualJudgement(
                    judge_model_id=spec.label, coverage_extent=j.score, reflection=j.reflection
                )
                for spec, j in successes
            ],
        )

    async def judge_points(
        self, blueprint: Blueprint, prompt: Prompt, evidence: Evidence, points: Sequence[Point]
    ) -> tuple[list[PointAssessment], dict[str, Any] | None]:
        """Judge every text point of a cell; return the assessments and the judges' agreement."""
        indices = [next(i for i, p in enumerate(prompt.points) if p is point) for point in points]
        assessments = list(
            await asyncio.gather(
                *(
                    self.judge_point(blueprint, prompt, evidence, p, i)
                    for p, i in zip(points, indices, strict=True)
                )
            )
        )
        judges = [j.as_dict() for j in self.judges] + (
            [] if self.custom else [BACKUP_JUDGE.as_dict()]
        )
        return assessments, judge_agreement(assessments, judges)
