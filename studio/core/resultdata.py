"""What the Results page shows, computed from the engine's `Comparison` (no scoring here).

`Results` wraps a `Comparison` (built by the engine from a stored run, or read from a
comparison JSON file) with per-cell usage (latency, tokens, cost) and answers the page's
questions: the leaderboard rows, a page of prompts, the score matrix, the point × model grid,
the explanation of one cell. Every number comes from the engine (`Comparison.summaries()`,
`CellScore.score`, `CellScore.explain()`); this module only arranges them. Pure: no Streamlit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.assessment import PointAssessment
from engine.blueprint import Blueprint
from engine.comparison import IDEAL_MODEL_ID, Comparison, comparison_from_rows
from engine.comparison.cost import RunCost
from engine.js.values import format_score
from engine.modelids import display_names, judge_name
from engine.report.numbering import point_kinds, point_numbers
from engine.report.ranking import ranked, shared_ranks
from engine.report.views.overview import prompt_order
from engine.report.views.prompt import group_label, point_value
from engine.report.views.why import path_names
from engine.scoring import CellScore, ScoreExplanation
from engine.stats import DETECT, Uncertainty, interval_words, pair_words, power_line
from engine.store import CellRow

__all__ = [
    "NOT_ANSWERED",
    "PAGE_SIZE",
    "CellUsage",
    "LeaderRow",
    "PairRow",
    "Results",
    "display_names",
    "group_label",
    "page_count",
    "path_names",
    "shown",
]

PAGE_SIZE = 20
"""Prompts per page on the Results page."""

NOT_ANSWERED = "not answered"
"""What a finished run's missing cell is called: the model (a chat app) gave no answer; it
has no score and is not a failure."""


@dataclass(frozen=True)
class CellUsage:
    """What one response cost: time, tokens and dollars (None when not recorded)."""

    latency_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


@dataclass(frozen=True)
class LeaderRow:
    """One model on the leaderboard."""

    model: str
    name: str
    average: float | None
    stddev: float | None
    minimum: float | None
    maximum: float | None
    scored: int
    failed: int
    unscored: int
    prompts: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    """Its answers plus the judging of them (`blueprintStudio.cost`); None when unknown."""
    mean_latency_ms: float | None
    rank: str = ""
    """"1", or "2=" when the model is not separable from the one above it (a tie)."""
    low: float | None = None
    """The 95% interval of the average over prompts (None when there is none)."""
    high: float | None = None
    weval_differs: bool = False
    """True when Weval's score for the model (`weval_score`) is not `average`."""
    weval_score: float | None = None
    """Weval's figure for the model (its hybrid average; the average when the same)."""


@dataclass(frozen=True)
class PairRow:
    """Two models of the leaderboard compared on the prompts both scored (paired)."""

    a: str
    b: str
    difference: float | None
    low: float | None
    high: float | None
    separable: bool
    prompts: int
    minimum_detectable: float | None
    needed: int | None
    words: str
    neighbours: bool = False
    """The two are next to each other on the leaderboard."""


def _average(row: LeaderRow) -> float | None:
    return row.average


def _scored(row: LeaderRow) -> int:
    return row.scored


def _number(row: Mapping[str, Any]) -> int:
    return int(row["#"])


def _name(row: LeaderRow) -> str:
    return row.name


def shown(value: float | str) -> str:
    """A score as a table shows it ("0.75"), or the word that stands in for it."""
    return format_score(value) if isinstance(value, int | float) else value


def page_count(total: int, size: int = PAGE_SIZE) -> int:
    """How many pages `total` items fill (at least 1)."""
    return max(1, math.ceil(total / size))


def _usage_from_row(row: CellRow) -> CellUsage:
    return CellUsage(
        latency_ms=row.latency_ms,
        input_tokens=row.input_tokens,
        output_tokens=row.output_tokens,
        cost_usd=row.cost_usd,
    )


