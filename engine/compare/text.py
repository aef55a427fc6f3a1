"""`blueprint compare --format text`: what changed between two runs, for a person reading it."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.compare.diff import RunDiff

__all__ = ["interval_text", "render_text"]

SHOWN = 20


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _signed(value: float | None) -> str:
    return "" if value is None else f"{value:+.2f}"


def interval_text(m: dict[str, Any]) -> str:
    """The change's paired interval and verdict ("-0.06 to -0.01, larger than chance")."""
    n = m.get("prompts", 0)
    if m.get("low") is None or m.get("high") is None:
        if n >= 2 and m.get("separable"):
            return f"same change on all {n} prompts"
        return (
            "no interval (one prompt)" if n == 1 else "-" if n == 0 else "no change on any prompt"
        )
    verdict = "larger than chance" if m.get("separable") else f"within chance ({n} prompts)"
    return f"{m['low']:+.2f} to {m['high']:+.2f}, {verdict}"


def _cut(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]


def _worst_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        rows, key=lambda r: (r["delta"] is None, r["delta"] if r["delta"] is not None else 0)
    )


def render_text(diff: RunDiff) -> str:
    """The comparison as plain text: models, then the prompts and points that changed."""
    b, c = diff.baseline, diff.candidate
    lines = [
        f"baseline   {_cut(b.label, 50)}  ({b.id}{', ' + b.timestamp if b.timestamp else ''})",
        f"candidate  {_cut(c.label, 50)}  ({c.id}{', ' + c.timestamp if c.timestamp else ''})",
        "",
    ]
    rows = [["model", "baseline", "candidate", "change", "95% interval (paired)"]]
    for m in diff.models:
        name = m["model"] if "baseline_model" not in m else f"{m['baseline_model']} → {m['model']}"
        rows.append(
            [name, _num(m["baseline"]), _num(m["candidate"]), _signed(m["delta"]), interval_text(m)]
        )
    lines += _table(rows)
    moved = [p for p in diff.prompts if p["baseline"] != p["candidate"]]
    worse = sum(1 for p in moved if p["delta"] is not None and p["delta"] < 0)
    lines += ["", f"prompts whose score changed: {len(moved)} ({worse} worse)"]
    if moved:
        rows = [["prompt", "model", "baseline", "candidate", "change"]]
        for p in _worst_first(moved)[:SHOWN]:
            rows.append(
                [
                    _cut(p["prompt_id"], 40),
                    p["model"],
                    _num(p["baseline"]),
                    _num(p["candidate"]),
                    _signed(p["delta"]),
                ]
            )
        lines += ["  " + line for line in _table(rows)]
        if len(moved) > SHOWN:
            lines.append(f"  … and {len(moved) - SHOWN} more (--format json lists them all)")
    counts = Counter(p["change"] for p in diff.points)
    lines += [
        "",
        "points: "
        + ", ".join(f"{counts.get(k, 0)} {k}" for k in ("same", "changed", "added", "removed")),
    ]
    listed = [p for p in diff.points if p["change"] != "same"]
    order = {"changed": 0, "removed": 1, "added": 2}
    listed.sort(key=lambda p: (order[p["change"]], p["delta"] if p["delta"] is not None else 0))
    for p in listed[:SHOWN]:
        lines.append(
            f"  {p['change']:<8} {_cut(p['prompt_id'], 30)} · {p['model']} · “{_cut(p['point'], 60)}” "
            f"{_num(p['baseline'])} → {_num(p['candidate'])}"
        )
    if len(listed) > SHOWN:
        lines.append(f"  … and {len(listed) - SHOWN} more (--format json lists them all)")
    return "\n".join(lines)
