"""LLM judges for text points: prompts, scales, tolerant parsing, consensus and agreement.

May import: the leaf modules (`engine.errors`, `engine.records`, `engine.settings`, ...),
`engine.blueprint`, `engine.store`, `engine.checks` and its own layer (`engine.providers`,
`engine.scoring`); never the comparison, runs, reports or the command line.

The names load on first use (PEP 562): a run without judges needs only `engine.judge.keypoints`
(which prompts have key points), not the judges.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.judge.agreement import judge_agreement, krippendorff_alpha
    from engine.judge.consensus import (
        BACKUP_JUDGE,
        DEFAULT_JUDGES,
        ConsensusJudge,
        JudgeCaller,
        JudgeSpec,
        JudgmentRecord,
        judge_messages,
    )
    from engine.judge.parse import Judgement, JudgeParseError, parse_judgement
    from engine.judge.prompts import APPROACHES, build_judge_prompt, transcript
    from engine.judge.scales import FIVE_POINT, NINE_POINT, JudgeClass, Scale, scale_for

_HOMES = {
    "judge_agreement": "agreement",
    "krippendorff_alpha": "agreement",
    "BACKUP_JUDGE": "consensus",
    "DEFAULT_JUDGES": "consensus",
    "ConsensusJudge": "consensus",
    "JudgeCaller": "consensus",
    "JudgeSpec": "consensus",
    "JudgmentRecord": "consensus",
    "judge_messages": "consensus",
    "Judgement": "parse",
    "JudgeParseError": "parse",
    "parse_judgement": "parse",
    "APPROACHES": "prompts",
    "build_judge_prompt": "prompts",
    "transcript": "prompts",
    "FIVE_POINT": "scales",
    "NINE_POINT": "scales",
    "JudgeClass": "scales",
    "Scale": "scales",
    "scale_for": "scales",
}

__all__ = [
    "APPROACHES",
    "BACKUP_JUDGE",
    "DEFAULT_JUDGES",
    "FIVE_POINT",
    "NINE_POINT",
    "ConsensusJudge",
    "JudgeCaller",
    "JudgeClass",
    "JudgeParseError",
    "JudgeSpec",
    "Judgement",
    "JudgmentRecord",
    "Scale",
    "build_judge_prompt",
    "judge_agreement",
    "judge_messages",
    "krippendorff_alpha",
    "parse_judgement",
    "scale_for",
    "transcript",
]


__getattr__ = lazy_names(__name__, _HOMES)
