"""Commands that write files: one-line messages and exit 2 instead of tracebacks, no partial file.

A full disk and a read-only folder are real here when the tests may mount a tmpfs (as root in
a container); `tests/report/test_output.py` covers the same errors through an injected writer
on every machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.cli.ids import drop_double_dash_before_ids
from engine.store import open_store
from tests.conftest import EXAMPLES

FUNCTIONS = EXAMPLES / "functions.yml"


def blueprint(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *map(str, args)],
        capture_output=True,
        text=True,
        env=env or os.environ.copy(),
        timeout=120,
    )


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "Errno" not in result.stderr
    return result.stderr


def responses(path: Path, count: int = 1, text: str = "The capital of France is Paris.") -> Path:
    rows = [{"prompt_id": "france", "model": f"m{i}", "response": text} for i in range(count)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _mount(target: Path, options: str) -> bool:
    target.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)], capture_output=True
    )
    return done.returncode == 0


def _tmpfs(parent: Path, options: str) -> Iterator[Path]:
    target = parent / f"tmpfs-{uuid.uuid4().hex[:6]}"
    if os.geteuid() != 0 or not _mount(target, options):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    yield target
    subprocess.run(["umount", str(target)], check=False)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (skipped where mounting is not allowed)."""
    yield from _tmpfs(tmp_path, "size=64k")


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A read-only folder that even root cannot write (a read-only tmpfs)."""
    yield from _tmpfs(tmp_path, "ro,size=64k")


def test_a_lone_surrogate_in_a_response_is_written_as_json_stringify_writes_it(tmp_path):
    rows = tmp_path / "r.jsonl"
    rows.write_text('{"prompt_id": "france", "model": "m", "response": "Paris \\ud800 !"}\n')
    out = tmp_path / "out.json"
    result = blueprint("score", FUNCTIONS, "--responses", rows, "--out", out)
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["allFinalAssistantResponses"]["france"]["m"] == "Paris \ud800 !"
    assert "\\ud800" in out.read_text(encoding="utf-8")
    printed = blueprint("score", FUNCTIONS, "--responses", rows)
    assert printed.returncode == 0, printed.stderr
    assert json.loads(printed.stdout)["allFinalAssistantResponses"]["france"]["m"].endswith("!")


def test_an_out_path_through_a_file_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" / "out.json"
    rows = responses(tmp_path / "r.jsonl")
    err = one_line_error(blueprint("score", FUNCTIONS, "--responses", rows, "--out", out))
    assert (
        err.strip()
        == f"{out}: cannot write the file: part of its folder path is not a folder. Choose another place to write it."
    )


def test_score_on_a_full_disk_leaves_no_file(tmp_path, tiny_disk):
    rows = responses(tmp_path / "r.jsonl", 400, "The capital of France is Paris. " * 20)
    out = tiny_disk / "out.json"
    err = one_line_error(blueprint("score", FUNCTIONS, "--responses", rows, "--out", out))
    assert "the disk is full" in err and len(err.strip().splitlines()) == 1
    assert list(tiny_disk.iterdir()) == []


def test_run_with_its_store_on_a_full_disk_says_so(tmp_path, tiny_disk):
    bp = tmp_path / "bp.yml"
    bp.write_text("- id: p\n  prompt: Hi\n  ideal: hello\n  should:\n    - $contains: hello\n")
    env = {**os.environ, "BLUEPRINT_HOME": str(tiny_disk)}
    err = one_line_error(blueprint("run", bp, "--models", "ideal", "--no-judge", env=env))
    assert "the disk is full" in err and "Free some space" in err, err
    assert len(err.strip().splitlines()) == 1


def test_score_into_a_read_only_folder(tmp_path, read_only):
    rows = responses(tmp_path / "r.jsonl")
    err = one_line_error(
        blueprint("score", FUNCTIONS, "--responses", rows, "--out", read_only / "out.json")
    )
    assert "the folder is read-only" in err
    assert list(read_only.iterdir()) == []


def test_run_into_a_read_only_folder_is_exit_2_and_resumable(tmp_path, read_only, fake_llm):
    bp = tmp_path / "bp.yml"
    bp.write_text("models: [openai:m]\n---\n- id: p\n  prompt: Hi\n  should:\n    - $contains: a\n")
    env = {**os.environ, **fake_llm.env()}
    result = blueprint("run", bp, "--out", read_only, env=env)
    err = one_line_error(result)
    assert "the folder is read-only" in err and "--resume" in err
    run_id = result.stdout.split()[1]
    out = tmp_path / "out"
    again = blueprint("run", "--resume", "--", run_id, "--out", out, env=env)
    assert again.returncode == 0, again.stderr
    assert len(list(out.glob("*_comparison.json"))) == 1
    assert open_store().get_run(run_id).status == "completed"


def test_resume_accepts_a_double_dash_before_the_id(tmp_path, fake_llm):
    bp = tmp_path / "bp.yml"
    bp.write_text("models: [openai:m]\n---\n- id: p\n  prompt: Hi\n  should:\n    - $contains: a\n")
    env = {**os.environ, **fake_llm.env()}
    first = blueprint("run", bp, "--no-cache", env=env)
    run_id = first.stdout.split()[1]
    again = blueprint("run", "--resume", "--", run_id, env=env)
    assert again.stderr.strip() == (
        f"Run '{run_id}' has already completed; there is nothing to resume."
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--resume", "--", "-abc"], ["--resume", "-abc"]),
        (["--resume", "-abc", "--out", "d"], ["--resume", "-abc", "--out", "d"]),
        (["--out", "--", "x"], ["--out", "--", "x"]),
        (["--", "--resume", "--", "x"], ["--", "--resume", "--", "x"]),
        (["--resume", "--"], ["--resume", "--"]),
    ],
)
def test_only_the_double_dash_right_after_an_id_option_is_dropped(args, expected):
    assert drop_double_dash_before_ids(args, ("--resume",)) == expected


def test_an_id_starting_with_a_dash_reaches_resume(tmp_path):
    result = blueprint("run", "--resume", "--", "-Xq9")
    assert result.stderr.strip().startswith("There is no run '-Xq9'")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_lone_surrogates_in_a_blueprint_are_printed_not_a_traceback(tmp_path):
    bp = tmp_path / "s.json"
    bp.write_text(
        '{"title": "a \\ud800 b", "prompts": [{"id": "p1", "promptText": "x", '
        '"points": ["$contains: \\udc00"]}]}'
    )
    normalized = blueprint("normalize", bp)
    assert normalized.returncode == 0, normalized.stderr
    assert json.loads(normalized.stdout)["title"] == "a \ud800 b"
    as_json = blueprint("lint", bp, "--format", "json")
    assert as_json.returncode == 1 and "Traceback" not in as_json.stderr
    # the message quotes the value as a one-line excerpt: the lone surrogate is shown escaped
    assert "\\udc00" in json.loads(as_json.stdout)[0]["message"]
    as_text = blueprint("lint", bp)
    assert as_text.returncode == 1 and "\\udc00" in as_text.stdout
    rows = tmp_path / "r.jsonl"
    rows.write_text('{"prompt_id": "p1", "model": "m", "response": "x"}\n')
    scored = blueprint("score", bp, "--responses", rows)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["configTitle"] == "a \ud800 b"


def test_an_unusable_blueprint_home_is_one_line_or_not_needed(tmp_path):
    (tmp_path / "afile").write_text("x")
    env = {**os.environ, "BLUEPRINT_HOME": str(tmp_path / "afile" / "home")}
    rows = responses(tmp_path / "r.jsonl")
    scored = blueprint("score", FUNCTIONS, "--responses", rows, env=env)
    assert scored.returncode == 0, scored.stderr  # scoring without judges needs no folder
    linted = blueprint("lint", FUNCTIONS, env=env)
    assert linted.returncode == 0 and "Traceback" not in linted.stderr
    err = one_line_error(blueprint("plan", FUNCTIONS, env=env))
    assert err.strip().endswith("Set BLUEPRINT_HOME to a folder you can write.")


def test_judged_scoring_with_an_unusable_home_is_one_line(tmp_path, fake_llm):
    (tmp_path / "afile").write_text("x")
    env = {
        **os.environ,
        **fake_llm.env(),
        "BLUEPRINT_HOME": str(tmp_path / "afile" / "home"),
    }
    rows = responses(tmp_path / "r.jsonl")
    result = blueprint("score", FUNCTIONS, "--responses", rows, "--judges", "openai:j", env=env)
    err = one_line_error(result)
    assert err.strip().endswith("Set BLUEPRINT_HOME to a folder you can write.")
