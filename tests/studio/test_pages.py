"""Every page through Streamlit's AppTest: editor, run, results, history."""

from __future__ import annotations

import json

import pytest

from engine.store import open_store
from studio import state
from studio.navigation import PAGES
from studio.views.results.results_view import NBSP
from tests.studio.helpers import app, buttons, example, make_run, texts, wait_for_status


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path for p in PAGES])
def test_every_page_renders_its_empty_state(spec):
    at = app()
    at.switch_page(spec.path).run()
    assert not at.exception
    assert texts(at, "title") == [spec.title]
    says = " ".join(texts(at, "info"))
    expected = {
        "editor": "Pick an example to start",
        "run": "Open a blueprint in the Editor first",
        "results": "No results to show yet",
        "history": "No runs yet",
        "compare": "Comparing needs two runs",
        "preferences": "No finished run yet",
        "settings": "API keys are read from the environment first",
    }[spec.url_path]
    assert expected in says


# --- editor -----------------------------------------------------------------------------


def test_picking_an_example_opens_it_and_saves_a_draft():
    at = app().run()
    assert buttons(at, "Start from this example")
    buttons(at, "Start from this example")[2].click().run()
    assert not at.exception
    assert at.session_state[state.TEXT] == example("or-paths.yml")
    draft = at.session_state[state.DRAFT_ID]
    assert at.query_params["draft"] == [draft] or at.query_params["draft"] == draft
    assert open_store().draft(draft) == example("or-paths.yml")
    assert "Opened the example “Two good ways to answer”." in texts(at, "success")


def test_diagnostics_are_listed_at_their_line_and_a_fix_applies():
    at = app()
    at.session_state[state.TEXT] = example("or-paths.yml").replace("title:", "titel:")
    at.run()
    assert not at.exception
    listed = texts(at, "markdown")
    assert any("line 2, column 1" in m for m in listed)
    assert any("Did you mean `title`" in m for m in listed)
    fix = buttons(at, "Apply fix")
    assert [b.label for b in fix] == ["Apply fix: Rename to `title`"]
    fix[0].click().run()
    assert at.session_state[state.TEXT] == example("or-paths.yml")
    assert not buttons(at, "Apply fix")
    assert any("Applied: Rename to `title` (line 2)." in s for s in texts(at, "success"))


def test_a_yaml_error_is_shown_in_plain_words():
    at = app()
    at.session_state[state.TEXT] = "title: x\n  bad: [1, 2\n"
    at.run()
    assert not at.exception
    assert any("error" in e.lower() for e in texts(at, "error"))
    assert any("cannot be read yet" in i for i in texts(at, "info"))


def test_try_a_response_scores_function_points_without_any_call(fake_llm):
    at = app()
    at.session_state[state.TEXT] = example("or-paths.yml")
    at.run()
    at.text_area(key="try_answer").set_value("It is on January 1.").run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["Point"]) == [
        'Function: icontains("january 1")',
        "Is polite and to the point.",
        "Names the Gregorian calendar.",
        "Says that other calendars have other new years.",
        "Asks which calendar the user means.",
    ]
    assert table["Score"][0] == "1.00"
    assert list(table["Score"][1:]) == ["needs a judge"] * 4
    assert [m.value for m in at.metric] == ["1.00"]
    assert fake_llm.stats()["calls"] == 0


def test_use_the_ideal_answer():
    at = app()
    at.session_state[state.TEXT] = example("functions.yml")
    at.run()
    buttons(at, "Use the ideal answer")[0].click().run()
    assert at.text_area(key="try_answer").value == "The capital of France is Paris."
    assert [m.value for m in at.metric] == ["1.00"]


def test_a_refresh_restores_the_draft_from_the_link():
    open_store().save_draft("d7Kq9_restore", example("functions.yml"), "Capital cities")
    at = app()
    at.query_params["draft"] = "d7Kq9_restore"
    at.run()
    assert not at.exception
    assert at.session_state[state.TEXT] == example("functions.yml")
    assert "Capital cities, checked by functions" in " ".join(texts(at, "markdown"))


def test_save_under_a_name_and_open_it_again():
    at = app()
    at.session_state[state.TEXT] = example("multi-turn.yml")
    at.run()
    at.text_input(key="save_name").set_value("Kind tutor").run()
    buttons(at, "Save")[-1].click().run()
    assert any(d.id == "saved:Kind tutor" for d in open_store().list_drafts())
    other = app().run()
    assert "Your saved blueprints" in texts(other, "subheader")
    open_buttons = [b for b in other.button if b.label == "Open"]
    open_buttons[0].click().run()
    assert other.session_state[state.TEXT] == example("multi-turn.yml")


# --- run --------------------------------------------------------------------------------


