"""Build by conversation: the author talks, the assistant asks or proposes a revised blueprint.

Each assistant answer is untrusted text: its words are kept as plain text (bounded), and a
proposal (a ```yaml block with the whole revised blueprint) passes the checks of any draft
(`engine.drafting.check.read_draft`) before it is offered. A proposal that fails them is not
offered; the turn says why. Nothing here saves, applies or runs anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.drafting.check import _FENCE, Draft, DraftRefused, read_draft
from engine.drafting.extend_prompts import BLUEPRINT_SHOWN
from engine.drafting.prompts import rules
from engine.drafting.quick_try import SUMMARY_PREFIX
from engine.drafting.service import _ask
from engine.store import DraftMessage, Store

__all__ = [
    "HISTORY_SENT",
    "MAX_MESSAGE_CHARS",
    "MAX_WORDS_CHARS",
    "Turn",
    "conversation_messages",
    "converse",
    "read_turn",
]

MAX_MESSAGE_CHARS = 4000
"""The longest message of the author's that is sent (and kept)."""
MAX_WORDS_CHARS = 4000
"""The most of the assistant's words (outside its proposal) that are kept."""
HISTORY_SENT = 20
"""How many earlier messages of the conversation are sent with a new one."""

_SYSTEM = f"""You help a person who is not an engineer build a Weval blueprint (an evaluation
of language models) by conversation. They tell you what they want to test, in plain words.

- When what they want is unclear, ask one or two short clarifying questions, and propose
  nothing yet.
- When you can, propose: a few plain sentences on what you did, then the WHOLE revised
  blueprint (header, `---`, every prompt, not only the changed ones) in one ```yaml block.
- When they ask for a change ("make the second prompt harder", "add a point about tone"),
  change only that, keep everything else as it is, and propose the whole blueprint again.

{rules()}"""


@dataclass
class Turn:
    """The assistant's answer to one message.

    Attributes:
        words: What it says, outside its proposal (untrusted: show as plain text).
        proposal: The revised blueprint, checked, linted and fixed; None when it asked a
            question or its proposal was refused.
        refused: Why its proposal is not offered (our words), or None.
    """

    words: str
    proposal: Draft | None = None
    refused: str | None = None


def _bounded(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit:,} more)"


def conversation_messages(
    current: str, history: Sequence[DraftMessage], message: str
) -> list[dict[str, str]]:
    """What the assistant is sent: the rules, the latest messages, and the blueprint now."""
    sent: list[dict[str, str]] = [{"role": "system", "content": _SYSTEM}]
    recent = list(history)[-HISTORY_SENT:]
    tries = [m for m in history if m.role == "assistant" and m.content.startswith(SUMMARY_PREFIX)]
    if tries and tries[-1] not in recent:  # the latest quick try's results, however old
        recent.insert(0, tries[-1])
    for earlier in recent:
        content = earlier.content
        if earlier.proposal is not None:
            content += (
                f"\n\n(Proposed a revised blueprint; the author {earlier.status or 'saw'} it.)"
            )
        sent.append({"role": earlier.role, "content": content or "(no words)"})
    shown = current[:BLUEPRINT_SHOWN]
    cut = "\n# (the rest is not shown)" if len(current) > len(shown) else ""
    now = (
        f"The blueprint as it is now:\n\n```yaml\n{shown}{cut}\n```\n\n" if current.strip() else ""
    )
    sent.append({"role": "user", "content": now + message[:MAX_MESSAGE_CHARS]})
    return sent


def read_turn(answer: str) -> Turn:
    """The assistant's words and, when it proposed one, its checked blueprint."""
    fence = _FENCE.search(answer)
    if fence is None:
        return Turn(_bounded(answer, MAX_WORDS_CHARS))
    words = _bounded(answer[: fence.start()] + answer[fence.end() :], MAX_WORDS_CHARS)
    try:
        return Turn(words, proposal=read_draft(answer))
    except DraftRefused as exc:
        said = str(exc).replace("Nothing was inserted", "It is not offered")
        return Turn(words, refused=said.replace("nothing was inserted", "it is not offered"))


def converse(
    store: Store,
    model_id: str,
    current: str,
    history: Sequence[DraftMessage],
    message: str,
    *,
    environ: Mapping[str, str] | None = None,
) -> Turn:
    """Send the author's `message` (with the conversation so far) and read the answer.

    Args:
        store: The store (its cache keeps the answer).
        model_id: The assistant's model (`provider:model`).
        current: The blueprint's text now (may be empty).
        history: The draft's conversation so far, oldest first.
        message: What the author says now.
        environ: Provider settings (keys, endpoints); the process's environment when None.

    Raises:
        DraftRefused: The message is empty or the model could not be asked.
    """
    if not message.strip():
        raise DraftRefused("Write a message first.")
    return read_turn(
        _ask(store, model_id, conversation_messages(current, history, message), environ)
    )
