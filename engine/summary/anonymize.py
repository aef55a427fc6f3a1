"""Model names hidden while a summary is written ("Model A", "Model B", ...) and restored after."""

from __future__ import annotations

import re
from collections.abc import Sequence
from string import ascii_uppercase

from engine.modelids import base_model_id, display_names

__all__ = ["Anonymizer"]

_LABEL = re.compile(r"\bModel ([A-Z]{1,2})\b(\[[^\]\s]{1,40}\](?:\[[^\]\s]{1,40}\])?)?")


def _letters(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... (the index is 0-based)."""
    if index < len(ascii_uppercase):
        return ascii_uppercase[index]
    first, second = divmod(index, len(ascii_uppercase))
    return ascii_uppercase[first - 1] + ascii_uppercase[second]


class Anonymizer:
    """Labels for the models of a run: each base model a letter, variants keep their suffix.

    `openai:gpt-4.1[temp:0.5]` becomes `Model A[temp:0.5]` when the run has several variants
    of a model; otherwise the suffix is dropped as on every page (`ideal[temp:0]` is `Model
    A`, named back `ideal`). The letters follow the sorted base ids, so the same run always
    gets the same labels (and the same cache key).
    """

    def __init__(self, models: Sequence[str]) -> None:
        bases = sorted({base_model_id(m) for m in models})
        self.base_labels: dict[str, str] = {b: f"Model {_letters(i)}" for i, b in enumerate(bases)}
        self.base_of: dict[str, str] = {v: k for k, v in self.base_labels.items()}
        shown = display_names(models)
        self.labels: dict[str, str] = {
            m: self.base_labels[base_model_id(m)] + shown[m][len(base_model_id(m)) :]
            for m in models
        }

    def hide(self, text: str) -> str:
        """Replace every mention of a model of the run in `text` by its label.

        An answer may name itself: the full id, the name after the provider and the last part
        of its path are all replaced (case-insensitively).
        """
        spelled: dict[str, str] = {}
        for base, label in self.base_labels.items():
            name = base.split(":", 1)[-1]
            for form in (base, name, name.rsplit("/", 1)[-1]):
                if len(form) >= 3:
                    spelled.setdefault(form, label)
        if not spelled:
            return text
        forms = sorted(spelled, key=len, reverse=True)
        pattern = re.compile("|".join(re.escape(f) for f in forms), re.I)
        lower = {f.lower(): label for f, label in spelled.items()}
        return pattern.sub(lambda m: lower[m.group(0).lower()], text)

    def label(self, model_id: str) -> str:
        """The anonymous label of an effective model id of the run."""
        return self.labels[model_id]

    def real_base(self, label: str) -> str | None:
        """The base model id behind `Model X` (None for a label the run does not have)."""
        return self.base_of.get(label.strip())

    def name(self, text: str) -> str:
        """Replace every `Model X` (with its variant suffix, if any) by the real model id."""

        def real(match: re.Match[str]) -> str:
            base = self.base_of.get(f"Model {match.group(1)}")
            if base is None:
                return match.group(0)
            return base + (match.group(2) or "")

        return _LABEL.sub(real, text)