def test_run_the_ideal_model_from_the_run_page():
    at = app()
    at.session_state[state.TEXT] = example("functions.yml")
    at.session_state[state.SOURCE] = "functions.yml"
    at.switch_page("views/run/run.py").run()
    assert not at.exception
    at.multiselect[0].set_value(["ideal"]).run()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Answers to score"] == "2"
    assert metrics["Model calls"] == "0"
    start = buttons(at, "Start run")[0]
    assert not start.disabled
    start.click().run()
    run_id = at.session_state[state.RUN_ID]
    run = wait_for_status(open_store(), run_id, ("completed",))
    assert run.done_cells == 2
    at.run()
    assert not at.exception
    assert any("completed" in m for m in texts(at, "markdown"))
    assert at.query_params["run"] in (run_id, [run_id])


def test_a_missing_key_names_the_variable_and_blocks_the_start():
    at = app()
    at.session_state[state.TEXT] = example("functions.yml")
    at.switch_page("views/run/run.py").run()
    problems = " ".join(texts(at, "markdown"))
    assert "OPENAI_API_KEY" in problems and "ANTHROPIC_API_KEY" in problems
    assert buttons(at, "Start run")[0].disabled
    assert any(".streamlit/secrets.toml" in i for i in texts(at, "info"))


def test_keys_never_reach_session_state_the_store_or_links(scripted_llm, monkeypatch, tmp_path):
    secret = "sk-test-SECRET-4242"
    for name, value in scripted_llm.env(key=secret).items():
        monkeypatch.setenv(name, value)
    at = app()
    at.session_state[state.TEXT] = example("functions.yml")
    at.switch_page("views/run/run.py").run()
    buttons(at, "Start run")[0].click().run()
    run_id = at.session_state[state.RUN_ID]
    store = open_store()
    wait_for_status(store, run_id, ("completed",))
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert secret not in repr(at.session_state.to_dict())
    assert secret not in repr(at.query_params)
    assert all(secret not in m for m in texts(at, "markdown"))
    for path in store.path.parent.glob("studio.db*"):
        assert secret.encode() not in path.read_bytes()


def test_stop_then_resume_a_run(llm_env, scripted_llm):
    # 200 cells; the engine admits 4 x 32 cells at once, 32 calls in flight: several seconds.
    scripted_llm.latency_ms = 250
    at = app()
    lines = ["title: slow", "---"]
    for i in range(100):
        lines += [f"- id: q{i}", f"  prompt: question {i}", "  should:", "    - $contains: New"]
    at.session_state[state.TEXT] = "\n".join(lines) + "\n"
    at.switch_page("views/run/run.py").run()
    at.multiselect[0].set_value(["openai:fake-a", "openai:fake-b"]).run()
    buttons(at, "Start run")[0].click().run()
    run_id = at.session_state[state.RUN_ID]
    store = open_store()
    wait_for_status(store, run_id, ("running",))
    at.run()
    buttons(at, "Stop")[0].click().run()
    stopped = wait_for_status(store, run_id, ("stopped",))
    assert stopped.done_cells < 200
    scripted_llm.latency_ms = 0
    # a refresh (a new session opening the run's link) shows it and can resume it
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/run/run.py").run()
    (bar,) = at.get("progress")
    assert bar.proto.text == f"{stopped.done_cells} of 200 answers scored"
    buttons(at, "Resume")[0].click().run()
    done = wait_for_status(store, run_id, ("completed",))
    assert done.done_cells == 200
    at.run()
    assert not at.exception


def test_unknown_run_links_say_so():
    at = app()
    at.query_params["run"] = "A" * 22
    at.switch_page("views/run/run.py").run()
    assert any("There is no run with this id" in e for e in texts(at, "error"))


# --- results ----------------------------------------------------------------------------


def test_results_of_a_shared_link(or_paths_run):
    _store, run_id = or_paths_run
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert texts(at, "subheader")[:4] == [
        "Two good ways to answer",
        "Leaderboard",
        "Prompts × models",
        "Look closer at one prompt",
    ]
    assert (
        len(at.get("plotly_chart")) == 0
    )  # the heatmap is a table; the open tab is the point grid
    heat = at.dataframe[0].value
    assert list(heat.columns) == ["openai:fake-a", "openai:fake-b"]
    board = next(m for m in texts(at, "markdown") if m.startswith("| # | Model | Average"))
    # one prompt, the same score: too close to call, so the two share the first rank
    assert f"| 1= | openai:fake-a | **1.00** | :primary-background[{NBSP * 16}] | — |" in board
    assert "| 1= | openai:fake-b | **1.00** |" in board
    grid = at.dataframe[1].value
    # Points × models in the blueprint's order (issue 31)
    assert list(grid["Group"]) == ["Required", "Path 1", "Path 1", "Path 2", "Path 2"]
    assert list(grid["#"]) == [1, 2, 3, 4, 5]
    at.session_state["res_tab"] = "Why this score"
    at.run()
    assert len(at.get("plotly_chart")) == 1  # the explanation
    steps = [t for t in texts(at, "text") if t.startswith("Final score")]
    assert steps == ["Final score: (1.00 + 1.00) / 2 = 1.00"]
    assert any(str(c.value).endswith(f"/results?run={run_id}") for c in at.code)
    # the model picker writes the view back to the link
    at.selectbox(key="res_model").set_value("openai:fake-b[temp:0]").run()
    assert at.query_params["model"] in ("openai:fake-b[temp:0]", ["openai:fake-b[temp:0]"])


