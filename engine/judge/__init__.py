"""LLM judges for text points: prompts, scales, tolerant parsing, consensus and agreement."""

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
