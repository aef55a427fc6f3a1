"""Human review on the Results page: verdicts on judged points, marks, calibration, editor marks."""

from __future__ import annotations

from engine.store import open_store
from studio.access import Viewer
from studio.widgets.review_panel import (
    COMMENT_KEY,
    OWN_SCORE,
    PICK_KEY,
    SCORE_KEY,
    VERDICT_KEY,
    can_review,
)
from tests.studio.conftest import run_or_paths
from tests.studio.helpers import app, texts

POLITE = "Is polite and to the point."


def results_page(run_id: str):
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    return at


def grid(at):
    """The point × model grid of the prompt on screen (rows by point text)."""
    frame = next(d.value for d in at.dataframe if "Point" in d.value and "Weight" in d.value)
    return {row["Point"]: row for row in frame.to_dict("records")}


def pick(at, *wanted: str) -> list[int]:
    """The options of the review form whose label holds one of `wanted` (as given)."""
    box = at.multiselect(key=PICK_KEY)
    labels = list(box.options)  # as shown
    return [i for i, label in enumerate(labels) if any(w in label for w in wanted)]


def save(at, picked: list[int], *, own: float | None, comment: str = "") -> None:
    at.multiselect(key=PICK_KEY).set_value(picked).run()  # picking redraws, as in a browser
    if own is None:
        at.radio(key=VERDICT_KEY).set_value("Agree with the judge")
    else:
        at.radio(key=VERDICT_KEY).set_value(OWN_SCORE)
        at.select_slider(key=SCORE_KEY).set_value(own)
    at.text_area(key=COMMENT_KEY).set_value(comment)
    next(b for b in at.button if b.label == "Save verdict").click().run()
    assert not at.exception


def test_only_owners_editors_and_admins_may_review():
    assert can_review(Viewer(team=False, logged_in=True))
    assert can_review(Viewer(team=True, logged_in=True, email="e@x.org", role="editor"))
    assert can_review(Viewer(team=True, logged_in=True, email="a@x.org", role="admin"))
    assert not can_review(Viewer(team=True, logged_in=True, email="v@x.org", role="viewer"))
    assert not can_review(Viewer(team=True, logged_in=False))


def test_a_reviewer_scores_several_points_at_once_and_the_grid_marks_them(or_paths_run):
    store, run_id = or_paths_run
    at = results_page(run_id)
    before = grid(at)
    assert not any("reviewed" in str(v) for row in before.values() for v in row.values())
    picked = pick(at, POLITE)
    assert len(picked) == 2  # the same point, answered by each of the two models
    save(at, picked, own=0.25, comment="<b>Too generous</b>: it rambles.")
    after = grid(at)
    marked = [v for k, v in after[POLITE].items() if "reviewed" in str(v)]
    assert marked == ["1.00 → 0.25 reviewed"] * 2
    assert any("Saved your verdict (score 0.25) on 2 point(s)." in s for s in texts(at, "success"))
    table = next(d.value for d in at.dataframe if "Reviewer" in d.value)
    assert set(table["Reviewer"]) == {"me"} and set(table["Verdict"]) == {"0.25"}
    verdicts = open_store().reviews(_prompts(store, run_id))  # the store opened again
    assert {(r.author, r.verdict, r.score, r.comment) for r in verdicts} == {
        ("me", "score", 0.25, "<b>Too generous</b>: it rambles.")
    }
    assert len(verdicts) == 2


def _prompts(store, run_id):
    return sorted({c.prompt_id for c in store.cells(run_id)})


def test_verdicts_survive_a_restart_and_show_in_calibration(or_paths_run):
    _store, run_id = or_paths_run
    at = results_page(run_id)
    save(at, pick(at, POLITE), own=0.25)
    again = results_page(run_id)  # a new session; the store is opened again
    assert [v for v in grid(again)[POLITE].values() if "reviewed" in str(v)] == [
        "1.00 → 0.25 reviewed"
    ] * 2
    labels = [e.label for e in again.expander]
    assert any("1 point(s) to rewrite first" in label for label in labels)
    metrics = {m.label: m.value for m in again.metric}
    assert metrics["Judge high, human low"] == "2"
    assert metrics["Judge low, human high"] == "0"
    rewrite = next(d.value for d in again.dataframe if "Why rewrite" in d.value).to_dict("records")
    assert [(r["Point"], r["Why rewrite"]) for r in rewrite] == [(POLITE, "reviewers disagree")]


