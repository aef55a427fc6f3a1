"""Human review in the point × model grid: marks on reviewed cells, and the verdict form.

Reviewers (personal mode's owner; team editors and admins) pick one or several judged points
of the prompt on screen, agree with the judge or give a score on the judge's scale, and may
add a comment. Viewers and share-link visitors see the marks only.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import streamlit as st

from engine.errors import StoreError
from engine.js.values import format_score
from engine.judge.scales import Scale
from engine.report.reviews import JudgedPoint, judged_points, match_reviews
from engine.review import RunCalibration, calibrate
from engine.store import MAX_COMMENT_CHARS, ReviewRow, Verdict
from studio import access, services, state
from studio.core.resultdata import Results
from studio.core.reviewing import (
    AGREE,
    LOCAL_AUTHOR,
    anonymous,
    choice_label,
    grid_with_marks,
    make_reviews,
    mark_legend,
    results_scale,
    starting_score,
)

__all__ = [
    "COMMENT_KEY",
    "OWN_SCORE",
    "PICK_KEY",
    "SCORE_KEY",
    "VERDICT_KEY",
    "author_of",
    "can_review",
    "prompt_reviews",
    "reviewed_grid",
    "run_calibration",
    "run_points",
]

PICK_KEY = "review_pick"
VERDICT_KEY = "review_verdict"
SCORE_KEY = "review_score"
COMMENT_KEY = "review_comment"
OWN_SCORE = "Give my own score"

_POINTS: weakref.WeakKeyDictionary[Results, list[JudgedPoint]] = weakref.WeakKeyDictionary()
_CALIBRATIONS: weakref.WeakKeyDictionary[Results, tuple[list[tuple[object, ...]], RunCalibration]]
_CALIBRATIONS = weakref.WeakKeyDictionary()


def can_review(viewer: access.Viewer) -> bool:
    """Whether this viewer may give verdicts: the owner in personal mode, editors and admins."""
    if not viewer.team:
        return True
    return viewer.logged_in and viewer.role in ("admin", "editor")


def author_of(viewer: access.Viewer) -> str:
    """Who a verdict is from: the member's e-mail in team mode, `me` in personal mode."""
    return viewer.email or LOCAL_AUTHOR


def run_points(results: Results) -> list[JudgedPoint]:
    """Every judged point of `results`, computed once per results object (answers hashed)."""
    found = _POINTS.get(results)
    if found is None:
        found = judged_points(results.comparison)
        _POINTS[results] = found
    return found


def run_calibration(results: Results, reviews: Sequence[ReviewRow]) -> RunCalibration:
    """The judges' calibration of `results` with `reviews`, computed again only when they change."""
    stamp: list[tuple[object, ...]] = [
        (r.key, r.author, r.verdict, r.score, r.created_at) for r in reviews
    ]
    known = _CALIBRATIONS.get(results)
    if known is not None and known[0] == stamp:
        return known[1]
    points = run_points(results)
    calibration = calibrate(points, match_reviews(points, reviews))
    _CALIBRATIONS[results] = (stamp, calibration)
    return calibration


def prompt_reviews(prompt_ids: list[str]) -> list[ReviewRow]:
    """The verdicts on answers to these prompts (none, with a warning, when unreadable).

    A visitor who is not logged in (a share link's) sees them without their authors' e-mails.
    """
    try:
        found = services.store().reviews(prompt_ids)
        return found if access.current_viewer().logged_in else anonymous(found)
    except StoreError as exc:
        st.warning(f"The reviewers' verdicts cannot be read: {exc}")
        return []


