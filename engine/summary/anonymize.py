"""Model names hidden while a summary is written ("Model A", "Model B", ...) and restored after."""

from __future__ import annotations

import re
from collections.abc import Sequence
from string import ascii_uppercase

from engine.modelids import base_model_id, display_names
from engine.summary.canonical import canonical_model_id, split_suffixes

__all__ = ["Anonymizer"]

_LABEL = re.compile(r"\bModel ([A-Z]{1,2})\b((?:\[[^\]\s]{1,40}\]){1,3})?")


def _letters(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... (the index is 0-based)."""
    if index < len(ascii_uppercase):
        return ascii_uppercase[index]
    first, second = divmod(index, len(ascii_uppercase))
    return ascii_uppercase[first - 1] + ascii_uppercase[second]


class Anonymizer:
    """Labels for the models of a run: each graded model a letter, variants keep their suffix.

    `openai:gpt-4.1[temp:0.5]` becomes `Model A[temp:0.5]` when the run has several variants
    of a model; otherwise the suffix is dropped as on every page (`ideal[temp:0]` is `Model
    A`, named back `ideal`). A model is graded once under its canonical id
    (`engine.summary.canonical`), as Weval grades it, so two routes to one model
    (`openai:gpt-4.1`, `openrouter:openai/gpt-4.1`) share a letter. The letters follow the
    sorted canonical ids, so the same run always gets the same labels (and the same cache key).
    """

    def __init__(self, models: Sequence[str]) -> None:
        graded = {m: canonical_model_id(m) for m in models}
        bases = sorted(set(graded.values()))
        self.base_labels: dict[str, str] = {b: f"Model {_letters(i)}" for i, b in enumerate(bases)}
        self.base_of: dict[str, str] = {v: k for k, v in self.base_labels.items()}
        shown = display_names(models)
        self.labels: dict[str, str] = {
            m: self.base_labels[graded[m]] + shown[m][len(base_model_id(m)) :] for m in models
        }
        self._spelled: dict[str, str] = {}
        for m in models:
            route = split_suffixes(m)[0]
            for base in (route, graded[m]):
                name = base.split(":", 1)[-1]
                for form in (base, name, name.rsplit("/", 1)[-1]):
                    if len(form) >= 3:
                        self._spelled.setdefault(form, self.base_labels[graded[m]])

    def hide(self, text: str) -> str:
        """Replace every mention of a model of the run in `text` by its label.

        An answer may name itself: the full id (as run, and as graded), the name after the
        provider and the last part of its path are all replaced (case-insensitively).
        """
        if not self._spelled:
            return text
        forms = sorted(self._spelled, key=len, reverse=True)
        pattern = re.compile("|".join(re.escape(f) for f in forms), re.I)
        lower = {f.lower(): label for f, label in self._spelled.items()}
        return pattern.sub(lambda m: lower[m.group(0).lower()], text)

    def label(self, model_id: str) -> str:
        """The anonymous label of an effective model id of the run."""
        return self.labels[model_id]

    def real_base(self, label: str) -> str | None:
        """The graded (canonical) model id behind `Model X` (None for a label the run lacks)."""
        return self.base_of.get(label.strip())

    def name(self, text: str) -> str:
        """Replace every `Model X` (with its variant suffix, if any) by the graded model id."""

        def real(match: re.Match[str]) -> str:
            base = self.base_of.get(f"Model {match.group(1)}")
            if base is None:
                return match.group(0)
            return base + (match.group(2) or "")

        return _LABEL.sub(real, text)
