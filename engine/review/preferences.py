"""People's picks between two answers (Weval's pairs): tasks, blind order, win rates, agreement.

A task is one prompt of a run and two models that both answered it. A reviewer sees the two
answers as "A" and "B", in an order drawn from a per-session seed (so neither the position
nor anything on the page tells which model wrote which), and picks "A is better", "B is
better" or "About the same". The pick is stored in canonical terms: the pair's models in
sorted order and the choice `a`, `b` or `same` about them.

Per pair of models, the win rate of the first is `(wins + ties / 2) / picks` (a tie counts as
half a win for each) with a 95% Wilson interval. The judges agree with a pick when the model
with the higher coverage score is the one people picked, or, for "about the same", when the
two scores are within `SAME_MARGIN` of each other.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from engine.comparison.weval import IDEAL_MODEL_ID, Comparison
from engine.report.csv import _text as spreadsheet_safe
from engine.stats.proportion import Proportion, wilson
from engine.store.preferences import Choice, PreferenceRow

__all__ = [
    "AGREEMENT_RULE",
    "SAME_MARGIN",
    "Agreement",
    "PairTask",
    "PairWinRate",
    "Shown",
    "ShownPick",
    "agreement",
    "canonical_pick",
    "cell_scores",
    "judges_choice",
    "pair_tasks",
    "preferences_csv",
    "served_order",
    "shown_order",
    "win_rates",
]

SAME_MARGIN = 0.05
"""Two coverage scores this close (or closer) count as the judges saying "about the same"."""

AGREEMENT_RULE = (
    "The judges agree with a pick when the answer people preferred has the higher coverage "
    f"score, or, for “about the same”, when the two scores are within {SAME_MARGIN:.2f}. "
    "Picks on answers without a score on both sides are left out."
)
"""The agreement rule in words, for pages and exports."""

ShownPick = Literal["A", "B", "same"]
"""A pick as the reviewer makes it: the answer shown as A, the one shown as B, or neither."""


@dataclass(frozen=True)
class PairTask:
    """Two models' answers to one prompt of a run, to compare.

    Attributes:
        run_id: The run.
        prompt_id: The prompt.
        model_a: The first model in sorted order (not necessarily shown first).
        model_b: The second model (`model_a < model_b`).
    """

    run_id: str
    prompt_id: str
    model_a: str
    model_b: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        """(run, prompt, model_a, model_b): what a pick on it is keyed by (with its reviewer)."""
        return (self.run_id, self.prompt_id, self.model_a, self.model_b)

    @property
    def token(self) -> str:
        """A short opaque name of the task that reveals neither model (for widget keys)."""
        return hashlib.sha256("\x00".join(self.key).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Shown:
    """A task as one reviewer sees it: which model's answer is shown as A and which as B."""

    task: PairTask
    first: str
    second: str

    def canonical(self, pick: ShownPick) -> Choice:
        """The reviewer's pick in canonical terms (about `task.model_a` and `task.model_b`)."""
        return canonical_pick(self.first, self.second, pick)[2]


def pair_tasks(comparison: Comparison, run_id: str) -> list[PairTask]:
    """Every prompt × pair of models of a run where both models gave an answer.

    Failed cells, empty answers and the blueprint's ideal answer are left out.
    """
    out: list[PairTask] = []
    for pid in comparison.prompt_ids:
        answers = comparison.responses.get(pid, {})
        row = comparison.cells.get(pid, {})
        models = sorted(
            m
            for m, text in answers.items()
            if m != IDEAL_MODEL_ID
            and isinstance(text, str)
            and text.strip()
            and not (m in row and row[m].failed)
        )
        out.extend(PairTask(run_id, pid, a, b) for a, b in combinations(models, 2))
    return out


