"""The Results page's "What people preferred": win rates per pair of models and agreement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from engine.review.preferences import (
    AGREEMENT_RULE,
    Agreement,
    PairWinRate,
    agreement,
    cell_scores,
    preferences_csv,
    win_rates,
)
from engine.stats.proportion import Proportion
from studio import services
from studio.core.resultdata import Results
from studio.core.run_files import slug
from studio.core.textsafe import safe_markdown

__all__ = ["agreement_words", "percent", "preferences_section", "win_rates_markdown"]


def percent(p: Proportion) -> tuple[str, str, str]:
    """A rate and its 95% interval's ends as percentages ("67%", "21%", "94%"; "—": none)."""
    if p.rate is None or p.low is None or p.high is None:
        return "—", "—", "—"
    return f"{p.rate:.0%}", f"{p.low:.0%}", f"{p.high:.0%}"


def win_rates_markdown(rates: Sequence[PairWinRate], names: Mapping[str, str]) -> str:
    """The win rates as a Markdown table (model names escaped; every other cell a number)."""
    head = (
        "| Model A | Model B | Picks | A better | B better | About the same "
        "| A's win rate | 95% interval |\n"
        "|:--|:--|--:|--:|--:|--:|--:|:--|\n"
    )
    lines = []
    for r in rates:
        rate, low, high = percent(r.rate)
        interval = "—" if r.rate.rate is None else f"{low} to {high}"
        lines.append(
            f"| {safe_markdown(names.get(r.model_a, r.model_a))} "
            f"| {safe_markdown(names.get(r.model_b, r.model_b))} | {r.picks} | {r.a_better} "
            f"| {r.b_better} | {r.same} | {rate} | {interval} |"
        )
    return head + "\n".join(lines)


def agreement_words(found: Agreement) -> str:
    """How often the judges agree with people, as a sentence."""
    if found.counted == 0:
        return "No pick is on two scored answers, so the judges cannot be compared with people."
    rate, low, high = percent(found.rate)
    left = f" ({found.left_out} pick(s) on unscored answers left out)" if found.left_out else ""
    return (
        f"The judges' scores agree with {found.agreed} of {found.counted} picks: {rate}, "
        f"likely between {low} and {high}{left}."
    )


def preferences_section(results: Results, run_id: str, *, may_pick: bool) -> None:
    """People's picks between two answers of this run: win rates and the judges' agreement."""
    picks = services.store().preferences(run_id)
    st.subheader("What people preferred")
    if not picks:
        st.caption("Nobody has compared two answers of this run yet.")
    else:
        rates = win_rates(picks)
        st.caption(
            "Each pair of models over every prompt and reviewer: how often people picked A's "
            "answer. “About the same” counts as half a win for each. The 95% interval is "
            "Wilson's, for each pair on its own."
        )
        st.markdown(win_rates_markdown(rates, results.names))
        st.text(agreement_words(agreement(picks, cell_scores(results.comparison))))
        st.caption(AGREEMENT_RULE)
        st.download_button(
            "People's preferences (CSV)",
            on_click="ignore",
            data=lambda: preferences_csv(rates, results.names),
            file_name=f"{slug(results.title, 'results')}_preferences.csv",
            mime="text/csv",
            icon=":material/table:",
        )
    if may_pick:
        st.page_link(
            "views/preferences/preferences.py",
            label="Compare answers of this run",
            icon=":material/thumbs_up_down:",
            query_params={"run": run_id},
        )