def reviewed_grid(results: Results, pid: str, run_id: str | None, *, reviewer: bool) -> None:
    """The point × model grid of one prompt with review marks, and the form for reviewers."""
    points = [p for p in run_points(results) if p.prompt_id == pid]
    matched = match_reviews(points, prompt_reviews([pid])) if points else {}
    st.dataframe(grid_with_marks(results, pid, points, matched), hide_index=True, width="stretch")
    if matched:
        st.caption(mark_legend())
    if reviewer and points:
        _form(results, pid, run_id, points)
    if matched:
        with st.expander("Reviewers' verdicts on this prompt"):
            st.dataframe(
                [
                    {
                        "#": p.number,
                        "Model": results.names.get(p.model, p.model),
                        "Point": p.criterion,
                        "Judges": format_score(p.judge_score),
                        "Reviewer": r.author,
                        "Verdict": "agrees" if r.verdict == "agree" else format_score(r.score),
                        "Comment": r.comment or "",
                        "When": r.created_at[:16].replace("T", " "),
                    }
                    for p in points
                    for r in matched.get((p.prompt_id, p.model, p.index), [])
                ],
                hide_index=True,
                width="stretch",
            )


RESET_KEY = "review_reset"


def _picked(points: list[JudgedPoint]) -> list[JudgedPoint]:
    chosen = st.session_state.get(PICK_KEY) or []
    return [points[i] for i in chosen if isinstance(i, int) and 0 <= i < len(points)]


def _follow_picks(points: list[JudgedPoint], scale: Scale) -> None:
    """The score starts at the judges' score of the points just picked."""
    st.session_state[SCORE_KEY] = starting_score(_picked(points), scale)


def _form(results: Results, pid: str, run_id: str | None, points: list[JudgedPoint]) -> None:
    scale = results_scale(results)
    labels = [choice_label(p, results.names) for p in points]
    if st.session_state.pop(RESET_KEY, False):  # a verdict was saved: start afresh
        for key in (PICK_KEY, VERDICT_KEY, SCORE_KEY, COMMENT_KEY):
            st.session_state.pop(key, None)
    scores = [c.score for c in scale.classes]
    if st.session_state.get(SCORE_KEY) not in scores:
        st.session_state[SCORE_KEY] = starting_score(_picked(points), scale)
    with st.container(border=True, key=f"review-{pid}"):
        st.markdown("**Review the judges**")
        # outside the form: picking a point redraws, so the score can start at the judges'
        picked = st.multiselect(
            "Judged points (one or several)",
            list(range(len(points))),
            format_func=lambda i: labels[i],
            key=PICK_KEY,
            placeholder="Pick the points whose judges' score you checked",
            on_change=_follow_picks,
            args=(points, scale),
        )
        with st.form(f"review-form-{pid}", border=False):
            verdict = st.radio("Your verdict", [AGREE, OWN_SCORE], horizontal=True, key=VERDICT_KEY)
            score = st.select_slider(
                f"Your score ({scale.name} scale of the judges)",
                scores,
                format_func=lambda s: format_score(float(s)),
                key=SCORE_KEY,
                help="Used when you give your own score; it starts at the judges' score of "
                "the points you picked. "
                + " ".join(f"{format_score(c.score)}: {c.description}" for c in scale.classes),
            )
            comment = st.text_area(
                "Comment (optional)", max_chars=MAX_COMMENT_CHARS, key=COMMENT_KEY
            )
            cols = st.columns([1, 1, 3])
            save = cols[0].form_submit_button("Save verdict", type="primary")
            withdraw = cols[1].form_submit_button("Withdraw mine")
    if not (save or withdraw):
        return
    chosen = [points[i] for i in picked if 0 <= i < len(points)]
    if not chosen:
        st.warning("Pick at least one judged point first.")
        return
    author = author_of(access.current_viewer())
    try:
        if withdraw:
            n = services.store().delete_reviews([p.key for p in chosen], author)
            state.set_notice("success", f"Withdrew {n} of your verdicts.")
        else:
            kind: Verdict = "agree" if verdict == AGREE else "score"
            rows = make_reviews(
                chosen,
                verdict=kind,
                score=float(score) if kind == "score" else None,
                comment=comment,
                author=author,
                run_id=run_id,
            )
            services.store().save_reviews(rows)
            said = "agree with the judges" if kind == "agree" else f"score {format_score(score)}"
            state.set_notice("success", f"Saved your verdict ({said}) on {len(rows)} point(s).")
    except StoreError as exc:
        st.error(f"Your verdict was not saved: {exc}")
        return
    st.session_state[RESET_KEY] = True
    st.rerun()