def _rng(seed: str, *parts: str) -> random.Random:
    digest = hashlib.sha256("\x00".join((seed, *parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def shown_order(task: PairTask, seed: str) -> Shown:
    """Which answer is A: drawn from `seed` (one per reviewer's session) and the task.

    The same seed and task always give the same order (a page redraw keeps it); another seed
    gives another draw, so across tasks and sessions either model is A half the time.
    """
    flip = _rng(seed, *task.key).random() < 0.5
    first, second = (task.model_b, task.model_a) if flip else (task.model_a, task.model_b)
    return Shown(task, first, second)


def served_order(tasks: Sequence[PairTask], seed: str) -> list[PairTask]:
    """The tasks in the order a session serves them: shuffled by `seed`, stable for it."""
    order = list(tasks)
    _rng(seed, "order").shuffle(order)
    return order


def canonical_pick(first: str, second: str, pick: ShownPick) -> tuple[str, str, Choice]:
    """(model_a, model_b, choice) for a pick between `first` (shown as A) and `second` (B).

    Raises:
        ValueError: The two models are the same.
    """
    if first == second:
        raise ValueError("a pair needs two different models")
    a, b = sorted((first, second))
    if pick == "same":
        return a, b, "same"
    better = first if pick == "A" else second
    return a, b, "a" if better == a else "b"


@dataclass(frozen=True)
class PairWinRate:
    """What people picked between two models, over every prompt and reviewer.

    Attributes:
        model_a: The first model (sorted order).
        model_b: The second model.
        a_better: Picks of model_a's answer.
        b_better: Picks of model_b's answer.
        same: "About the same" picks.
        rate: model_a's win rate (a tie counts as half a win) with its 95% Wilson interval.
    """

    model_a: str
    model_b: str
    a_better: int
    b_better: int
    same: int
    rate: Proportion

    @property
    def picks(self) -> int:
        """All picks on the pair."""
        return self.a_better + self.b_better + self.same


def win_rates(picks: Iterable[PreferenceRow]) -> list[PairWinRate]:
    """Per pair of models (sorted), model_a's win rate over the picks, ties counted as half."""
    counts: dict[tuple[str, str], list[int]] = {}
    for p in picks:
        c = counts.setdefault((p.model_a, p.model_b), [0, 0, 0])
        c[("a", "b", "same").index(p.choice)] += 1
    out: list[PairWinRate] = []
    for (a, b), (wins, losses, ties) in sorted(counts.items()):
        n = wins + losses + ties
        out.append(PairWinRate(a, b, wins, losses, ties, wilson(wins + ties / 2, n)))
    return out


def judges_choice(score_a: float | None, score_b: float | None) -> Choice | None:
    """What the judges' coverage scores say about a pair (None without both scores)."""
    if score_a is None or score_b is None:
        return None
    if abs(score_a - score_b) <= SAME_MARGIN + 1e-12:
        return "same"
    return "a" if score_a > score_b else "b"


@dataclass(frozen=True)
class Agreement:
    """How often the judges' scores agree with people's picks (see `AGREEMENT_RULE`).

    Attributes:
        counted: Picks where both answers have a score.
        agreed: Of those, the picks the scores agree with.
        rate: `agreed / counted` with its 95% Wilson interval.
        left_out: Picks on answers without two scores.
    """

    counted: int
    agreed: int
    rate: Proportion
    left_out: int


def agreement(
    picks: Iterable[PreferenceRow], scores: Mapping[tuple[str, str], float | None]
) -> Agreement:
    """Compare each pick with the judges' scores of the two answers.

    Args:
        picks: People's picks.
        scores: The coverage score of each (prompt id, model id) answer (None: no score).
    """
    counted = agreed = left_out = 0
    for p in picks:
        said = judges_choice(
            scores.get((p.prompt_id, p.model_a)), scores.get((p.prompt_id, p.model_b))
        )
        if said is None:
            left_out += 1
            continue
        counted += 1
        agreed += said == p.choice
    return Agreement(counted, agreed, wilson(agreed, counted), left_out)


def cell_scores(comparison: Comparison) -> dict[tuple[str, str], float | None]:
    """Each answer's coverage score: (prompt id, model id) → score (None when unscored)."""
    return {
        (pid, model): cell.score
        for pid, row in comparison.cells.items()
        for model, cell in row.items()
    }


def preferences_csv(rates: Sequence[PairWinRate], names: Mapping[str, str] | None = None) -> str:
    """The win rates as CSV: one row per pair of models (ties counted as half a win).

    A name a spreadsheet would run as a formula is prefixed with `'` (as the points CSV does).
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "model_a",
            "model_b",
            "picks",
            "a_better",
            "b_better",
            "about_the_same",
            "a_win_rate",
            "a_win_rate_low",
            "a_win_rate_high",
        ]
    )
    for r in rates:
        writer.writerow(
            [
                spreadsheet_safe((names or {}).get(r.model_a, r.model_a)),
                spreadsheet_safe((names or {}).get(r.model_b, r.model_b)),
                r.picks,
                r.a_better,
                r.b_better,
                r.same,
                _num(r.rate.rate),
                _num(r.rate.low),
                _num(r.rate.high),
            ]
        )
    return out.getvalue()


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"
