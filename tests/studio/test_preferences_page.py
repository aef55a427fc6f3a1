"""The Compare answers page through AppTest: skip, come back to a skipped pair, pick."""

from __future__ import annotations

from tests.studio.helpers import app, texts


def page(run_id: str):
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/preferences/preferences.py").run()
    assert not at.exception
    return at


def click(at, label: str) -> None:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception


def test_a_skipped_pair_comes_back_on_request_and_a_pick_is_saved(or_paths_run):
    store, run_id = or_paths_run  # one prompt, two models: one pair
    at = page(run_id)
    assert "You have compared 0 of the 1 pairs of this run." in texts(at, "caption")
    shown = [c.value for c in at.code]
    assert len(shown) == 2 and all(shown)
    keys = [b.key for b in at.button]
    assert len(keys) == 4 and not any("fake" in str(k) for k in keys)  # keys name no model
    click(at, "Skip")
    assert "Only pairs you skipped are left." in texts(at, "info")
    assert at.code.len == 0
    assert store.preferences(run_id) == []
    click(at, "Show the skipped pairs again")
    assert [c.value for c in at.code] == shown  # the same pair, in the same order
    click(at, "About the same")
    assert "You have compared every pair of this run. Thank you." in texts(at, "success")
    (row,) = store.preferences(run_id)
    assert (row.choice, row.reviewer, row.prompt_id) == ("same", "me", "new-year")
    assert (row.model_a, row.model_b) == ("openai:fake-a[temp:0]", "openai:fake-b[temp:0]")


def test_a_finished_run_is_needed():
    at = app()
    at.switch_page("views/preferences/preferences.py").run()
    assert not at.exception
    assert any("No finished run yet" in t for t in texts(at, "info"))
