"""Key points from an ideal and variants on the Results page: a corpus blueprint run offline
through the fake server, its comparison JSON opened in the page, and the points added to the
blueprint as `should` points."""

from __future__ import annotations

import json
import re

import pytest

from engine.blueprint import parse_blueprint
from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import open_store
from studio import services, state
from tests.conftest import CORPUS, NO_CORPUS_REASON
from tests.studio.helpers import app, buttons, texts

corpus = pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS_REASON)

NAME = "cromer-norfolk-knowledge.yml"


def ideal_only(text: str) -> str:
    """The corpus blueprint with its `should` lists removed: every prompt relies on its ideal."""
    return re.sub(r"\n  should:\n(?:    .*(?:\n|\Z))+", "\n", text)


@pytest.fixture
def env(fake_llm, monkeypatch):
    values = {**fake_llm.env(), "GOOGLE_BASE_URL": f"{fake_llm.url}/v1", "GOOGLE_API_KEY": "k"}
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    return fake_llm


@pytest.fixture
def cromer_run(env, tmp_path):
    assert CORPUS is not None
    text = ideal_only((CORPUS / "blueprints" / NAME).read_text(encoding="utf-8"))
    blueprint = parse_blueprint(text, source=NAME)
    assert blueprint.prompts and all(p.ideal and not p.points for p in blueprint.prompts)
    store = open_store()
    prepared = prepare_run(
        store,
        text,
        source=NAME,
        options=RunOptions(judges=["openai:judge-1"], out_dir=tmp_path),
    )
    assert prepared.problems == []
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    return store, prepared.run_id, outcome.path, blueprint


@corpus
def test_the_corpus_blueprint_runs_offline_and_its_json_opens_in_the_results_page(cromer_run):
    _store, _run_id, path, blueprint = cromer_run
    data = json.loads(path.read_text())
    first = blueprint.prompts[0]
    assert set(data["extractedKeyPoints"]) == {p.id for p in blueprint.prompts}
    # the fake lists each sentence of the ideal; each became a judged point for every model
    points = data["extractedKeyPoints"][first.id]
    assert points[0].startswith("Cromer is primarily known as a traditional Victorian")
    row = data["evaluationResults"]["llmCoverageScores"][first.id]
    assert len(row) == 3  # the blueprint's three models
    for cell in row.values():
        assert [a["keyPointText"] for a in cell["pointAssessments"]] == points
        assert isinstance(cell["avgCoverageExtent"], int | float)

    results = services.read_uploaded(path.read_bytes(), path.name)
    at = app()
    at.session_state[state.UPLOADED] = (path.name, results)
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert "**Points found in the ideal answer**" in texts(at, "markdown")
    shown = texts(at, "text")
    assert any(points[0] in t and points[1] in t for t in shown)
    # nothing is open in the editor: the button says what to do instead of guessing
    buttons(at, "Add them to the blueprint")[0].click().run()
    assert any("Open the blueprint that has the prompt" in e for e in texts(at, "error"))


@corpus
def test_adding_the_points_makes_a_new_draft_version_with_should_points(cromer_run):
    store, run_id, path, blueprint = cromer_run
    first = blueprint.prompts[0]
    points = json.loads(path.read_text())["extractedKeyPoints"][first.id]
    at = app()
    at.query_params["run"] = run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    buttons(at, "Add them to the blueprint as should points")[0].click().run()
    assert not at.exception
    draft = at.session_state[state.DRAFT_ID]
    text = at.session_state[state.TEXT]
    edited = parse_blueprint(text, source=NAME).prompt(first.id)
    assert edited is not None and [p.text for p in edited.points] == points
    latest = max(store.draft_versions(draft), key=lambda v: v.number)
    assert latest.number >= 2  # the run's text is a version; the points make a new one
    assert store.draft_version_text(draft, latest.number) == text
    assert "added as should points" in (latest.note or "")
    # the other prompts are as the run had them
    others = parse_blueprint(text, source=NAME).prompts[1:]
    assert all(not p.points for p in others)


