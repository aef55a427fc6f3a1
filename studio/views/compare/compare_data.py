"""The comparison page's data: the prompt × model delta grid, its filters, answer diffs, trends.

Pure: no Streamlit. Every label that comes from a blueprint or a model is shown by the page as
escaped text: Markdown with every special character escaped, or a cell of an HTML-escaped
static table or chart (`studio.views.compare.statictable`, `studio.views.compare.linechart`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd

from engine.compare import ModelPair, RunDiff, pair_models
from engine.compare.view import RunView
from engine.compare.words import WordDiff
from engine.js.values import format_score
from engine.modelids import display_names
from studio.core.figures import _unique, score_colour
from studio.core.resultdata import NOT_ANSWERED
from studio.core.textsafe import safe_markdown
from studio.views.compare.linechart import line_chart_svg, svg_image
from studio.views.compare.statictable import Table

__all__ = [
    "FILTERS",
    "Filter",
    "Grid",
    "delta_colour",
    "delta_label",
    "delta_table",
    "diff_markdown",
    "grid",
    "group_of",
    "trend_frame",
    "trend_svg",
    "trend_table",
]

Filter = Literal["all", "worse", "changed", "failed"]
FILTERS: dict[Filter, str] = {
    "all": "All prompts",
    "worse": "Got worse",
    "changed": "Changed",
    "failed": "Failed",
}
"""The grid's filters and their labels."""


def delta_label(baseline: float | None, candidate: float | None) -> str:
    """A cell's text, readable without colour: `+0.25`, `−0.50`, "no change", or what is missing."""
    if baseline is None and candidate is None:
        return "–"
    if baseline is None:
        return f"new {format_score(candidate)}" if candidate is not None else "–"
    if candidate is None:
        return "no score"
    delta = candidate - baseline
    if abs(delta) < 0.005:
        return "no change"
    return signed(delta)


def signed(delta: float | None) -> str:
    """A change with its sign, rounded as every score is (`+0.25`, `−0.50`; `–` for none)."""
    if delta is None:
        return "–"
    return ("+" if delta >= 0 else "−") + format_score(abs(delta))


def delta_colour(delta: float | None) -> str:
    """Blue when better, red when worse (RdBu, as the results heatmap); grey without a delta."""
    if delta is None:
        return "#eeeeee"
    return score_colour(0.5 + max(-1.0, min(1.0, delta)) / 2)


@dataclass(frozen=True)
class Cell:
    """One prompt × model of the grid."""

    baseline: float | None
    candidate: float | None
    delta: float | None
    failed: bool
    not_answered: tuple[bool, bool] = (False, False)
    """Whether the baseline, the candidate run had the model but no answer to the prompt
    (a chat app's unanswered prompt): no score, not a failure."""


@dataclass(frozen=True)
class Grid:
    """Every prompt × model pair of two runs, in prompt order and model order."""

    prompts: list[str]
    models: list[str]
    cells: dict[tuple[str, str], Cell]
    names: dict[str, str] = field(default_factory=dict)
    """The name each model is shown by (`engine.modelids.display_names`)."""

    def keep(self, which: Filter) -> list[str]:
        """The prompts with at least one cell that passes the filter."""
        if which == "all":
            return list(self.prompts)
        return [p for p in self.prompts if any(self._passes(p, m, which) for m in self.models)]

    def _passes(self, pid: str, model: str, which: Filter) -> bool:
        cell = self.cells.get((pid, model))
        if cell is None:
            return False
        if which == "worse":
            return cell.delta is not None and cell.delta < 0
        if which == "changed":
            return cell.baseline != cell.candidate
        return cell.failed


def _failed(diff: RunDiff, pair: ModelPair, pid: str) -> bool:
    old = diff.baseline.cells.get((pid, pair.baseline)) if pair.baseline else None
    new = diff.candidate.cells.get((pid, pair.candidate)) if pair.candidate else None
    return bool((old and old.failed) or (new and new.failed))


def _not_answered(diff: RunDiff, pair: ModelPair, pid: str) -> tuple[bool, bool]:
    """Whether each run has the model and the prompt but no cell for them."""

    def missing(run: RunView, model: str | None) -> bool:
        return model is not None and pid in run.prompt_ids and (pid, model) not in run.cells

    return missing(diff.baseline, pair.baseline), missing(diff.candidate, pair.candidate)


def pairs_of(diff: RunDiff) -> dict[str, ModelPair]:
    """The model pairs of a comparison, by the name its rows use."""
    return {p.name: p for p in pair_models(diff.baseline.models, diff.candidate.models)}


def grid(diff: RunDiff) -> Grid:
    """The prompt × model grid of a comparison (from `RunDiff.prompts`)."""
    pairs = pairs_of(diff)
    cells: dict[tuple[str, str], Cell] = {}
    prompts: dict[str, None] = {}
    for row in diff.prompts:
        pid, model = row["prompt_id"], row["model"]
        prompts[pid] = None
        pair = pairs.get(model, ModelPair(None, None))
        cells[(pid, model)] = Cell(
            row["baseline"],
            row["candidate"],
            row["delta"],
            _failed(diff, pair, pid),
            _not_answered(diff, pair, pid),
        )
    return Grid(list(prompts), list(pairs), cells, display_names(pairs))


