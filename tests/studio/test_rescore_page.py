"""Results page: "Re-score with the current draft" shows the plan, starts a re-score, links both ways."""

from __future__ import annotations

from engine.store import open_store
from studio import state
from studio.views.results.rescore_panel import STARTED_KEY
from tests.studio.helpers import app, buttons, example, plain, texts, wait_for_status

OLD_POINT = "Is polite and to the point."
NEW_POINT = "Is courteous and brief."


def results_of(run_id: str, draft: str | None):
    at = app()
    if draft is not None:
        at.session_state[state.TEXT] = draft
        at.session_state[state.SOURCE] = "or-paths.yml"
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    return at


def generation_requests(fake) -> list:
    return [c for c in fake.calls if c.model in ("fake-a", "fake-b")]


def test_plan_then_start_scores_the_stored_answers_with_the_draft(or_paths_run, scripted_llm):
    store, run_id = or_paths_run
    scripted_llm.calls.clear()
    draft = example("or-paths.yml").replace(OLD_POINT, NEW_POINT)
    at = results_of(run_id, draft)
    at.toggle(key="res_rescore_show").set_value(True).run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Answers to score"] == "2"
    assert metrics["Judge calls to make"] == "2"  # the edited point, for each of the two models
    assert "6 judgment(s) reused, 2 judge call(s) to make, 0 answers generated." in texts(
        at, "caption"
    )
    assert scripted_llm.calls == []  # planning calls nothing
    (start,) = buttons(at, "Start the re-score")
    start.click().run()
    assert not at.exception
    assert any("The re-score has started" in s for s in texts(at, "success"))
    source, new_id = at.session_state[STARTED_KEY]
    assert source == run_id and new_id != run_id
    assert wait_for_status(store, new_id, ("completed",)).options["rescored_from"] == run_id
    assert generation_requests(scripted_llm) == []
    judged = [c for c in scripted_llm.calls if c.model == "fake-judge"]
    assert len(judged) == 2 and all(NEW_POINT in c.last_user for c in judged)
    assert any(link.label == "See the re-score" for link in at.get("page_link"))
    # the new run's own page says where its answers came from
    new = results_of(new_id, None)
    assert any(c.startswith("A re-score") for c in texts(new, "caption"))
    # the link back names the run by its blueprint and time, not by its raw id
    source_run = store.get_run(run_id)
    when = source_run.created_at[:16].replace("T", " ")
    [back] = [link for link in new.get("page_link") if "Re-scored from" in plain(str(link.label))]
    assert plain(str(back.label)) == f"Re-scored from the run Two good ways to answer · {when} UTC"
    assert run_id not in plain(str(back.label))
    # History labels the re-score, and names the run it scored by the same words
    history = app()
    history.switch_page("views/history/history.py").run()
    assert not history.exception
    rows = history.dataframe[0].value
    kinds = dict(
        zip(rows["Results"].map(lambda u: u.rsplit("=", 1)[-1]), rows["Kind"], strict=True)
    )
    assert kinds[run_id] == "Run"
    assert kinds[new_id] == f"Re-score of Two good ways to answer · {when} UTC"
    points = {p.key_point_text for p in _points(open_store(), new_id)}
    assert NEW_POINT in points and OLD_POINT not in points


def _points(store, run_id):
    from engine.comparison.read import cell_from_weval

    for row in store.cells(run_id):
        yield from cell_from_weval(row.prompt_id, row.model_id, row.result_data).assessments


def test_no_draft_open_offers_no_rescore(or_paths_run):
    _, run_id = or_paths_run
    at = results_of(run_id, None)
    assert not [t for t in at.toggle if t.key == "res_rescore_show"]


def test_a_draft_that_cannot_be_read_says_so_and_offers_no_start(or_paths_run, scripted_llm):
    _, run_id = or_paths_run
    at = results_of(run_id, "title: x\n---\n- id: a\n  prompt: [unclosed\n")
    at.toggle(key="res_rescore_show").set_value(True).run()
    assert not at.exception
    assert at.error and not buttons(at, "Start the re-score")
