"""Run against run: per-model, per-prompt and per-point score changes between two runs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from engine.compare.view import PointKey, RunView, base_model_id
from engine.stats.intervals import paired

__all__ = ["Change", "ModelPair", "RunDiff", "compare_runs", "pair_models"]

Change = Literal["same", "changed", "added", "removed"]


@dataclass(frozen=True)
class ModelPair:
    """A model of the baseline matched with one of the candidate (either may be missing)."""

    baseline: str | None
    candidate: str | None

    @property
    def name(self) -> str:
        """The id shown for the pair: the candidate's, else the baseline's."""
        return self.candidate or self.baseline or ""


def pair_models(baseline: list[str], candidate: list[str]) -> list[ModelPair]:
    """Match models by effective id, then by base id where temperatures differ.

    A base-id match is made only when it is unambiguous: exactly one unmatched model of each
    run has that base id. Unmatched models stay alone (their other side is None).
    """
    cand_set = set(candidate)
    pairs = [ModelPair(m, m) for m in baseline if m in cand_set]
    left = [m for m in baseline if m not in cand_set]
    right = [m for m in candidate if m not in set(baseline)]
    by_base_left: dict[str, list[str]] = {}
    by_base_right: dict[str, list[str]] = {}
    for m in left:
        by_base_left.setdefault(base_model_id(m), []).append(m)
    for m in right:
        by_base_right.setdefault(base_model_id(m), []).append(m)
    matched: set[str] = set()
    for base, olds in by_base_left.items():
        news = by_base_right.get(base, [])
        if len(olds) == 1 and len(news) == 1:
            pairs.append(ModelPair(olds[0], news[0]))
            matched.update((olds[0], news[0]))
    pairs += [ModelPair(m, None) for m in left if m not in matched]
    pairs += [ModelPair(None, m) for m in right if m not in matched]
    return pairs


def _delta(a: float | None, b: float | None) -> float | None:
    if a is None or b is None:
        return None
    return round(b - a, 6)


@dataclass
class RunDiff:
    """The comparison of a baseline run with a candidate run."""

    baseline: RunView
    candidate: RunView
    models: list[dict[str, Any]]
    prompts: list[dict[str, Any]]
    points: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The `blueprint compare --format json` document."""
        return {
            "baseline": _run_ref(self.baseline),
            "candidate": _run_ref(self.candidate),
            "models": self.models,
            "prompts": self.prompts,
            "points": self.points,
        }

    def largest_drop(self, *, significant: bool = False) -> float:
        """The largest fall of a model's average (0 when none fell).

        With `significant`, only falls whose paired interval excludes 0 count.
        """
        drops = [
            -m["delta"]
            for m in self.models
            if m["delta"] is not None
            and m["delta"] < 0
            and (m.get("separable", False) or not significant)
        ]
        return max(drops, default=0.0)


def _run_ref(run: RunView) -> dict[str, str]:
    return {"id": run.id, "label": run.label, "timestamp": run.timestamp}


def _points(
    base: dict[PointKey, float | None], cand: dict[PointKey, float | None]
) -> Iterator[tuple[str, float | None, float | None, Change]]:
    for key, score in base.items():
        if key in cand:
            other = cand[key]
            yield key[0], score, other, "same" if score == other else "changed"
        else:
            yield key[0], score, None, "removed"
    for key, score in cand.items():
        if key not in base:
            yield key[0], None, score, "added"


def _scores(run: RunView) -> dict[str, dict[str, float]]:
    """Each model's score on each prompt of a run (prompts without a score left out)."""
    out: dict[str, dict[str, float]] = {}
    for (pid, model), cell in run.cells.items():
        if cell.score is not None:
            out.setdefault(model, {})[pid] = cell.score
    return out


def _model_row(
    pair: ModelPair,
    old: dict[str, float | None],
    new: dict[str, float | None],
    scores: tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]],
    weights: dict[str, float | None],
) -> dict[str, Any]:
    """A model's averages in both runs, and the change paired over the prompts both scored.

    `low`/`high` is the 95% interval of the mean per-prompt change (None when fewer than two
    prompts are paired or every prompt changed by the same amount); `separable` says the
    interval excludes 0.
    """
    a = old.get(pair.baseline) if pair.baseline else None
    b = new.get(pair.candidate) if pair.candidate else None
    row: dict[str, Any] = {"model": pair.name}
    if pair.baseline is not None and pair.baseline != pair.name:
        row["baseline_model"] = pair.baseline
    change = paired(
        scores[1].get(pair.candidate or "", {}), scores[0].get(pair.baseline or "", {}), weights
    )
    row.update(
        {
            "baseline": a,
            "candidate": b,
            "delta": _delta(a, b),
            "low": None if change.low is None else round(change.low, 6),
            "high": None if change.high is None else round(change.high, 6),
            "prompts": change.n,
            "separable": change.separable,
        }
    )
    return row


def compare_runs(baseline: RunView, candidate: RunView) -> RunDiff:
    """Compare two runs: models matched by id, points matched by their content.

    A point is the same point in both runs when its text (or function and arguments) and its
    `should`/`should_not` side are the same, so an edited point shows as removed + added.
    """
    pairs = pair_models(baseline.models, candidate.models)
    old_avg, new_avg = baseline.averages(), candidate.averages()
    scores = (_scores(baseline), _scores(candidate))
    weights = candidate.prompt_weights
    models = [_model_row(pair, old_avg, new_avg, scores, weights) for pair in pairs]
    prompt_ids = list(dict.fromkeys([*baseline.prompt_ids, *candidate.prompt_ids]))
    prompts: list[dict[str, Any]] = []
    points: list[dict[str, Any]] = []
    for pid in prompt_ids:
        for pair in pairs:
            old = baseline.cells.get((pid, pair.baseline)) if pair.baseline else None
            new = candidate.cells.get((pid, pair.candidate)) if pair.candidate else None
            if old is None and new is None:
                continue
            a = old.score if old else None
            b = new.score if new else None
            prompts.append(
                {
                    "prompt_id": pid,
                    "model": pair.name,
                    "baseline": a,
                    "candidate": b,
                    "delta": _delta(a, b),
                }
            )
            for text, pa, pb, change in _points(
                old.points if old else {}, new.points if new else {}
            ):
                points.append(
                    {
                        "prompt_id": pid,
                        "model": pair.name,
                        "point": text,
                        "baseline": pa,
                        "candidate": pb,
                        "delta": _delta(pa, pb),
                        "change": change,
                    }
                )
    return RunDiff(baseline, candidate, models, prompts, points)
