"""The judge's prompt: transcript, subject text and one criterion (spec §5.1-§5.2, in our words).

Two upstream bugs are fixed (docs/compat.md): a holistic judge with no blueprint description
gets no `undefined` context block, and the few-shot examples name classes of the scale in use.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.judge.scales import Scale

__all__ = ["APPROACHES", "build_judge_prompt", "transcript"]

APPROACHES = ("standard", "prompt-aware", "holistic")
SEPARATOR = "\n--------------------\n"


def transcript(messages: Sequence[dict[str, Any]], generated: Sequence[int]) -> str:
    """Write the conversation as `<role>: <content>` blocks, marking generated assistant turns."""
    marked = set(generated)
    lines = []
    for i, msg in enumerate(messages):
        role = str(msg.get("role", ""))
        if role == "assistant":
            role = "assistant (generated)" if i in marked else "assistant (fixed)"
        lines.append(f"{role}: {msg.get('content') or ''}")
    return SEPARATOR.join(lines)


@lru_cache(maxsize=64)  # the same few per run, built for every judge call otherwise
def _system(scale: Scale, approach: str, description: str | None) -> str:
    low, high = scale.lowest.name, scale.highest.name
    near = scale.nearest(0.75).name
    parts = [
        "You are an expert evaluator. You are precise and brief. You judge how well one "
        "criterion is met by a text, and you answer strictly in the XML format asked for.",
    ]
    if approach == "holistic" and description and description.strip():
        parts.append(
            "The evaluation this criterion belongs to is described below. Use it as context "
            "only; judge the criterion itself.\n<BROAD_EVALUATION_DESCRIPTION>\n"
            f"{description.strip()}\n</BROAD_EVALUATION_DESCRIPTION>"
        )
    parts.append(
        "A criterion is an assertion about the <TEXT>. It may speak of 'the response'; that "
        "means the <TEXT>. The same criterion can be worded in many ways; for the text "
        '"The lemonade stand was open for 10 hours.", these all say the same thing:\n'
        '- "The response should include opening times and be concise"\n'
        '- "Must include opening times and be concise"\n'
        '- "Should be concise and include opening times"\n'
        '- "Be concise, with opening times"\n'
        '- "Not forget the opening times, and stay concise"\n'
        '- "Concise, w/ opening times"'
    )
    parts.append(
        "Examples of correct answers:\n-----\n"
        "Input: <TEXT>The people in the room were not happy.</TEXT><CRITERION>The people in the "
        "room were happy.</CRITERION>\n"
        "Output: <reflection>The text says the people were NOT happy, the opposite of the "
        f"criterion.</reflection><classification>{low}</classification>\n-----\n"
        "Input: <TEXT>The population is 8,000,000</TEXT><CRITERION>The population is 8,019,828"
        "</CRITERION>\n"
        "Output: <reflection>The number in the text is close to the one in the criterion, so the "
        f"criterion is mostly met.</reflection><classification>{near}</classification>\n-----\n"
        "Input: <TEXT>Handling a colleague who takes credit for your ideas takes assertiveness, "
        "empathy and clear communication.</TEXT><CRITERION>Mentions empathy</CRITERION>\n"
        "Output: <reflection>The text mentions empathy, so the criterion is fully met."
        f"</reflection><classification>{high}</classification>\n-----"
    )
    return "\n\n".join(parts)


def build_judge_prompt(
    *,
    criterion: str,
    transcript_text: str,
    subject: str,
    scale: Scale,
    approach: str = "standard",
    description: str | None = None,
) -> tuple[str, str]:
    """Return the (system, user) messages for judging one criterion."""
    which = "the following <CRITERION>" if approach == "standard" else "THIS SPECIFIC <CRITERION>"
    guidelines = "\n".join(f"- {c.name}: {c.description}" for c in scale.classes)
    user = (
        "You are given a conversation transcript and one criterion. Judge ONLY the content "
        "the candidate model generated (the turns marked `assistant (generated)`, repeated in "
        "<TEXT> below); give no credit for turns marked `assistant (fixed)`, which were written "
        "in advance.\n\n"
        f"<TRANSCRIPT>\n{transcript_text}\n</TRANSCRIPT>\n\n"
        f"<TEXT>\n{subject}\n</TEXT>\n\n"
        f"Carefully assess how well {which} is expressed in the generated content:\n"
        f"<CRITERION>\n{criterion}\n</CRITERION>\n\n"
        "Give a short 'reflection' and a 'classification', following the wording of the "
        "criterion.\n\n"
        f"Classification Guidelines:\n{guidelines}\n\n"
        "Your answer MUST follow this XML format exactly:\n"
        "<reflection>One or two sentences explaining how well the criterion is met, if at all."
        "</reflection>\n"
        f"<classification>ONE of the {len(scale.classes)} class names (e.g., "
        f"{scale.highest.name})</classification>"
    )
    return _system(scale, approach, description), user