def delta_table(g: Grid, prompts: Sequence[str]) -> Table:
    """The grid's rows for `prompts` as a colour-coded table: signed deltas, RdBu background."""
    labels: list[list[str]] = []
    colours: list[list[str]] = []
    for pid in prompts:
        row, colour = [], []
        for model in g.models:
            cell = g.cells.get((pid, model))
            if cell is None:
                row.append("–")
                colour.append(delta_colour(None))
                continue
            text = delta_label(cell.baseline, cell.candidate)
            if cell.candidate is None and cell.not_answered[1]:
                text = NOT_ANSWERED
            elif cell.baseline is None and cell.not_answered[0] and cell.candidate is not None:
                text = f"{text} ({NOT_ANSWERED} before)"
            row.append(f"{text} failed" if cell.failed else text)
            colour.append(delta_colour(cell.delta))
        labels.append(row)
        colours.append(colour)
    return Table(
        columns=_unique([g.names.get(m, m) for m in g.models]),
        rows=labels,
        label="Change of each prompt's score, by model (candidate minus baseline)",
        row_labels=list(prompts),
        corner="Prompt",
        colours=colours,
        test_id="cmp-grid",
    )


def _marked(text: str, mark: str) -> str:
    """Escaped text with every word wrapped in `mark` (whitespace stays outside the marks)."""
    out = []
    for line_no, line in enumerate(text.split("\n")):
        if line_no:
            out.append("  \n")
        words = line.split(" ")
        out.append(" ".join(f"{mark}{safe_markdown(w)}{mark}" if w else w for w in words))
    return "".join(out)


def _plain(text: str) -> str:
    return safe_markdown(text).replace("\n", "  \n")


def diff_markdown(diff: WordDiff, which: Literal["baseline", "candidate"]) -> str:
    """One answer as escaped Markdown, its changed words struck (baseline) or bold (candidate).

    Every character of the answer is escaped (`safe_markdown`), so the answer can add no
    link, image, HTML or directive; only the page's own `~~`/`**` marks are Markdown.
    """
    mark = "~~" if which == "baseline" else "**"
    return "".join(
        _marked(text, mark) if changed else _plain(text) for changed, text in diff.side(which)
    )


def trend_frame(runs: Iterable[Any], group: str) -> pd.DataFrame:
    """Each model's average across the runs of one blueprint: rows = run time, columns = models.

    The columns are the models' names as every page shows them (`display_names`).

    Args:
        runs: Stored runs (with `created_at`, `summary`, `config_id`, `title`).
        group: The blueprint to follow, as `group_of` names it.
    """
    times: list[pd.Timestamp] = []
    rows: list[dict[str, float]] = []
    for run in runs:
        if group_of(run) != group:
            continue
        row: dict[str, float] = {}
        for model, stats in (run.summary or {}).items():
            average = stats.get("average") if isinstance(stats, dict) else None
            if isinstance(average, int | float) and not isinstance(average, bool):
                row[str(model)] = float(average)
        if row:
            times.append(pd.Timestamp(str(run.created_at)).tz_localize(None))
            rows.append(row)
    frame = pd.DataFrame(rows, index=pd.DatetimeIndex(times, name="Run started (UTC)"))
    frame = frame.rename(columns=display_names(str(c) for c in frame.columns))
    return frame.sort_index(kind="stable")


def trend_svg(frame: pd.DataFrame, title: str) -> str:
    """A line per model (average score over run time): an SVG image, described for screen readers.

    The page shows the same figures as a table too (`trend_table`).
    """
    series = {
        str(model): [
            (when.to_pydatetime(), float(value))
            for when, value in zip(frame.index, frame[model], strict=True)
            if pd.notna(value)
        ]
        for model in frame.columns
    }
    models = ", ".join(series)
    label = f"Average score of {models} across {len(frame)} runs of {title}."
    return svg_image(line_chart_svg(series, label=label), label)


def trend_table(frame: pd.DataFrame) -> Table:
    """The trend's figures: a row per run (its start time), a column per model, 3 decimals."""
    return Table(
        columns=_unique([str(c) for c in frame.columns]),
        rows=[
            [format_score(None if pd.isna(v) else float(v), 2, "–") for v in row]
            for row in frame.itertuples(index=False)
        ],
        label="Each model's average score in each run",
        row_labels=[when.strftime("%Y-%m-%d %H:%M:%S") for when in frame.index],
        corner="Run started (UTC)",
        test_id="cmp-trend",
    )


def group_of(run: Any) -> str:
    """The blueprint a run belongs to for the trend: its config id, else its title."""
    return str(run.config_id or run.title or "Untitled blueprint")
