"""What a run is given and what it reports: options, live progress, and how it ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.report.comparison import Comparison
from engine.scoring.summary import ModelSummary

__all__ = ["Progress", "RunOptions", "RunOutcome"]


@dataclass
class RunOptions:
    """How to run: caching, concurrency, budget and where to write the comparison."""

    concurrency: int = 32
    use_cache: bool = True
    max_cost_usd: float | None = None
    out_dir: Path | None = None


@dataclass
class Progress:
    """Live counters of a run."""

    total_calls: int
    total_cells: int
    done_calls: int = 0
    cached_calls: int = 0
    failed_calls: int = 0
    done_cells: int = 0
    failed_cells: int = 0
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    per_model: dict[str, list[int]] = field(default_factory=dict)  # model -> [done cells, total]


@dataclass
class RunOutcome:
    """How a run ended.

    `comparison` is assembled (and written to `path`) only when the run has an `out_dir`;
    `summaries` (per-model averages) are always there for a completed run.
    """

    status: str
    comparison: Comparison | None
    path: Path | None
    progress: Progress
    error: str | None = None
    summaries: dict[str, ModelSummary] = field(default_factory=dict)