class Results:
    """A scored run or comparison file, arranged for display.

    Args:
        comparison: The engine's comparison (treat as read-only: it may be shared by a cache).
        usage: Latency, tokens and cost per (prompt id, model id), when known.
        run_id: The stored run this came from, if any.
        complete: False while the run can still add cells (a missing cell is then still to
            come); True for a finished run or a comparison file, where a missing cell is a
            prompt the model did not answer (a chat app's unanswered prompt).
    """

    def __init__(
        self,
        comparison: Comparison,
        usage: Mapping[tuple[str, str], CellUsage] | None = None,
        run_id: str | None = None,
        *,
        complete: bool = True,
    ) -> None:
        self.comparison = comparison
        self.usage = dict(usage or {})
        self.run_id = run_id
        self.complete = complete
        seen = {m for row in comparison.cells.values() for m in row}
        self.models = [m for m in comparison.models if m != IDEAL_MODEL_ID]
        self.models += sorted(seen - set(self.models) - {IDEAL_MODEL_ID})
        self.names = display_names(self.models)
        self.prompt_ids = prompt_order(comparison)
        self._summaries = comparison.summaries()
        self._uncertainty: Uncertainty | None = None
        self.weval_scores = comparison.weval_scores()
        """Models whose Weval score differs from their average, with Weval's score."""

    @classmethod
    def from_run_rows(
        cls, blueprint: Blueprint, rows: Sequence[CellRow], run_id: str | None = None
    ) -> Results:
        """Build from a run's stored cells alone (the engine assembles the comparison)."""
        return cls.from_comparison(comparison_from_rows(blueprint, rows), rows, run_id)

    @classmethod
    def from_comparison(
        cls,
        comparison: Comparison,
        rows: Sequence[CellRow],
        run_id: str | None = None,
        *,
        complete: bool = True,
    ) -> Results:
        """Build from a stored run's comparison (`engine.run.stored_comparison`) and cells."""
        usage = {r.key: _usage_from_row(r) for r in rows}
        return cls(comparison, usage, run_id, complete=complete)

    # --- overview ---------------------------------------------------------------------

    @property
    def title(self) -> str:
        """The blueprint's title."""
        return self.comparison.config_title

    @property
    def description(self) -> str | None:
        """The blueprint's description, if any."""
        return self.comparison.description

    def cell(self, prompt_id: str, model: str) -> CellScore | None:
        """The scored cell of a prompt and model, if present."""
        return self.comparison.cell(prompt_id, model)

    def status(self, prompt_id: str, model: str) -> str:
        """The cell's status: `scored`, `failed`, `unscored`, `not answered` or `missing`.

        `failed`: no response; `unscored`: nothing could be scored; `not answered`: no cell
        and the run is over; `missing`: no cell yet.
        """
        cell = self.cell(prompt_id, model)
        if cell is None:
            return NOT_ANSWERED if self.complete else "missing"
        if cell.failed:
            return "failed"
        return "scored" if cell.score is not None else "unscored"

    @property
    def cost(self) -> RunCost | None:
        """What the run cost (the comparison's `blueprintStudio.cost`), if recorded."""
        return self.comparison.cost

    @property
    def uncertainty(self) -> Uncertainty:
        """Each model's 95% interval and each pair's paired difference (computed once)."""
        if self._uncertainty is None:
            self._uncertainty = self.comparison.uncertainty()
        return self._uncertainty

    def leaderboard(self) -> list[LeaderRow]:
        """Every model, best first (`engine.report.ranking`: fewer prompts scored ranks after).

        Ranks are shared ("2=") where a model is not separable from the one above it: the
        interval of their paired difference includes 0.
        """
        rows: list[LeaderRow] = []
        for model in self.models:
            s = self._summaries.get(model)
            interval = self.uncertainty.models.get(model)
            low = high = None
            if interval is not None and interval.estimate.has_interval:
                low = max(0.0, interval.estimate.low or 0.0)
                high = min(1.0, interval.estimate.high or 0.0)
            spent = [u for (p, m), u in self.usage.items() if m == model]
            latencies = [u.latency_ms for u in spent if u.latency_ms is not None]
            rows.append(
                LeaderRow(
                    model=model,
                    name=self.names[model],
                    average=s.average if s else None,
                    stddev=s.stddev if s else None,
                    minimum=s.minimum if s else None,
                    maximum=s.maximum if s else None,
                    scored=s.scored_prompts if s else 0,
                    failed=s.failed_prompts if s else 0,
                    unscored=s.unscored_prompts if s else 0,
                    prompts=sum(1 for row in self.comparison.cells.values() if model in row),
                    input_tokens=sum(u.input_tokens or 0 for u in spent),
                    output_tokens=sum(u.output_tokens or 0 for u in spent),
                    cost_usd=self.cost.per_model.get(model) if self.cost else None,
                    mean_latency_ms=sum(latencies) / len(latencies) if latencies else None,
                    low=low,
                    high=high,
                    weval_differs=model in self.weval_scores,
                    weval_score=self.weval_scores.get(model, s.average if s else None),
                )
            )
        order = ranked(rows, _average, _scored, _name)
        by_model = {r.model: r for r in order}
        ranks = shared_ranks(
            [r.model for r in order],
            self.uncertainty,
            lambda m: by_model[m].average,
            lambda m: by_model[m].scored,
        )
        return [replace(r, rank=k) for r, k in zip(order, ranks, strict=True)]

    def pair_rows(self, detect: float = DETECT) -> list[PairRow]:
        """Every two models of the leaderboard, in its order, compared paired over prompts."""
        order = [r.model for r in self.leaderboard() if r.average is not None]
        out: list[PairRow] = []
        for i, upper in enumerate(order):
            for lower in order[i + 1 :]:
                pair = self.uncertainty.pair(upper, lower)
                if pair is None:
                    continue
                e = pair.estimate
                a, b = self.names.get(pair.a, pair.a), self.names.get(pair.b, pair.b)
                out.append(
                    PairRow(
                        a=a,
                        b=b,
                        difference=e.mean,
                        low=e.low,
                        high=e.high,
                        separable=pair.separable,
                        prompts=e.n,
                        minimum_detectable=pair.minimum_detectable,
                        needed=pair.prompts_needed(detect),
                        words=pair_words(a, b, e),
                        neighbours=order[i + 1] == lower,
                    )
                )
        return out

    def clustered_lines(self) -> list[str]:
        """Base models with several answers per prompt: their interval and the within spread."""
        out: list[str] = []
        for model, u in self.uncertainty.models.items():
            if u.answers == (model,):
                continue
            spread = (
                f"; answers to one prompt differ by {u.within_prompt_sd:.2f} (standard deviation)"
                if u.within_prompt_sd is not None
                else ""
            )
            out.append(
                f"{model}, {len(u.answers)} answers per prompt averaged: "
                f"{interval_words(u.estimate)}{spread}"
            )
        return out

    def power_sentence(self, detect: float = DETECT) -> str | None:
        """How many prompts would tell apart `detect` for the hardest neighbours (None: < 2)."""
        order = [r.model for r in self.leaderboard() if r.average is not None]
        return power_line(self.uncertainty, order, detect)

    def page(self, number: int, size: int = PAGE_SIZE) -> list[str]:
        """The prompt ids on a 1-based page."""
        start = (max(number, 1) - 1) * size
        return self.prompt_ids[start : start + size]

    def matrix(self, prompt_ids: Iterable[str]) -> list[list[float | None]]:
        """Scores of the given prompts (rows) × models (columns); None where there is none."""
        out: list[list[float | None]] = []
        for pid in prompt_ids:
            row: list[float | None] = []
            for model in self.models:
                cell = self.cell(pid, model)
                row.append(cell.score if cell is not None else None)
            out.append(row)
        return out

    def status_matrix(self, prompt_ids: Iterable[str]) -> list[list[str]]:
        """The status of each cell of `matrix` (see `status`)."""
        return [[self.status(pid, m) for m in self.models] for pid in prompt_ids]

    # --- one prompt -------------------------------------------------------------------

    def prompt_messages(self, prompt_id: str) -> list[dict[str, Any]]:
        """The prompt's conversation as `{role, content}` dicts (content as text)."""
        raw = self.comparison.prompt_contexts.get(prompt_id)
        if isinstance(raw, str):
            return [{"role": "user", "content": raw}]
        out: list[dict[str, Any]] = []
        for m in raw if isinstance(raw, list) else []:
            if isinstance(m, dict):
                content = m.get("content")
                out.append(
                    {
                        "role": str(m.get("role") or ""),
                        "content": content
                        if isinstance(content, str) or content is None
                        else json.dumps(content, ensure_ascii=False),
                    }
                )
        return out

    def prompt_preview(self, prompt_id: str) -> str:
        """The last user turn of the prompt (what the question is), or ''."""
        for m in reversed(self.prompt_messages(prompt_id)):
            if m["role"] == "user" and m["content"]:
                return str(m["content"])
        return ""

    def ideal(self, prompt_id: str) -> str | None:
        """The prompt's ideal response, if the blueprint gives one."""
        return self.comparison.responses.get(prompt_id, {}).get(IDEAL_MODEL_ID)

    def response(self, prompt_id: str, model: str) -> str | None:
        """The model's final answer (None when none was recorded)."""
        return self.comparison.responses.get(prompt_id, {}).get(model)

    def history(self, prompt_id: str, model: str) -> list[dict[str, Any]]:
        """The whole conversation the model had, when recorded."""
        return list(self.comparison.histories.get(prompt_id, {}).get(model, []))

    def points(self, prompt_id: str) -> list[PointAssessment]:
        """The prompt's points, in the evaluator's order (from the first scored model)."""
        for model in self.models:
            cell = self.cell(prompt_id, model)
            if cell is not None and cell.assessments:
                return list(cell.assessments)
        return []

    def point_numbers(self, prompt_id: str, model: str | None = None) -> list[int]:
        """Each point's number as the blueprint writes it (the judges' records use it too)."""
        cell = self.cell(prompt_id, model) if model is not None else None
        points = list(cell.assessments) if cell is not None else self.points(prompt_id)
        return point_numbers(points, point_kinds(self.comparison.config, prompt_id))

    def point_grid(self, prompt_id: str) -> list[dict[str, Any]]:
        """One row per point, in the blueprint's order: the point, group, weight, each model's score.

        The rows follow the points' numbers (as written: `should`, then `should_not`), not
        the evaluator's order (functions first). A model's entry is the point's score as text ("0.75"), or a word when it has none
        (`failed`, `needs a judge`, `errored`, `no result`): one type per column.
        """
        rows: list[dict[str, Any]] = []
        points = self.points(prompt_id)
        names = path_names(p.path_id for p in points)
        numbers = self.point_numbers(prompt_id)
        for index, point in enumerate(points):
            row: dict[str, Any] = {
                "#": numbers[index],
                "Point": point.key_point_text,
                "Group": group_label(point.path_id, point.is_inverted, names),
                "Weight": point.multiplier,
            }
            for model in self.models:
                row[self.names[model]] = shown(self.point_value(prompt_id, model, index))
            rows.append(row)
        return sorted(rows, key=_number)

    def point_value(self, prompt_id: str, model: str, index: int) -> float | str:
        """A model's score on one point, or a word saying why there is none."""
        cell = self.cell(prompt_id, model)
        if cell is None:
            return NOT_ANSWERED if self.complete else "no result"
        return point_value(cell, index)

    def reflections(self, prompt_id: str, model: str) -> list[dict[str, Any]]:
        """One row per point for one model: score, status and the judges' reasons."""
        cell = self.cell(prompt_id, model)
        if cell is None:
            return []
        rows: list[dict[str, Any]] = []
        names = path_names(a.path_id for a in cell.assessments)
        numbers = self.point_numbers(prompt_id, model)
        for index, a in enumerate(cell.assessments):
            judges = a.individual_judgements or []
            why = (
                "\n".join(f"{judge_name(j.judge_model_id)}: {j.reflection}" for j in judges)
                if judges
                else a.reflection or ""
            )
            if a.error:
                why = f"{why}\n{a.error}".strip()
            rows.append(
                {
                    "#": numbers[index],
                    "Point": a.key_point_text,
                    "Group": group_label(a.path_id, a.is_inverted, names),
                    "Score": shown(self.point_value(prompt_id, model, index)),
                    "Why": why,
                    "Judges": "; ".join(
                        f"{judge_name(j.judge_model_id)}: {format_score(j.coverage_extent)}"
                        for j in judges
                    ),
                }
            )
        return rows

    def explanation(self, prompt_id: str, model: str) -> ScoreExplanation | None:
        """The engine's explanation of a cell's score (None for a failed or missing cell)."""
        cell = self.cell(prompt_id, model)
        if cell is None or cell.failed:
            return None
        return cell.explain()

    def cell_usage(self, prompt_id: str, model: str) -> CellUsage | None:
        """Latency, tokens and cost of one response, when recorded."""
        return self.usage.get((prompt_id, model))

    def error(self, prompt_id: str, model: str) -> str | None:
        """Why a cell has no result, if it failed."""
        cell = self.cell(prompt_id, model)
        if cell is not None and cell.error:
            return cell.error
        return self.comparison.errors.get(prompt_id, {}).get(model)
