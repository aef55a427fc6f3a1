"""`blueprint lint` and `blueprint schema`, exactly per the CLI contract."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from engine.cli import cli
from engine.lint.schema import authoring_schema, blueprint_schema
from tests.conftest import EXAMPLES

BAD = (
    "- id: p\n  prompt: hi\n  should:\n    - - $icontains: a\n    - - $icontains: b\n  weight: 20\n"
)


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_examples_exit_zero(tmp_path: Path):
    result = run("lint", *map(str, sorted(EXAMPLES.glob("*.yml"))))
    assert result.exit_code == 0, result.output
    assert " error " not in result.stdout and " warning " not in result.stdout


def test_text_format_and_exit_one_on_errors(tmp_path: Path):
    path = tmp_path / "bad.yml"
    path.write_text(BAD, encoding="utf-8")
    result = run("lint", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert re.fullmatch(re.escape(str(path)) + r":4:7: warning single-element-path: .+", lines[0])
    assert lines[1] == "    fix: Make it a required point"
    assert any(
        re.match(re.escape(str(path)) + r":6:11: error weight-out-of-range: ", x) for x in lines
    )


def test_warnings_only_exit_zero(tmp_path: Path):
    path = tmp_path / "warn.yml"
    path.write_text("- id: p\n  prompt: hi\n", encoding="utf-8")
    result = run("lint", str(path))
    assert result.exit_code == 0
    assert "warning no-criteria" in result.stdout


def test_json_format(tmp_path: Path):
    path = tmp_path / "bad.yml"
    path.write_text(BAD, encoding="utf-8")
    result = run("lint", "--format", "json", str(path), str(EXAMPLES / "functions.yml"))
    assert result.exit_code == 1
    rows = json.loads(result.stdout)
    assert rows and all(
        set(r)
        == {
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "severity",
            "code",
            "message",
            "fix",
            "alternatives",
        }
        for r in rows
    )
    first = rows[0]
    assert (
        first["file"],
        first["line"],
        first["column"],
        first["end_line"],
        first["end_column"],
    ) == (str(path), 4, 7, 4, 22)
    assert first["fix"] == {
        "title": "Make it a required point",
        "replacement": "$icontains: a",
        "score_neutral": False,
        "span": None,
    }
    # the other reading of a one-point path: keep it as an alternative, said in a comment
    assert first["alternatives"] == [
        {
            "title": "Keep as alternatives: either is enough",
            "replacement": "- $icontains: a  # lint: ignore[single-element-path]",
            "score_neutral": True,
            "span": None,
        }
    ]
    weight = next(r for r in rows if r["code"] == "weight-out-of-range")
    assert weight["severity"] == "error" and weight["fix"]["replacement"] == "10"
    assert weight["fix"]["score_neutral"] is False  # a clamped weight is a choice


def test_json_format_empty_list_when_clean():
    result = run("lint", "--format", "json", str(EXAMPLES / "functions.yml"))
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_unreadable_files_exit_two(tmp_path: Path):
    missing = tmp_path / "missing.yml"
    result = run("lint", str(missing), str(EXAMPLES / "functions.yml"))
    assert result.exit_code == 2
    assert f"{missing}: cannot read the file" in result.stderr
    binary = tmp_path / "latin1.yml"
    binary.write_bytes("title: caf\xe9\n".encode("latin-1"))
    result = run("lint", str(binary))
    assert result.exit_code == 2 and "not UTF-8" in result.stderr


def test_unusable_arguments_exit_two():
    assert run("lint").exit_code == 2
    assert run("lint", "--format", "xml", str(EXAMPLES / "functions.yml")).exit_code == 2


def test_json_blueprints_are_linted(tmp_path: Path):
    path = tmp_path / "b.json"
    path.write_text(
        json.dumps(
            {"title": "t", "prompts": [{"id": "p", "prompt": "hi", "weight": 20, "should": ["a"]}]}
        ),
        encoding="utf-8",
    )
    rows = json.loads(run("lint", "--format", "json", str(path)).stdout)
    assert [r["code"] for r in rows] == ["weight-out-of-range"]
    assert rows[0]["fix"] is None  # fixes are YAML; none are offered for JSON


def test_schema_command_prints_the_schema():
    result = run("schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(json.dumps(authoring_schema()))


def test_schema_module_is_a_draft7_schema():
    assert blueprint_schema()["$schema"] == "http://json-schema.org/draft-07/schema#"
