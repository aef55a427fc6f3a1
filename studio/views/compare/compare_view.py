"""The comparison page's parts: run pickers, model deltas, the delta grid, points, answers, trend.

Loaded comparisons are cached here (per database, run ids and how far each run got), because
the studio's cache layer (`studio.services`) knows results, not comparisons.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from engine.compare import RunDiff, compare_runs, interval_text, load_run_view, word_diff
from engine.errors import InputError
from engine.js.values import format_score
from engine.modelids import display_names
from engine.store import RunRecord
from studio import services
from studio.core import runs
from studio.core.textsafe import one_line, safe_markdown
from studio.views.compare.compare_data import (
    FILTERS,
    Filter,
    Grid,
    delta_label,
    delta_table,
    diff_markdown,
    grid,
    group_of,
    pairs_of,
    signed,
    trend_frame,
    trend_svg,
    trend_table,
)
from studio.views.compare.statictable import Table

__all__ = [
    "Loaded",
    "answers",
    "delta_grid",
    "load_diff",
    "model_deltas",
    "picker",
    "point_changes",
    "run_name",
    "trend",
]

PAGE_ROWS = 25
POINT_ROWS = 100
POINTS_PAGE_KEY = "cmp_points_page"
FILTER_KEY = "cmp_filter"
PAGE_KEY = "cmp_page"
CHANGES_KEY = "cmp_changes"
PROMPT_KEY = "cmp_prompt"
MODEL_KEY = "cmp_model"


def run_name(run: RunRecord) -> str:
    """A run as a person picks it: title, start time and status (plain text)."""
    title = one_line(run.title or "Untitled blueprint", 50)
    when = run.created_at[:19].replace("T", " ")
    return f"{title} · {when} · {runs.status_word(run.live_status)}"


@dataclass
class Loaded:
    """A comparison of two stored runs, with what its page derives from it (kept with it).

    Attributes:
        diff: The comparison.
        grid: Its prompt × model grid.
        points: The points of each set of change kinds, filled as they are asked for.
    """

    diff: RunDiff
    grid: Grid
    points: dict[frozenset[str], list[dict[str, Any]]] = field(default_factory=dict)

    def points_of(self, kinds: frozenset[str]) -> list[dict[str, Any]]:
        """The points whose change is one of `kinds`, in the comparison's order."""
        if kinds not in self.points:
            self.points[kinds] = [p for p in self.diff.points if p["change"] in kinds]
        return self.points[kinds]


@st.cache_resource(max_entries=4, show_spinner=False)
def _cached_diff(db: str, base: str, cand: str, stamp: tuple[Any, ...]) -> Loaded:
    store = services.store()
    diff = compare_runs(load_run_view(base, store), load_run_view(cand, store))
    return Loaded(diff, grid(diff))


def load_diff(base: RunRecord, cand: RunRecord) -> Loaded:
    """The comparison of two stored runs (recomputed when either run has moved on).

    Raises:
        InputError: A run's blueprint cannot be read.
    """
    stamp = (base.live_status, base.done_cells, cand.live_status, cand.done_cells)
    return _cached_diff(services.store().location, base.id, cand.id, stamp)


def _table(table: Table) -> None:
    st.html(table.html())


def picker(all_runs: list[RunRecord], base: str | None, cand: str | None) -> None:
    """Two run pickers and a button that opens their comparison."""
    ids = [r.id for r in all_runs]
    names = {r.id: run_name(r) for r in all_runs}
    cols = st.columns(2)
    picked_base = cols[0].selectbox(
        "Baseline run",
        ids,
        index=ids.index(base) if base in ids else (1 if len(ids) > 1 else 0),
        format_func=names.__getitem__,
    )
    picked_cand = cols[1].selectbox(
        "Candidate run",
        ids,
        index=ids.index(cand) if cand in ids else 0,
        format_func=names.__getitem__,
    )
    if st.button("Compare these runs", type="primary", disabled=picked_base == picked_cand):
        st.query_params.from_dict({"base": picked_base, "cand": picked_cand})
        st.rerun()


def _num(value: float | None) -> str:
    return format_score(value, 2, "–")


def model_deltas(loaded: Loaded) -> None:
    """Each model's average in both runs and the change, signed, with its paired interval."""
    st.subheader("Models")
    st.caption(
        "The interval pairs each prompt's score in both runs: a change is larger than chance "
        "when its 95% interval excludes 0 (see docs/uncertainty.md)."
    )
    diff = loaded.diff
    pairs = pairs_of(diff)
    names = display_names(pairs)
    old_names = display_names(diff.baseline.models)
    rows = []
    for m in diff.models:
        delta = m["delta"]
        old = pairs[m["model"]].baseline
        rows.append(
            [
                names.get(m["model"], m["model"]),
                old_names.get(old, old) if old else "–",
                _num(m["baseline"]),
                _num(m["candidate"]),
                delta_label(m["baseline"], m["candidate"]),
                "–"
                if delta is None
                else ("better" if delta > 0 else "worse" if delta < 0 else "same"),
                interval_text(m),
            ]
        )
    columns = [
        "Model",
        "Baseline model",
        "Baseline",
        "Candidate",
        "Change",
        "Verdict",
        "95% interval of the change (paired over prompts)",
    ]
    label = "Each model's average score in both runs and the change"
    _table(Table(columns, rows, label, test_id="cmp-models"))


