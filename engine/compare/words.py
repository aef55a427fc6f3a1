"""Two answers word by word: which words one removed and the other added, bounded in time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

__all__ = ["MAX_WORDS", "WordDiff", "WordOp", "word_diff"]

MAX_WORDS = 1000
"""Words of each answer compared; the rest is shown as it is (matching is quadratic)."""

WordOp = Literal["same", "removed", "added"]

_TOKEN = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True)
class WordDiff:
    """The words of both answers in order, each marked same, removed or added.

    `parts` alternates as difflib finds them: a "removed" run comes from the baseline only,
    an "added" run from the candidate only; whitespace is kept as its own token.
    `cut` is True when an answer was longer than `MAX_WORDS` words and its tail was not
    compared (the tail is then in `parts` as removed/added text).
    """

    parts: tuple[tuple[WordOp, str], ...]
    cut: bool

    def side(self, which: Literal["baseline", "candidate"]) -> list[tuple[bool, str]]:
        """One answer's text as (changed, text) runs.

        Changed runs are the removed words of the baseline, or the added words of the candidate.
        """
        other: WordOp = "added" if which == "baseline" else "removed"
        return [(op != "same", text) for op, text in self.parts if op != other]


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _split(tokens: list[str]) -> tuple[list[str], str]:
    words = 0
    for i, token in enumerate(tokens):
        if not token.isspace():
            words += 1
            if words > MAX_WORDS:
                return tokens[:i], "".join(tokens[i:])
    return tokens, ""


def word_diff(baseline: str, candidate: str) -> WordDiff:
    """Compare two answers word by word (whitespace changes count as changes too).

    Only the first `MAX_WORDS` words of each are matched, so hostile output cannot make this
    slow; a longer tail is reported whole as removed (baseline) and added (candidate).
    """
    a, a_tail = _split(_tokens(baseline))
    b, b_tail = _split(_tokens(candidate))
    parts: list[tuple[WordOp, str]] = []
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            parts.append(("same", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            parts.append(("removed", "".join(a[i1:i2])))
        if j2 > j1:
            parts.append(("added", "".join(b[j1:j2])))
    if a_tail:
        parts.append(("removed", a_tail))
    if b_tail:
        parts.append(("added", b_tail))
    return WordDiff(tuple(parts), bool(a_tail or b_tail))
