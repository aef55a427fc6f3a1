"""`blueprint rescore RUN [FILE]`: the CLI contract, against a run made with the fake LLM server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from engine.run.rescore import prepare_rescore
from engine.store import open_store
from tests.fakes.llm_server import FakeLLM

JUDGE = "judge-a"

BLUEPRINT = textwrap.dedent(
    """\
    title: Rescore test
    system: You answer in one line.
    models: [openai:fake-a, anthropic:fake-b]
    evaluationConfig:
      llm-coverage:
        judges:
          - model: openai:judge-a
    ---
    - id: greet
      prompt: Say hello
      should:
        - $icontains: hello
        - Hello is said warmly.
        - Echo of the question.
        - $max_duration: 60s
    - id: chat
      messages:
        - user: first question
        - assistant: null
        - user: second question
      should:
        - $contains: question
        - Question is answered.
    """
)

EDITED_POINT = "Warmth is shown in the greeting."


def blueprint_cmd(*args: Any, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def run_id_of(stdout: str) -> str:
    first = stdout.splitlines()[0]
    found = re.fullmatch(r"run (\S+)  \S+/results\?run=(\S+)", first)
    assert found is not None, first
    assert found.group(1) == found.group(2)
    return found.group(1)


def judge_requests(fake: FakeLLM) -> list[Any]:
    return [c for c in fake.calls if c.model == JUDGE]


def generation_requests(fake: FakeLLM) -> list[Any]:
    return [c for c in fake.calls if c.model != JUDGE]


def criterion(call: Any) -> str:
    """The criterion a judge request asks about (its last `<CRITERION>` section)."""
    before = call.last_user.rsplit("</CRITERION>", 1)[0]
    return str(before.rsplit("<CRITERION>", 1)[1].strip())


def assessments(store: Any, run_id: str) -> dict[tuple[str, str], list[tuple[str, Any, str]]]:
    out = {}
    for cell in store.cells(run_id):
        points = (cell.result_data or {}).get("pointAssessments") or []
        out[cell.key] = [(p["keyPointText"], p["coverageExtent"], p["status"]) for p in points]
    return out


@pytest.fixture
def made(fake_llm: FakeLLM, tmp_path: Path) -> tuple[FakeLLM, dict[str, str], Path, str]:
    """A completed run of BLUEPRINT (generated and judged by the fake server); calls forgotten."""
    env = {**os.environ, **fake_llm.env()}
    bp = tmp_path / "bp.yml"
    bp.write_text(BLUEPRINT, encoding="utf-8")
    done = blueprint_cmd("run", bp, "--out", tmp_path / "first", env=env)
    assert done.returncode == 0, done.stderr
    assert generation_requests(fake_llm) and judge_requests(fake_llm)
    fake_llm.reset()
    return fake_llm, env, tmp_path, run_id_of(done.stdout)


def test_same_file_makes_no_call_and_scores_the_same(made):
    fake, env, tmp_path, first = made
    done = blueprint_cmd("rescore", first, "--out", tmp_path / "again", env=env)
    assert done.returncode == 0, done.stderr
    new = run_id_of(done.stdout)
    assert new != first
    assert fake.calls == []
    assert "called: 0 models, 0 judge call(s)" in done.stdout
    store = open_store()
    run = store.get_run(new)
    assert run is not None and run.status == "completed"
    assert run.options["rescored_from"] == first
    # every judgment and function point (timings included) comes out as the run had it
    assert assessments(store, new) == assessments(store, first)
    assert len(store.cells(new)) == 4
    (written,) = (tmp_path / "again").glob("*_comparison.json")
    data = json.loads(written.read_text(encoding="utf-8"))
    assert data["blueprintStudio"]["rescoredFrom"] == first
    assert set(data["evaluationResults"]["llmCoverageScores"]) == {"greet", "chat"}


def test_edited_point_judges_only_that_point_and_generates_nothing(made):
    fake, env, tmp_path, first = made
    edited = tmp_path / "edited.yml"
    edited.write_text(BLUEPRINT.replace("Hello is said warmly.", EDITED_POINT), encoding="utf-8")
    done = blueprint_cmd("rescore", first, edited, env=env)
    assert done.returncode == 0, done.stderr
    assert generation_requests(fake) == []
    judged = judge_requests(fake)
    assert [criterion(c) for c in judged] == [EDITED_POINT, EDITED_POINT]  # one per model
    assert "called: 0 models, 2 judge call(s)" in done.stdout
    assert "Judge calls: 6 (4 already judged, reused; 2 to make)" in done.stdout
    store = open_store()
    new = run_id_of(done.stdout)
    texts = [p[0] for p in assessments(store, new)[("greet", "openai:fake-a[temp:0]")]]
    assert EDITED_POINT in texts and "Hello is said warmly." not in texts


def test_prompts_the_run_never_answered_are_listed_not_generated(made):
    fake, env, tmp_path, first = made
    more = tmp_path / "more.yml"
    more.write_text(
        BLUEPRINT + "- id: brand-new\n  prompt: Something new\n  should: [$contains: new]\n",
        encoding="utf-8",
    )
    done = blueprint_cmd("rescore", first, more, env=env)
    assert done.returncode == 0, done.stderr
    assert "not answered: brand-new (never generated; not scored)" in done.stdout
    assert fake.calls == []
    new = run_id_of(done.stdout)
    assert {c.prompt_id for c in open_store().cells(new)} == {"greet", "chat"}


def test_no_judge_leaves_text_points_unverified_and_calls_nothing(made):
    fake, env, tmp_path, first = made
    edited = tmp_path / "edited.yml"
    edited.write_text(BLUEPRINT.replace("Hello is said warmly.", EDITED_POINT), encoding="utf-8")
    done = blueprint_cmd("rescore", first, edited, "--no-judge", env=env)
    assert done.returncode == 0, done.stderr
    assert fake.calls == []
    cells = assessments(open_store(), run_id_of(done.stdout))
    statuses = {text: status for points in cells.values() for text, _, status in points}
    assert statuses[EDITED_POINT] == "unverified"
    assert statuses["Question is answered."] == "unverified"
    assert all(status == "scored" for text, status in statuses.items() if text.startswith("$"))


def test_dry_run_prints_the_plan_and_records_nothing(made):
    fake, env, tmp_path, first = made
    edited = tmp_path / "edited.yml"
    edited.write_text(BLUEPRINT.replace("Hello is said warmly.", EDITED_POINT), encoding="utf-8")
    before = len(open_store().list_runs())
    done = blueprint_cmd("rescore", first, edited, "--dry-run", env=env)
    assert done.returncode == 0, done.stderr
    assert not done.stdout.startswith("run ")
    assert "Judge calls: 6 (4 already judged, reused; 2 to make)" in done.stdout
    assert "Calls to make: 2" in done.stdout
    assert fake.calls == []
    assert len(open_store().list_runs()) == before


def test_an_interrupted_rescore_resumes_without_generating(made):
    fake, env, _, first = made
    edited = BLUEPRINT.replace("Hello is said warmly.", EDITED_POINT)
    prepared = prepare_rescore(open_store(), first, edited, source="edited.yml", environ=env)
    assert prepared.run_id is not None and prepared.problems == []
    done = blueprint_cmd("run", "--resume", prepared.run_id, env=env)
    assert done.returncode == 0, done.stderr
    assert generation_requests(fake) == []
    assert [criterion(c) for c in judge_requests(fake)] == [EDITED_POINT, EDITED_POINT]
    assert open_store().get_run(prepared.run_id).status == "completed"


def test_bad_inputs_exit_2_with_a_clear_message(made, tmp_path):
    fake, env, _, first = made
    unknown = blueprint_cmd("rescore", "no-such-run", env=env)
    assert unknown.returncode == 2
    assert "There is no run 'no-such-run'" in unknown.stderr
    broken = tmp_path / "broken.yml"
    broken.write_text("title: x\n---\n- id: a\n  prompt: [unclosed\n", encoding="utf-8")
    bad = blueprint_cmd("rescore", first, broken, env=env)
    assert bad.returncode == 2
    assert bad.stderr.startswith(f"{broken}:") and bad.stdout == ""
    missing = blueprint_cmd("rescore", first, tmp_path / "nope.yml", env=env)
    assert missing.returncode == 2 and "nope.yml" in missing.stderr
    both = blueprint_cmd("rescore", first, "--no-judge", "--judges", "openai:x", env=env)
    assert both.returncode == 2 and "not both" in both.stderr
    other = tmp_path / "other.yml"
    other.write_text("title: Other\n---\n- id: zzz\n  prompt: hi\n  should: [ok]\n")
    nothing = blueprint_cmd("rescore", first, other, env=env)
    assert nothing.returncode == 2 and "nothing to re-score" in nothing.stderr
    assert fake.calls == []


def test_a_run_without_answers_exits_2(made):
    _, env, _, _ = made
    store = open_store()
    digest = store.save_blueprint(BLUEPRINT, "Rescore test", "bp.yml")
    empty = store.create_run(
        blueprint_hash=digest,
        title="Rescore test",
        config_id=None,
        options={"models": ["openai:fake-a"]},
        total_calls=1,
        total_cells=1,
    )
    done = blueprint_cmd("rescore", "--", empty, env=env)
    assert done.returncode == 2
    assert f"Run '{empty}' has no stored answers to re-score" in done.stderr
