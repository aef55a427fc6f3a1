"""Render a `Results`: leaderboard, heatmap, one prompt in detail, downloads.

Untrusted text (prompts, responses, reflections, ids) is shown with `st.text`, `st.code`,
dataframe cells or `safe_markdown`; never as HTML.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from engine.comparison.cost import money_text
from engine.js.values import format_score
from engine.report.costs import PRICE_HOWTO, UNKNOWN, unpriced
from engine.report.ranking import coverage_note
from engine.similarity.hybrid import WEVAL_SCORE_NOTE
from engine.store import ReviewRow
from studio import services
from studio.core import figures
from studio.core.resultdata import PAGE_SIZE, LeaderRow, PairRow, Results, page_count
from studio.core.run_files import FILES, FileKind, file_name, run_file
from studio.core.textsafe import one_line, safe_markdown
from studio.views.results import calibration_view, cell_pick, sidebyside
from studio.views.results.executive_view import executive_summary
from studio.views.results.keypoints_view import AddPoints, key_points_panel
from studio.views.results.similarity_view import similarity_section
from studio.views.results.variants_view import variants_view
from studio.widgets import review_panel
from studio.widgets.common import conversation

__all__ = [
    "MODEL_KEY",
    "PAGE_KEY",
    "PROMPT_KEY",
    "TABS",
    "TAB_KEY",
    "downloads",
    "how_sure",
    "init_view",
    "leaderboard",
    "leaderboard_markdown",
    "pairs_markdown",
    "prompt_detail",
    "prompts_overview",
    "render_results",
]

TABS = ["Points × models", "Why this score", "Answers side by side", "Time & cost"]
TAB_KEY = "res_tab"
PAGE_KEY = "res_page"
PROMPT_KEY = "res_prompt"
MODEL_KEY = "res_model"
HEATMAP_KEY = "heatmap-table"
HEATMAP_SEEN = "res_heatmap_seen"
REASONS_KEY = "res_reasons_open"


def _fmt(value: float | None, digits: int = 2) -> str:
    """`value` with `digits` decimals (JavaScript's `toFixed`), or "—" when there is none."""
    return format_score(value, digits)


def _verdicts(results: Results) -> list[ReviewRow]:
    """The reviewers' verdicts on these results' prompts (matched to answers by the report)."""
    return review_panel.prompt_reviews(results.prompt_ids)


_HELP: dict[FileKind, str] = {
    "html": "One file with every score, point and answer. It opens in any browser, "
    "offline, and makes no requests.",
    "json": "Weval's comparison format (opens in Weval and here); reviewers' verdicts "
    "are in its `blueprintStudio` block, which Weval ignores.",
    "csv": "One row per prompt × model × point, for spreadsheets.",
}
_ICON: dict[FileKind, str] = {
    "html": ":material/description:",
    "json": ":material/data_object:",
    "csv": ":material/table:",
}


def _file_maker(results: Results, kind: FileKind, link: str | None) -> Callable[[], str]:
    """The file of this kind, made when its button is clicked (not on every redraw)."""
    return lambda: run_file(results, kind, _verdicts(results), link=link)


def downloads(results: Results, name: str, link: str | None) -> None:
    """Download buttons: the self-contained HTML report, the comparison JSON and a CSV."""
    for col, kind in zip(st.columns(3), FILES, strict=True):
        with col:
            st.download_button(
                FILES[kind].label,
                on_click="ignore",  # a download needs no redraw of the page
                data=_file_maker(results, kind, link),
                file_name=file_name(name, kind),
                mime=FILES[kind].mime,
                icon=_ICON[kind],
                type="primary" if kind == "html" else "secondary",
                help=_HELP[kind],
            )


def leaderboard(results: Results) -> None:
    """The leaderboard: each model's average (as a bar), spread, range, counts and cost."""
    rows = results.leaderboard()
    st.subheader("Leaderboard")
    st.caption(
        "Each model's average score over the prompts (1 = every point met), best first. "
        "Spread is the standard deviation across prompts: a high spread means the model is "
        "good at some prompts and poor at others. A model with no score on some prompts is "
        "marked (“scored on 2 of 3 prompts”) and ranked after the others: its average covers "
        "fewer prompts. The 95% interval is where the average would likely fall with other "
        "prompts like these; “2=” means too close to call with the model above."
    )
    if not rows:
        st.info("No model has a result yet.")
        return
    missing = list(results.cost.unpriced) if results.cost else []
    with st.container(key="leaderboard"):  # studio.css draws its bars solid
        st.markdown(leaderboard_markdown(rows, usage_known=bool(results.usage)))
    if results.weval_scores:
        st.caption(WEVAL_SCORE_NOTE)
    if missing:
        st.caption(
            f"“{UNKNOWN}”: no price is known for "
            + safe_markdown(", ".join(results.names.get(m, m) for m in missing))
            + f"; {safe_markdown(PRICE_HOWTO)}."
        )
    st.caption(
        "Failed: no answer could be generated. Not scored: an answer, but no point could be "
        "scored (for example, only points in words and no judge). A model's cost is its "
        "answers plus the judging of them (answers from the cache cost nothing); time is "
        "per answer."
    )
    how_sure(results, rows)


NBSP = "\u00a0"

DETECT_KEY = "res_detect"
CHART_KEY = "res_errorbars"


def how_sure(results: Results, rows: list[LeaderRow]) -> None:
    """Error bars on the averages, each pair of models compared, and how many prompts to add."""
    shown = [r for r in rows if r.average is not None]
    if not shown:
        return
    with st.expander("How sure is this ranking?", expanded=len(shown) > 1):
        st.caption(
            "The prompts are a sample of the questions you care about, so each average is an "
            "estimate. Two models are compared on the prompts both answered (paired); at 95% "
            "each, without a correction for many pairs. See docs/uncertainty.md."
        )
        # a chart only when asked: the page draws without loading Plotly (see heatmap_table)
        if st.toggle("Show the averages with their error bars", key=CHART_KEY):
            st.plotly_chart(
                figures.leaderboard_figure(
                    [r.name for r in shown],
                    [r.average for r in shown],
                    [r.low for r in shown],
                    [r.high for r in shown],
                ),
                config={"displayModeBar": False},
                key="leaderboard-errorbars",
            )
        detect = float(
            st.number_input(
                "Difference you want to tell apart",
                min_value=0.01,
                max_value=1.0,
                value=0.05,
                step=0.01,
                key=DETECT_KEY,
                help="The prompts needed are planned for this gap in average score "
                "(80% power, 5% level).",
            )
        )
        pairs = results.pair_rows(detect)
        for pair in pairs:  # neighbours on the leaderboard in words; every pair in the table
            if pair.neighbours:
                st.text(pair.words)
        for line in results.clustered_lines():
            st.text(line)
        sentence = results.power_sentence(detect)
        if sentence:
            st.markdown(f"**{safe_markdown(sentence)}**")
        if pairs:
            st.markdown(pairs_markdown(pairs, detect))


def pairs_markdown(pairs: list[PairRow], detect: float) -> str:
    """Every pair of models as a Markdown table: gap, interval, verdict, power.

    Model names are escaped with `safe_markdown`; every other cell is a number formatted here.
    """
    head = (
        "| Higher | Lower | Gap | 95% interval | Larger than chance | Prompts "
        f"| Smallest gap this run detects | Prompts needed for {detect:.2f} |\n"
        "|:--|:--|--:|:--|:--|--:|--:|--:|\n"
    )
    lines = []
    for p in pairs:
        interval = "—" if p.low is None or p.high is None else f"{p.low:.2f} to {p.high:.2f}"
        lines.append(
            f"| {safe_markdown(p.a)} | {safe_markdown(p.b)} | {_fmt(p.difference)} "
            f"| {interval} | {'yes' if p.separable else 'no'} | {p.prompts} "
            f"| {_fmt(p.minimum_detectable)} | {p.needed if p.needed is not None else '—'} |"
        )
    return head + "\n".join(lines)


BAR_WIDTH = 16
"""How many spaces wide a leaderboard bar of 1.00 is."""


def _bar(value: float | None, width: int = BAR_WIDTH) -> str:
    """A bar for the average: a run of spaces on the accent colour's background.

    Spaces, not block characters: these drew as black text blocks (or missing-glyph boxes
    without a font that has them). No-break spaces keep their width in a table cell.
    """
    if value is None:
        return ""
    n = round(min(max(value, 0.0), 1.0) * width)
    return f":primary-background[{NBSP * n}]" if n else ""


def _interval(row: LeaderRow) -> str:
    """The average's 95% interval ("0.62 – 0.80"), or "—" when there is none."""
    if row.low is None or row.high is None:
        return "—"
    return f"{_fmt(row.low)} – {_fmt(row.high)}"


def leaderboard_markdown(rows: list[LeaderRow], *, usage_known: bool = True) -> str:
    """The leaderboard as a Markdown table (drawn at once, before any chart library loads).

    Model names are escaped with `safe_markdown` (which escapes `|` too, so a name cannot
    end its cell); every other cell is a number formatted here. Without `usage_known` (a
    comparison file records no tokens, cost or time) those cells show "—". A model's cost
    (`money_text`) is "cost unknown" when a price is missing, never "$0.0000". When a row's
    Weval score differs from its average (`LeaderRow.weval_differs`), a "Weval's score"
    column shows every model's.
    """
    weval = any(r.weval_differs for r in rows)
    head = (
        "| # | Model | Average | | "
        + ("Weval's score | " if weval else "")
        + "95% interval | Spread (±) | Scored | Failed | Not scored "
        "| Tokens in / out | Cost | Seconds per answer |\n"
        "|--:|:--|--:|:--|" + ("--:|" if weval else "") + ":--|--:|--:|--:|--:|--:|--:|--:|\n"
    )
    lines = []
    for i, r in enumerate(rows, 1):
        name = safe_markdown(r.name)  # escapes `|` as `\|`, a literal pipe in a table cell
        note = coverage_note(r.scored, r.prompts)
        name = f"{name} ⚠ *{note}*" if note else name
        time_s = None if r.mean_latency_ms is None else r.mean_latency_ms / 1000
        spent = (
            f"{r.input_tokens:,} / {r.output_tokens:,} | {safe_markdown(money_text(r.cost_usd))} "
            f"| {_fmt(time_s, 2)}"
            if usage_known
            else "— | — | —"
        )
        lines.append(
            f"| {r.rank or i} | {name} | **{_fmt(r.average)}** | {_bar(r.average)} "
            + (f"| {_fmt(r.weval_score)} " if weval else "")
            + f"| {_interval(r)} | {_fmt(r.stddev)} | {r.scored} | {r.failed} | {r.unscored} "
            f"| {spent} |"
        )
    return head + "\n".join(lines)


def init_view(results: Results, page: int, prompt: str | None, model: str | None) -> None:
    """Set the page's widgets from a link (once per source): page, prompt, model, tab."""
    pages = page_count(len(results.prompt_ids))
    st.session_state[PAGE_KEY] = min(max(page, 1), pages)
    if prompt in results.prompt_ids:
        st.session_state[PAGE_KEY] = results.prompt_ids.index(str(prompt)) // PAGE_SIZE + 1
        st.session_state[PROMPT_KEY] = prompt
    else:
        st.session_state.pop(PROMPT_KEY, None)
    if model in results.models:
        st.session_state[MODEL_KEY] = model
        st.session_state[TAB_KEY] = TABS[1]  # a link naming a model opens its explanation
    else:
        st.session_state.pop(MODEL_KEY, None)


def prompts_overview(results: Results) -> list[str]:
    """The page selector and the heatmap of one page of prompts; returns that page's ids."""
    total = len(results.prompt_ids)
    pages = page_count(total)
    st.subheader("Prompts × models")
    if total == 0:
        st.info("This blueprint has no prompts.")
        return []
    if st.session_state.get(PAGE_KEY) not in range(1, pages + 1):
        st.session_state[PAGE_KEY] = 1
    cols = st.columns([3, 1], vertical_alignment="bottom")
    page: int | None = 1
    if pages > 1:  # one page: no selector (a disabled one is unreadable, and useless)
        with cols[1]:
            page = st.selectbox(
                "Page",
                list(range(1, pages + 1)),
                key=PAGE_KEY,
                format_func=lambda n: f"{n} of {pages}",
            )
    page_ids = results.page(int(page or 1))
    first = (int(page or 1) - 1) * PAGE_SIZE + 1
    with cols[0]:
        st.caption(
            f"Prompts {first}–{first + len(page_ids) - 1} of {total}. Each cell is one model's "
            "score on one prompt (1 = every point met); “failed” means no answer was generated. "
            "Select a cell to look closer at that prompt and model."
        )
    table = figures.heatmap_table(
        page_ids,
        [results.names[m] for m in results.models],
        results.matrix(page_ids),
        results.status_matrix(page_ids),
    )
    event = st.dataframe(
        table,
        key=HEATMAP_KEY,
        height=min(40 + 35 * len(page_ids), 760),
        on_select="rerun",
        selection_mode="single-cell",
    )
    cell = cell_pick.new_cell(event, HEATMAP_SEEN, len(page_ids), list(table.columns))
    if cell is not None:  # a cell opens that prompt × model below, with its explanation
        st.session_state[PROMPT_KEY] = page_ids[cell[0]]
        st.session_state[MODEL_KEY] = results.models[cell[1]]
        st.session_state[TAB_KEY] = TABS[1]
    return page_ids


def _explain(results: Results, pid: str, model: str, run_id: str | None) -> None:
    score_cell = results.cell(pid, model)
    if score_cell is None:
        st.info(
            "Not answered: this model gave no answer to this prompt, so it has no score here "
            "and it is not counted as a failure."
            if results.complete
            else "This model has no result for this prompt yet."
        )
        return
    if score_cell.failed:
        st.error(safe_markdown(score_cell.error or ""))
        return
    expl = results.explanation(pid, model)
    if expl is None:
        return
    st.metric("Score", _fmt(expl.score), help="The number the leaderboard uses for this cell.")
    st.plotly_chart(
        figures.explanation_figure(expl, results.point_numbers(pid, model)),
        config={"displayModeBar": False},
        key=f"explain-chart-{pid}-{model}",
    )
    st.markdown("**How the score is computed**")
    for step in figures.explanation_steps(expl):
        st.text(step)
    st.markdown("**Each point, with the judges' reasons**")
    st.dataframe(results.reflections(pid, model), hide_index=True, width="stretch")
    if run_id is not None:
        with st.expander("Raw judge answers"):
            raw = services.judgments(run_id, pid, model)
            if not raw:
                st.caption("No judge was called for this answer.")
            else:
                st.dataframe(
                    [
                        {
                            "Point #": r.point_index + 1,
                            "Judge": r.judge_id,
                            "Class": r.class_name,
                            "Score": r.score,
                            "Reflection": r.reflection,
                            "Error": r.error,
                            "Raw answer": r.raw_text,
                        }
                        for r in raw
                    ],
                    hide_index=True,
                    width="stretch",
                )


def _responses(results: Results, pid: str) -> None:
    ideal = results.ideal(pid)
    models = sidebyside.pick_models(results.models, results.names)
    per_row = 3
    for start in range(0, len(models), per_row):
        cols = st.columns(per_row)
        for col, model in zip(cols, models[start : start + per_row], strict=False):
            with col, st.container(border=True):
                c = results.cell(pid, model)
                st.markdown(f"**{safe_markdown(results.names[model])}**")
                st.caption(f"score {_fmt(c.score if c else None)}")
                error = results.error(pid, model)
                response = results.response(pid, model)
                if error and (c is None or not c.assessments):
                    st.error(safe_markdown(error))
                elif response is None:
                    st.caption("No answer recorded.")
                else:
                    st.code(response, language=None, wrap_lines=True)
                history = results.history(pid, model)
                if len([m for m in history if m.get("role") == "assistant"]) > 1:
                    with st.expander("Whole conversation"):
                        conversation(history)
    if ideal:
        with st.container(border=True):
            st.markdown("**Ideal answer (from the blueprint)**")
            st.code(ideal, language=None, wrap_lines=True)


def _costs(results: Results, pid: str) -> None:
    missing = set(unpriced(results.models))
    rows = []
    for model in results.models:
        u = results.cell_usage(pid, model)
        rows.append(
            {
                "Model": results.names[model],
                "Time (s)": None if u is None or u.latency_ms is None else u.latency_ms / 1000,
                "Tokens in": None if u is None else u.input_tokens,
                "Tokens out": None if u is None else u.output_tokens,
                "Answer cost": None
                if u is None or u.cost_usd is None
                else money_text(None if model in missing else u.cost_usd),
            }
        )
    if all(r["Time (s)"] is None and r["Tokens in"] is None for r in rows):
        st.caption("Time, tokens and cost are only known for runs made in the studio.")
    st.dataframe(
        rows,
        hide_index=True,
        width="stretch",
        column_config={
            "Time (s)": st.column_config.NumberColumn(format="%.2f"),
            "Answer cost": st.column_config.TextColumn(
                "Answer cost",
                help="Generating this answer (its judging is in the leaderboard's cost). "
                f"“{UNKNOWN}”: the model has no price; {PRICE_HOWTO}.",
            ),
        },
    )


def _points_tab(results: Results, pid: str, run_id: str | None, reviewer: bool) -> None:
    if not results.points(pid):
        st.info("No model has a scored answer for this prompt yet.")
        return
    st.caption(
        "Each row is one point of the rubric; each column one model's score on it "
        "(“needs a judge”: a point in words scored without judges)."
    )
    review_panel.reviewed_grid(results, pid, run_id, reviewer=reviewer)
    # a data grid (its rows built and sent) only once the expander is opened, as the
    # explanation chart: a new tab draws the page without it
    with st.expander(
        "The judges' reasons for every model", key=REASONS_KEY, on_change="rerun"
    ) as box:
        if box.open is not False:
            st.dataframe(
                [
                    {"Model": results.names[m], **row}
                    for m in results.models
                    for row in results.reflections(pid, m)
                ],
                hide_index=True,
                width="stretch",
            )


def _why_tab(results: Results, pid: str, run_id: str | None) -> str:
    if not results.models:
        st.info("No model has a result yet.")
        return ""
    if st.session_state.get(MODEL_KEY) not in results.models:
        st.session_state[MODEL_KEY] = results.models[0]
    model = str(
        st.selectbox("Model", results.models, key=MODEL_KEY, format_func=lambda m: results.names[m])
    )
    _explain(results, pid, model, run_id)
    return model


def prompt_detail(
    results: Results,
    page_ids: list[str],
    run_id: str | None,
    add_points: AddPoints | None = None,
    *,
    reviewer: bool = False,
) -> tuple[str, str]:
    """One prompt in detail: points × models, explain-my-score, responses, cost.

    Only the open tab is computed and sent to the browser.
    """
    st.subheader("Look closer at one prompt")
    if st.session_state.get(PROMPT_KEY) not in page_ids:
        st.session_state[PROMPT_KEY] = page_ids[0]
    pid = str(
        st.selectbox(
            "Prompt",
            page_ids,
            key=PROMPT_KEY,
            format_func=lambda p: f"{p} — {one_line(results.prompt_preview(p), 70)}",
        )
    )
    with st.expander("The prompt", expanded=True):
        conversation(results.prompt_messages(pid))
    key_points_panel(results, pid, add_points)
    if st.session_state.get(TAB_KEY) not in TABS:
        st.session_state[TAB_KEY] = TABS[0]
    tabs = st.tabs(TABS, key=TAB_KEY, on_change="rerun")
    model = str(st.session_state.get(MODEL_KEY) or "")
    with tabs[0]:
        if tabs[0].open:
            _points_tab(results, pid, run_id, reviewer)
    with tabs[1]:
        if tabs[1].open:
            model = _why_tab(results, pid, run_id)
    with tabs[2]:
        if tabs[2].open:
            _responses(results, pid)
    with tabs[3]:
        if tabs[3].open:
            _costs(results, pid)
    return pid, model


def render_results(
    results: Results,
    *,
    run_id: str | None,
    name: str,
    link: str | None,
    add_points: AddPoints | None = None,
    reviewer: bool = False,
) -> tuple[int, str | None, str | None]:
    """Everything about one set of results; returns the (page, prompt, model) on screen.

    `add_points` (when the viewer may edit) adds points found in an ideal to the blueprint.
    `reviewer`: this viewer may give verdicts on judged points (`review_panel.can_review`).
    A run's executive summary, when it has one, comes first.
    """
    executive_summary(results.comparison.extra.get("executiveSummary"))
    if results.description:
        with st.expander("About this blueprint"):
            st.text(results.description)
    downloads(results, name, link)
    leaderboard(results)
    calibration_view.calibration_section(results)
    variants_view(results)
    page_ids = prompts_overview(results)
    if not page_ids:
        return 1, None, None
    pid, model = prompt_detail(results, page_ids, run_id, add_points, reviewer=reviewer)
    similarity_section(results, page_ids)
    return int(st.session_state.get(PAGE_KEY) or 1), pid, model or None
