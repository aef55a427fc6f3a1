"""Why this score: the arithmetic of a cell's score, as bars (`score_bars`) and in words.

The HTML report's per-path chart and the studio's explanation figure both draw `score_bars`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.js.values import format_score
from engine.scoring.aggregation import PathExplanation, PointLine, ScoreExplanation
from engine.textlines import one_line

__all__ = [
    "BEST_PATH",
    "ScoreBar",
    "explanation_steps",
    "mean_text",
    "path_names",
    "score_bars",
    "weight_text",
]

BEST_PATH = "← best path: this one counts"
"""The words that mark the path whose score counts."""


def _path_key(path_id: str) -> tuple[int, str]:
    index = path_id.removeprefix("path_")
    return (int(index), "") if index.isdigit() else (1 << 30, path_id)


def path_names(path_ids: Iterable[str | None]) -> dict[str, str]:
    """Name a prompt's alternative paths "Path 1", "Path 2"… in the order they are written.

    Weval's path ids number the entries of the `should` list (`path_1` may be the second
    entry), so they are renumbered here from 1 in the same order.
    """
    ids = sorted({p for p in path_ids if p}, key=_path_key)
    return {p: f"Path {i}" for i, p in enumerate(ids, 1)}


def weight_text(weight: float) -> str:
    """A point's weight as shown: `1`, `2.5`."""
    return f"{weight:g}"


def mean_text(points: Sequence[PointLine], result: float | None) -> str:
    """A weighted mean written out: "(1.00×1 + 0.50×1) ÷ 2 = 0.75", or "nothing scored"."""
    counted = [p for p in points if p.score is not None]
    if not counted or result is None:
        return "nothing scored"
    terms = " + ".join(
        f"{format_score(p.score)}×{weight_text(p.weight)}" for p in counted if p.score is not None
    )
    total = sum(p.weight for p in counted)
    return f"({terms}) ÷ {weight_text(total)} = {format_score(result)}"


def _path_line(path: PathExplanation, winner: str | None, name: str) -> str:
    mark = f" {BEST_PATH}" if path.path_id == winner else ""
    return f"{name}: {mean_text(path.points, path.score)}{mark}"


def explanation_steps(expl: ScoreExplanation) -> list[str]:
    """The arithmetic in plain sentences, one per group and path, then the final formula."""
    steps: list[str] = []
    for group in expl.groups:
        if group.kind == "required":
            steps.append(f"Required points: {mean_text(group.points, group.score)}")
        else:
            names = path_names(p.path_id for p in group.paths)
            steps.append("Alternative paths (only the best one counts, as one item):")
            steps += [f"  {_path_line(p, group.winner, names[p.path_id])}" for p in group.paths]
    for p in expl.left_out:
        steps.append(f"Left out of the mean: “{one_line(p.text, 80)}” ({p.reason or p.status})")
    if expl.score is None:
        steps.append("Final score: none, because nothing could be scored.")
    else:
        steps.append(f"Final score: {expl.formula}")
    return steps


@dataclass(frozen=True)
class ScoreBar:
    """One step of a score's arithmetic, drawn as a bar.

    Attributes:
        kind: `point` (a scored point), `left_out` (a point out of the mean), `required` (the
            required points' weighted mean), `path` (an alternative path not used), `best`
            (the path that counts) or `final` (the cell's score).
        value: The score (0-1); None when nothing was scored.
        point: The point, for `point` and `left_out`.
        name: The path's name ("Path 1"), for `path` and `best`.
        points: The points of the mean, for `required`, `path` and `best` (`mean_text`).
    """

    kind: Literal["point", "left_out", "required", "path", "best", "final"]
    value: float | None
    point: PointLine | None = None
    name: str = ""
    points: Sequence[PointLine] = ()


def _point(p: PointLine) -> ScoreBar:
    return ScoreBar("point" if p.score is not None else "left_out", p.score, point=p)


def score_bars(expl: ScoreExplanation, points: bool = True) -> list[ScoreBar]:
    """The steps of a cell's score in order: each group's mean, the points left out, the final.

    Each group is the required points' weighted mean or the alternative paths (each path's
    mean, the best one marked: it counts as one item).

    Args:
        expl: The engine's explanation of the score (`engine.scoring.explain`).
        points: Also each point, before the mean it counts in (and those left out).
    """
    bars: list[ScoreBar] = []
    shown: set[int] = set()
    for group in expl.groups:
        if group.kind == "required":
            shown.update(p.index for p in group.points)
            bars += [_point(p) for p in group.points] if points else []
            bars.append(ScoreBar("required", group.score, points=group.points))
            continue
        names = path_names(path.path_id for path in group.paths)
        for path in group.paths:
            shown.update(q.index for q in path.points)
            bars += [_point(q) for q in path.points] if points else []
            best = path.path_id == group.winner
            kind: Literal["best", "path"] = "best" if best else "path"
            bars.append(ScoreBar(kind, path.score, name=names[path.path_id], points=path.points))
    if points:
        bars += [_point(p) for p in expl.left_out if p.index not in shown]
    bars.append(ScoreBar("final", expl.score))
    return bars
