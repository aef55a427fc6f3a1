"""A draft nested tens of thousands of levels deep is refused at the engine's bound everywhere.

Each entry that reads blueprint text runs in a child process, so a C stack overflow in a
YAML composer shows as a crash (a negative return code) instead of taking pytest down.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Level 1 is the top list; each "- " opens one more: level 501 starts at column 1001.
BLOCK = "- " * 60_000 + "x\n"
SHORT_BLOCK = "- " * 40_000 + "x\n"
# The header mapping is level 1, the prompt list level 2 ... level 501 at column 503 + 6.
FLOW = "title: t\n---\n- id: p\n  should: " + "[" * 60_000 + "]" * 60_000 + "\n"
SHORT_FLOW = "title: t\n---\n- id: p\n  should: " + "[" * 40_000 + "]" * 40_000 + "\n"

CHILD = textwrap.dedent(
    """
    import json, sys
    from engine.blueprint import parse_blueprint
    from engine.drafting.check import read_draft
    from engine.drafting.service import DraftRefused
    from engine.edit import EditSession
    from engine.edit.form import header_view
    from engine.edit.nodes import EditError
    from engine.errors import BlueprintError, InputError
    from engine.lint import lint
    from studio.core.drafts import read_upload

    text = open(sys.argv[1], encoding="utf-8").read()
    seen = {}
    try:
        parse_blueprint(text, source="deep.yml")
    except BlueprintError as exc:
        seen["parse"] = [exc.line, exc.column, exc.message]
    found = [d for d in lint(text) if "nested more than" in d.message]
    seen["lint"] = [found[0].line, found[0].column] if found else None
    session = EditSession(text)
    try:
        header_view(session)
    except EditError as exc:
        seen["form"] = str(exc)
    try:
        # a draft is at most 100,000 characters: the same nesting, fewer levels past the bound
        read_draft("```yaml\\n" + open(sys.argv[2], encoding="utf-8").read() + "```")
    except DraftRefused as exc:
        seen["drafting"] = str(exc)
    try:
        read_upload(text.encode(), "deep.yml")
    except InputError as exc:
        seen["open"] = str(exc)
    print(json.dumps(seen))
    """
)


def _child(tmp_path: Path, text: str, short: str) -> dict[str, Any]:
    path = tmp_path / "deep.yml"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "short.yml").write_text(short, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(tmp_path / "short.yml")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("text", "short", "line", "column"),
    [(BLOCK, SHORT_BLOCK, 1, 1001), (FLOW, SHORT_FLOW, 4, 509)],
    ids=["block", "flow"],
)
def test_every_entry_refuses_at_the_same_position(
    tmp_path: Path, text: str, short: str, line: int, column: int
) -> None:
    seen = _child(tmp_path, text, short)
    assert seen["parse"][:2] == [line, column]
    assert "nested more than 500 levels" in seen["parse"][2]
    assert seen["lint"] == [line, column]
    assert seen["form"].startswith(f"Line {line}, column {column}: Lists and mappings")
    assert f"at line {line}, column {column}" in seen["drafting"]
    assert seen["open"].startswith(f"deep.yml:{line}:{column}: Lists and mappings")


def test_the_normalize_and_lint_commands_refuse_with_the_position(tmp_path: Path) -> None:
    path = tmp_path / "deep.yml"
    path.write_text(FLOW, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for command in ("normalize", "lint"):
        done = subprocess.run(
            [sys.executable, "-m", "engine", command, str(path)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert done.returncode in (1, 2), (command, done.returncode, done.stderr[-1000:])
        assert "deep.yml:4:509" in done.stdout + done.stderr, command
        assert "nested more than 500 levels" in done.stdout + done.stderr, command
