"""What a run is given and what it reports: options, live progress, and how it ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine.providers.types import DEFAULT_CONCURRENCY
from engine.store.rows import RunTotals

if TYPE_CHECKING:
    from engine.comparison.cost import RunCost
    from engine.comparison.weval import Comparison
    from engine.judge.keypoints import KeyPoints
    from engine.scoring.summary import ModelSummary
    from engine.stats import Uncertainty
    from engine.store.rows import RunStatus

__all__ = ["Progress", "RunOptions", "RunOutcome"]


@dataclass
class RunOptions:
    """What to run and how: models, judges, repeats, caching, concurrency, budget, output.

    Attributes:
        models: Model ids to run; None for the blueprint's `models`.
        judges: Judge model ids; None for the blueprint's judges, else Weval's defaults.
        judge: False runs without judging (text points stay unverified).
        repeats: Generate every cell this many times (ids get `[rep:k]`).
        concurrency: Calls in flight at once.
        use_cache: Reuse cached answers.
        max_cost_usd: Refuse or stop beyond this many US dollars; None for no limit.
        out_dir: Where the comparison JSON is written; None to skip it.
        draft: The studio draft and version number the text is, if it came from one (kept
            with the run, so its results can open that version in the editor).
        rescored_from: For a re-score (`blueprint rescore`), the run whose answers it scores.
        key_points_from: A run whose key-point extraction (from ideals) is reused instead of
            extracting again: a re-score of that run judges the same points.
        summary_model: Write an executive summary with this model once every cell is scored
            (one more call); None for no summary.
    """

    models: list[str] | None = None
    judges: list[str] | None = None
    judge: bool = True
    repeats: int = 1
    concurrency: int = DEFAULT_CONCURRENCY
    use_cache: bool = True
    max_cost_usd: float | None = None
    out_dir: Path | None = None
    draft: tuple[str, int] | None = None
    rescored_from: str | None = None
    key_points_from: str | None = None
    summary_model: str | None = None

    def planned_calls(self, plan_calls: int) -> int:
        """The calls a run makes: its plan's (`RunPlan.total_calls`) plus the summary's.

        The progress counts the executive summary's call as made, so the plan counts it too
        (never "79 of 78 calls made").
        """
        return plan_calls + (1 if self.summary_model else 0)


@dataclass(kw_only=True)
class Progress(RunTotals):
    """Live counters of a run: the stored ones (`RunTotals`), its plan's totals, per model."""

    total_calls: int
    total_cells: int
    failed_cells: int = 0
    per_model: dict[str, list[int]] = field(default_factory=dict)  # model -> [done cells, total]


@dataclass
class RunOutcome:
    """How a run ended.

    `comparison` is assembled (and written to `path`) only when the run has an `out_dir`;
    `summaries` (per-model averages) are always there for a completed run; `key_points` holds
    the key points extracted from ideals (and the failures: those prompts are not scored).
    """

    status: RunStatus
    comparison: Comparison | None
    path: Path | None
    progress: Progress
    error: str | None = None
    summaries: dict[str, ModelSummary] = field(default_factory=dict)
    key_points: dict[str, KeyPoints] = field(default_factory=dict)
    summary_error: str | None = None
    uncertainty: Uncertainty | None = None
    """Each model's 95% interval and each pair's paired difference (a completed run)."""
    cost: RunCost | None = None
    """What the run cost, read once from its call log at its end (however it ended)."""