def test_agreeing_marks_the_cell_and_withdrawing_removes_the_mark(or_paths_run):
    store, run_id = or_paths_run
    at = results_page(run_id)
    first = pick(at, POLITE)[:1]
    save(at, first, own=None)
    assert [v for v in grid(at)[POLITE].values() if "reviewed" in str(v)] == ["1.00 ✓ reviewed"]
    at.multiselect(key=PICK_KEY).set_value(first)
    next(b for b in at.button if b.label == "Withdraw mine").click().run()
    assert not any("reviewed" in str(v) for v in grid(at)[POLITE].values())
    assert store.reviews(_prompts(store, run_id)) == []


def test_saving_with_nothing_picked_says_what_to_do(or_paths_run):
    _store, run_id = or_paths_run
    at = results_page(run_id)
    save(at, [], own=0.5)
    assert any("Pick at least one judged point" in w for w in texts(at, "warning"))


def test_a_share_link_visitor_sees_marks_but_no_form_nor_who_reviewed(or_paths_run, monkeypatch):
    store, run_id = or_paths_run
    at = results_page(run_id)
    save(at, pick(at, POLITE), own=0.25)
    token = store.create_share_link(run_id, "anyone").token
    monkeypatch.setenv("BLUEPRINT_MODE", "team")  # a visitor who is not logged in
    monkeypatch.setenv("BLUEPRINT_STUDIO_URL", "http://studio.example.org")
    visitor = app().run()
    visitor.query_params["token"] = token
    visitor.switch_page("views/share/share.py").run()
    assert not visitor.exception
    assert not [m for m in visitor.multiselect if m.key == PICK_KEY]
    assert "Save verdict" not in [b.label for b in visitor.button]
    assert [v for v in grid(visitor)[POLITE].values() if "reviewed" in str(v)] == [
        "1.00 → 0.25 reviewed"
    ] * 2
    table = next(d.value for d in visitor.dataframe if "Reviewer" in d.value)
    assert set(table["Reviewer"]) == {"a reviewer"}


def test_the_editor_marks_the_point_the_reviewers_disagreed_on(or_paths_run):
    _store, run_id = or_paths_run
    at = results_page(run_id)
    save(at, pick(at, POLITE), own=0.0)
    next(b for b in at.button if b.label == "Open this version in the editor").click().run()
    assert not at.exception
    problems = " ".join(texts(at, "markdown"))
    assert "Reviewers differed from the judges by up to 1.00 in the run of" in problems
    assert run_id[:8] in problems and "more specific" in problems


def test_a_new_run_of_the_same_answers_shows_the_verdicts(or_paths_run, llm_env):
    store, run_id = or_paths_run
    at = results_page(run_id)
    save(at, pick(at, POLITE), own=0.25)
    again = run_or_paths(store, llm_env)  # the fake models answer the same again
    assert again != run_id
    later = results_page(again)
    assert [v for v in grid(later)[POLITE].values() if "reviewed" in str(v)] == [
        "1.00 → 0.25 reviewed"
    ] * 2


def test_the_score_starts_at_the_judges_score_of_the_picked_points(or_paths_run):
    _store, run_id = or_paths_run
    at = results_page(run_id)
    assert at.select_slider(key=SCORE_KEY).value == 0.5  # nothing picked: the scale's middle
    polite = pick(at, POLITE)[:1]  # the judges gave 1.00
    at.multiselect(key=PICK_KEY).set_value(polite).run()
    assert at.select_slider(key=SCORE_KEY).value == 1.0
    unmet = pick(at, "fake-b · judges 0.00")[:1]
    at.multiselect(key=PICK_KEY).set_value(unmet).run()
    assert at.select_slider(key=SCORE_KEY).value == 0.0
    at.multiselect(key=PICK_KEY).set_value([*polite, *unmet]).run()
    assert at.select_slider(key=SCORE_KEY).value == 0.5  # their mean, on the judges' scale


def test_the_legend_shows_a_reviewed_score_as_the_cell_does(or_paths_run):
    _store, run_id = or_paths_run
    at = results_page(run_id)
    save(at, pick(at, POLITE)[:1], own=None)
    picked = pick(at, POLITE)[1:]
    save(at, picked, own=0.25)
    cells = sorted(v for v in grid(at)[POLITE].values() if "reviewed" in str(v))
    assert cells == ["1.00 → 0.25 reviewed", "1.00 ✓ reviewed"]
    [legend] = [c for c in texts(at, "caption") if "reviewed”" in c]
    # the legend's examples are written as the cells are: the judges' score, then the mark
    assert "“0.50 ✓ reviewed”" in legend and "“0.50 → 0.25 reviewed”" in legend
