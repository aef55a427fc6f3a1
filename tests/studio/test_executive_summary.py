"""The executive summary comes first on the results page and in the HTML report, as text."""

from __future__ import annotations

from engine.comparison.read import read_comparison
from engine.report import render_html
from engine.run.summary import load_run_comparison, summarize_run
from tests.fakes.scripted import answer_as
from tests.studio.helpers import app, texts

HOSTILE = """<key_finding>Model A <script>alert(1)</script>won; see [here](http://evil.example) and
![x](http://evil.example/p.png) :red[alarm]</key_finding>
<weakness>Model B lost <b>badly</b> & "quietly".</weakness>
<grade model="Model A" dimension="clarity">REASONING: clear
SCORE: 7/10</grade>"""


def _summarized(or_paths_run, fake_llm, llm_env):
    store, run_id = or_paths_run
    fake_llm.reply_with(answer_as("summarizer", HOSTILE))
    summarize_run(store, run_id, "openai:summarizer", environ=llm_env)
    return store, run_id


def test_the_summary_is_shown_first_and_only_as_text(or_paths_run, fake_llm, llm_env):
    _store, run_id = _summarized(or_paths_run, fake_llm, llm_env)
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    # under the run's title, before everything else
    assert texts(at, "subheader")[:3] == [
        "Two good ways to answer",
        "Executive summary",
        "Leaderboard",
    ]
    assert any("Written by a model (openai:summarizer)" in c for c in texts(at, "caption"))
    shown = [str(m.value) for m in at.markdown]
    finding = next(m for m in shown if "won" in m)
    # every character that could make a link, an image, a tag or a directive is escaped
    assert "](http" not in finding and "<script" not in finding and ":red[" not in finding
    assert "openai:fake-a" in texts(at, "markdown")[shown.index(finding)]
    grades = at.dataframe[0].value
    assert list(grades["Model"]) == ["openai:fake-a"] and list(grades["Clarity"]) == [7.0]


def test_the_html_report_opens_with_the_escaped_summary(or_paths_run, fake_llm, llm_env):
    store, run_id = _summarized(or_paths_run, fake_llm, llm_env)
    comparison = load_run_comparison(store, run_id)
    comparison.extra["executiveSummary"] = store.executive_summary(run_id)
    page = render_html(comparison)
    assert page.index("<h2>Executive summary</h2>") < page.index("<h2>Leaderboard</h2>")
    assert "Written by a model (openai:summarizer)" in page
    assert "<script" not in page and "<b>" not in page and "<img" not in page
    assert "openai:fake-b lost badly &amp; &quot;quietly&quot;." in page
    # and the comparison JSON carries it where Weval reads it, and reads back
    again = read_comparison(comparison.to_weval())
    assert again.extra["executiveSummary"]["modelId"] == "openai:summarizer"


RUN_BLUEPRINT = """title: Summary on the Run page
models: [openai:fake-a]
---
- id: p1
  prompt: Say hello
  should:
    - $icontains: hello
"""


def test_the_run_page_offers_a_summary_and_plans_its_call(llm_env):
    from studio import state
    from studio.core import runs
    from studio.views.run.run import SUMMARY, SUMMARY_MODEL

    at = app()
    at.session_state[state.TEXT] = RUN_BLUEPRINT
    at.session_state[state.SOURCE] = "s.yml"
    at.switch_page("views/run/run.py").run()
    assert not at.exception
    assert not [t for t in at.text_input if t.key == SUMMARY_MODEL]  # off by default
    at.checkbox(key=SUMMARY).check().run()
    model = at.text_input(key=SUMMARY_MODEL)
    assert model.value == "openrouter:google/gemini-2.5-flash"
    model.set_value("openai:summarizer").run()
    assert any(
        "Then 1 call to openai:summarizer writes the executive summary" in c
        for c in texts(at, "caption")
    )
    choice = runs.RunChoice(models=("openai:fake-a",), summary_model="openai:summarizer")
    assert choice.options().summary_model == "openai:summarizer"


def test_a_summary_written_later_shows_on_the_next_visit(or_paths_run, fake_llm, llm_env):
    _store, run_id = or_paths_run
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert "Executive summary" not in texts(at, "subheader")
    _summarized(or_paths_run, fake_llm, llm_env)
    again = app()
    again.query_params["run"] = run_id
    again.switch_page("views/results/results.py").run()
    assert "Executive summary" in texts(again, "subheader")


def test_an_example_run_with_a_summary_opens_from_its_file(tmp_path, fake_llm):
    """End to end offline: `blueprint run --summary-model` on an example, then its comparison
    JSON opened in the results page shows the summary first."""
    import os
    import subprocess
    import sys

    from studio import services, state
    from tests.studio.helpers import EXAMPLES

    fake_llm.reply_with(
        answer_as("summarizer", "<key_finding>Model A met every point of Model A.</key_finding>")
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "run",
            str(EXAMPLES / "functions.yml"),
            "--models",
            "openai:fake-a",
            "--no-judge",
            "--summary-model",
            "openai:summarizer",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, **fake_llm.env(), "PYTHONPATH": os.getcwd()},
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr  # 1: an example point may fail on an echo
    assert "executive summary: written by openai:summarizer" in done.stdout
    [written] = out.glob("*_comparison.json")
    results = services.read_uploaded(written.read_bytes(), written.name)
    at = app()
    at.session_state[state.UPLOADED] = (written.name, results)
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert texts(at, "subheader")[1] == "Executive summary"
    assert any(
        "openai:fake-a met every point of openai:fake-a." in m for m in texts(at, "markdown")
    )


def test_a_summary_the_model_did_not_format_is_said_unread_and_shown_as_its_reply(
    or_paths_run, fake_llm, llm_env
):
    store, run_id = or_paths_run
    reply = "Both models did fine, I think. *Model A* was <i>better</i>."
    fake_llm.reply_with(answer_as("summarizer", reply))
    summarize_run(store, run_id, "openai:summarizer", environ=llm_env)
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    [warning] = [w for w in texts(at, "warning") if "summary could not be read" in w]
    assert "did not reply in the summary's format" in warning
    assert "**The model's reply**" in [str(m.value) for m in at.markdown]
    assert [str(t.value) for t in at.text if "did fine" in str(t.value)] == [
        "Both models did fine, I think. *openai:fake-a* was better."
    ]
    comparison = load_run_comparison(store, run_id)
    comparison.extra["executiveSummary"] = store.executive_summary(run_id)
    page = render_html(comparison)
    assert "The summary could not be read" in page
    assert "<h3>The model's reply</h3><pre>Both models did fine" in page and "<i>" not in page