def test_a_failed_extraction_is_explained_on_the_page(fake_llm, monkeypatch, tmp_path):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    fake_llm.fail_when(lambda r: "<IDEAL_RESPONSE>" in r.last_user, "400")
    text = "models: [openai:fake-a]\n---\n- id: tea\n  prompt: Hot?\n  ideal: About 80 degrees.\n"
    store = open_store()
    prepared = prepare_run(
        store, text, source="t.yml", options=RunOptions(judges=["openai:j"], out_dir=tmp_path)
    )
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    at = app()
    at.query_params["run"] = prepared.run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    assert any("none could be found in its ideal" in w for w in texts(at, "warning"))
    assert any("openai:gpt-4o-mini" in t and "400" in t for t in texts(at, "text"))
    assert not buttons(at, "Add them to the blueprint")


def test_variants_have_a_view_per_base_model(fake_llm, monkeypatch, tmp_path):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    text = (
        "models: [openai:fake-a, openai:fake-b]\ntemperatures: [0, 0.7]\n---\n"
        "- id: hi\n  prompt: Say hello\n  should:\n    - $icontains: hello\n"
    )
    store = open_store()
    prepared = prepare_run(
        store, text, source="v.yml", options=RunOptions(judge=False, out_dir=tmp_path)
    )
    run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    at = app()
    at.query_params["run"] = prepared.run_id
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    picker = next(s for s in at.selectbox if s.label == "Base model")
    assert picker.options == ["openai:fake-a", "openai:fake-b"]
    table = next(d.value for d in at.dataframe if "Spread (std-dev)" in d.value.columns)
    assert list(table["Prompt"]) == ["hi"]
    assert list(table["Mean score"]) == [1.0] and list(table["Variants scored"]) == [2]


def test_the_run_page_offers_judging_for_ideal_only_prompts_and_counts_the_extraction(
    fake_llm, monkeypatch
):
    for key, value in fake_llm.env().items():
        monkeypatch.setenv(key, value)
    at = app()
    at.session_state[state.TEXT] = (
        "models: [openai:fake-a]\n---\n- id: tea\n  prompt: Hot?\n  ideal: About 80 degrees.\n"
    )
    at.switch_page("views/run/run.py").run()
    assert not at.exception
    assert [r.label for r in at.radio] == ["Judging of the points written in words"]
    metrics = {m.label: m for m in at.metric}
    assert metrics["Judge calls"].value == "~15"  # 5 points assumed x 3 default judges
    assert "until an LLM lists the key points" in str(metrics["Judge calls"].help)


def test_points_of_a_weval_file_are_shown_as_plain_text():
    weval = {
        "configId": "w",
        "configTitle": "From Weval",
        "effectiveModels": ["m1"],
        "promptIds": ["p"],
        "config": {"prompts": [{"id": "p", "idealResponse": "Be kind."}]},
        "extractedKeyPoints": {"p": ["<b>Is kind</b> [link](javascript:alert(1))", "**Calm**"]},
        "evaluationResults": {
            "llmCoverageScores": {
                "p": {
                    "m1": {
                        "keyPointsCount": 2,
                        "avgCoverageExtent": 0.5,
                        "pointAssessments": [
                            {"keyPointText": "<b>Is kind</b>", "coverageExtent": 1},
                            {"keyPointText": "**Calm**", "coverageExtent": 0},
                        ],
                    }
                }
            }
        },
    }
    results = services.read_uploaded(json.dumps(weval).encode(), "w.json")
    at = app()
    at.session_state[state.UPLOADED] = ("w.json", results)
    at.switch_page("views/results/results.py").run()
    assert not at.exception
    shown = [t for t in texts(at, "text") if "Is kind" in t]
    assert shown == ["• <b>Is kind</b> [link](javascript:alert(1))\n• **Calm**"]
    assert "an LLM listed these" in " ".join(texts(at, "caption"))
    assert not any("<b>" in m for m in texts(at, "markdown"))
