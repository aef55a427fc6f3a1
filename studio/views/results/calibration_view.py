"""The results page's judge calibration: judges vs each other and vs reviewers, per criterion."""

from __future__ import annotations

import streamlit as st

from engine.review import GAP
from studio.core.resultdata import Results
from studio.core.reviewing import alpha_text, calibration_rows
from studio.widgets.review_panel import prompt_reviews, run_calibration, run_points

__all__ = ["calibration_section"]


def calibration_section(results: Results) -> None:
    """An expander: Krippendorff's alpha, judge-high/human-low counts, the points to rewrite."""
    points = run_points(results)
    if not points:
        return
    calibration = run_calibration(results, prompt_reviews(results.prompt_ids))
    marked = calibration.to_rewrite()
    title = "Can the judges be trusted? Agreement per point" + (
        f" · {len(marked)} point(s) to rewrite first" if marked else ""
    )
    with st.expander(title):
        cols = st.columns(4)
        cols[0].metric(
            "α between judges",
            alpha_text(calibration.judge_alpha),
            help="Krippendorff's alpha (interval) over every judged answer: 1 is full "
            "agreement, 0 no better than chance. — with a single judge.",
        )
        cols[1].metric(
            "α judges vs reviewers",
            alpha_text(calibration.human_alpha),
            help="The judges' score against the reviewers' verdicts, over the reviewed answers.",
        )
        cols[2].metric(
            "Judge high, human low",
            calibration.judge_high,
            help=f"Reviewed answers the judges scored {GAP} or more above a reviewer.",
        )
        cols[3].metric(
            "Judge low, human high",
            calibration.judge_low,
            help=f"Reviewed answers the judges scored {GAP} or more below a reviewer.",
        )
        st.caption(
            f"{calibration.reviewed} reviewed answer(s). Review judged points in the "
            "“Points × models” view of a prompt below."
        )
        st.markdown("**The points to rewrite first**")
        if marked:
            st.caption(
                "Points whose judges disagree with each other, or with the reviewers, on some "
                "answer. The editor marks them at their line."
            )
            st.dataframe(
                calibration_rows(calibration, only_rewrite=True), hide_index=True, width="stretch"
            )
        else:
            st.caption("None: the judges agree with each other and with the reviewers.")
        if st.toggle("Show every point", key="calibration_all"):
            st.dataframe(
                calibration_rows(calibration, only_rewrite=False), hide_index=True, width="stretch"
            )