def delta_grid(loaded: Loaded) -> list[str]:
    """The prompt × model grid of deltas with its filter; returns the prompts it kept."""
    st.subheader("Prompts × models")
    st.caption(
        "Each cell is the candidate's score minus the baseline's: a plus sign and blue when "
        "better, a minus sign and red when worse, “no change” when the same; “new” or “no score” "
        "where one run has no score, “failed” where an answer failed."
    )
    g = loaded.grid
    which: Filter = (
        st.segmented_control(
            "Show",
            list(FILTERS),
            default="all",
            format_func=FILTERS.__getitem__,
            key=FILTER_KEY,
        )
        or "all"
    )
    kept = g.keep(which)
    if not kept:
        st.info("No prompt matches this filter.")
        return kept
    start, end = _rows_page(len(kept), PAGE_ROWS, f"{PAGE_KEY}-{which}", "Page")
    shown = kept[start:end]
    st.caption(f"Prompts {start + 1}–{start + len(shown)} of {len(kept)}.")
    _table(delta_table(g, shown))
    return kept


def point_changes(loaded: Loaded) -> None:
    """Every point matched across the runs: same, changed, added or removed."""
    st.subheader("Points")
    diff = loaded.diff
    counts = Counter(p["change"] for p in diff.points)
    kinds = ["same", "changed", "added", "removed"]
    st.caption(
        "Points are matched by their text (or function and arguments): an edited point "
        "shows as removed + added. " + ", ".join(f"{counts.get(k, 0)} {k}" for k in kinds) + "."
    )
    shown = st.pills(
        "Point changes",
        kinds,
        selection_mode="multi",
        default=["changed", "added", "removed"],
        key=CHANGES_KEY,
    )
    wanted = frozenset(shown or [])
    matching = loaded.points_of(wanted)
    if not matching:
        st.caption("No point of these kinds.")
        return
    # a page of rows at a time: two runs of 1,000 prompts x 10 models can differ in 100,000
    # points, and every row sent is parsed and laid out by the browser of each new tab
    key = f"{POINTS_PAGE_KEY}-{'-'.join(sorted(wanted))}"
    start, end = _rows_page(len(matching), POINT_ROWS, key, "Page of points")
    if len(matching) > POINT_ROWS:
        st.caption(f"Points {start + 1}–{end} of {len(matching):,}.")
    names = loaded.grid.names
    rows = [
        [
            p["change"],
            p["prompt_id"],
            names.get(p["model"], p["model"]),
            one_line(p["point"], 120),
            format_score(p["baseline"], 2, "–"),
            format_score(p["candidate"], 2, "–"),
            signed(p["delta"]),
        ]
        for p in matching[start:end]
    ]
    columns = ["Change", "Prompt", "Model", "Point", "Baseline", "Candidate", "Delta"]
    _table(Table(columns, rows, "Points matched across the two runs", test_id="cmp-points"))


def _rows_page(total: int, size: int, key: str, label: str) -> tuple[int, int]:
    """A page selector (`label`) when `total` rows need more than one page; the rows' range."""
    pages = (total + size - 1) // size
    page = 1
    if pages > 1:
        page = int(st.number_input(label, min_value=1, max_value=pages, value=1, step=1, key=key))
    start = (min(page, pages) - 1) * size
    return start, min(start + size, total)


def answers(loaded: Loaded, prompts: list[str]) -> None:
    """The two answers of one prompt × model side by side, changed words marked."""
    st.subheader("Answers side by side")
    if not prompts:
        return
    diff = loaded.diff
    pairs = pairs_of(diff)
    cols = st.columns(2)
    pid = cols[0].selectbox("Prompt", prompts, key=PROMPT_KEY, format_func=one_line)
    names = loaded.grid.names
    model = cols[1].selectbox(
        "Model", list(pairs), key=MODEL_KEY, format_func=lambda m: names.get(m, m)
    )
    if pid is None or model is None:
        return
    pair = pairs[model]
    old = diff.baseline.responses.get((pid, pair.baseline or ""))
    new = diff.candidate.responses.get((pid, pair.candidate or ""))
    if old is None and new is None:
        st.info("Neither run has an answer for this prompt and model.")
        return
    words = word_diff(old or "", new or "")
    st.caption(
        "Words only in the baseline are struck through; words only in the candidate are "
        "in bold."
        + (" The answers are long: only their first words are matched." if words.cut else "")
    )
    left, right = st.columns(2, border=True)
    _side(left, "Baseline", old, diff_markdown(words, "baseline"))
    _side(right, "Candidate", new, diff_markdown(words, "candidate"))


def _side(col: Any, title: str, answer: str | None, marked: str) -> None:
    with col:
        st.markdown(f"**{title}**")
        if answer is None:
            st.caption("No answer in this run.")
        else:
            st.markdown(marked)


def trend(all_runs: list[RunRecord], group: str | None) -> None:
    """Each model's average across the runs of one blueprint, over time."""
    st.subheader("Trend across runs")
    groups = list(dict.fromkeys(group_of(r) for r in all_runs))
    if not groups:
        return
    chosen = st.selectbox(
        "Blueprint",
        groups,
        index=groups.index(group) if group in groups else 0,
        format_func=lambda g: one_line(g, 60),
    )
    frame = trend_frame(all_runs, chosen)
    if frame.empty:
        st.caption("No run of this blueprint has scores yet.")
        return
    st.caption(
        f"Each model's average score in the {len(frame)} scored run(s) of "
        f"{safe_markdown(one_line(chosen, 60))}, by the time the run started."
    )
    st.html(trend_svg(frame, one_line(chosen, 60)))
    with st.expander("The same figures as a table"):
        _table(trend_table(frame))


def load_error(exc: InputError) -> None:
    """Say that a run cannot be compared."""
    st.error(safe_markdown(str(exc)))