def test_results_open_at_the_prompt_and_model_of_a_link(or_paths_run):
    _store, run_id = or_paths_run
    at = app()
    at.query_params["run"] = run_id
    at.query_params["prompt"] = "new-year"
    at.query_params["model"] = "openai:fake-b[temp:0]"
    at.switch_page("views/results/results.py").run()
    assert at.session_state["res_tab"] == "Why this score"
    assert at.selectbox(key="res_model").value == "openai:fake-b[temp:0]"


def test_bad_and_unknown_run_links(or_paths_run):
    at = app()
    at.query_params["run"] = "../etc"
    at.switch_page("views/results/results.py").run()
    assert any("does not name a run" in e for e in texts(at, "error"))
    at = app()
    at.query_params["run"] = "B" * 22
    at.switch_page("views/results/results.py").run()
    assert any("There is no run with this id" in e for e in texts(at, "error"))


def test_many_prompts_are_paged(fake_llm):
    lines = ["title: many", "---"]
    for i in range(45):
        lines += [
            f"- id: p{i:02d}",
            f"  prompt: q{i}",
            "  ideal: yes",
            "  should:",
            "    - $contains: yes",
        ]
    store = open_store()
    run_id = make_run(store, "\n".join(lines) + "\n", ["ideal"])
    at = app()
    at.query_params["run"] = run_id
    at.query_params["page"] = "3"
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert any("Prompts 41–45 of 45" in c for c in texts(at, "caption"))
    assert at.selectbox(key="res_prompt").options == [f"p{i} — q{i}" for i in range(40, 45)]


def test_an_uploaded_comparison_is_shown_and_a_foreign_file_explained():
    from engine.errors import InputError
    from studio import services
    from studio.core.resultdata import Results

    with pytest.raises(InputError, match="not JSON") as caught:
        services.read_uploaded(b"\x00not json", "x.json")
    assert "Expecting value" not in str(caught.value)  # Python's wording never reaches a user
    assert str(caught.value).startswith("x.json:1:1: ")
    huge = b'{"evaluationResults": {"llmCoverageScores": {}}, "n": 1' + b"0" * 5000 + b"}"
    assert services.read_uploaded(huge, "huge.json").comparison.cells == {}
    with pytest.raises(InputError, match=r"package\.json: this is not a comparison JSON file"):
        services.read_uploaded(b'{"name": "left-pad"}', "package.json")
    odd_point = {"keyPointText": "k", "coverageExtent": 1, "findings": [{"bogus": 1}]}
    odd = {
        "evaluationResults": {"llmCoverageScores": {"p": {"m": {"pointAssessments": [odd_point]}}}}
    }
    with pytest.raises(InputError, match=r"odd\.json: .*wrong shape"):
        services.read_uploaded(json.dumps(odd).encode(), "odd.json")
    weval = {
        "configId": "w",
        "configTitle": "From Weval",
        "evaluationResults": {
            "llmCoverageScores": {
                "p1": {
                    "m1": {
                        "avgCoverageExtent": 0.5,
                        "pointAssessments": [{"keyPointText": "Is kind", "coverageExtent": 0.5}],
                    }
                }
            }
        },
    }
    results = services.read_uploaded(json.dumps(weval).encode(), "w.json")
    assert isinstance(results, Results)
    at = app()
    at.session_state[state.UPLOADED] = ("w.json", results)
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert "From Weval" in texts(at, "subheader")
    assert any("| 1 | m1 | **0.50** |" in m for m in texts(at, "markdown"))


# --- history ----------------------------------------------------------------------------


def test_history_lists_runs_with_scores_and_links(or_paths_run):
    _store, run_id = or_paths_run
    at = app()
    at.switch_page("views/history/history.py").run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["Blueprint"]) == ["Two good ways to answer"]
    assert "completed" in table["Status"][0]
    assert table["Scores"][0] == "openai:fake-a 1.00 · openai:fake-b 1.00"
    assert table["Results"][0].endswith(f"/results?run={run_id}")
