"""Every CLI entry that reads a blueprint, on hostile files: bounded, positioned, no traceback.

Each command runs in a child process limited to 1 GB of address space and 10 seconds; it
must exit 1 or 2 with a `FILE:LINE:COL: ` message and never print a Python traceback.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

LIMIT_BYTES = 1024**3
LIMIT_SECONDS = 10
COMMANDS = ("lint", "normalize", "score", "plan", "run")


def _bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    lines.append("title: x\nprompts:\n  - prompt: hi\n    should: [*i]")
    return "\n".join(lines) + "\n"


def _deep_block(depth: int) -> str:
    return "".join(" " * i + "- " + "\n" for i in range(0, depth * 2, 2)) + " " * depth * 2 + "x\n"


HOSTILE: dict[str, bytes] = {
    "bomb.yml": _bomb().encode(),
    "deep-flow.yml": ("title: x\nprompts: " + "[" * 300_000 + "]" * 300_000 + "\n").encode(),
    "deep-flow.json": ('{"prompts": ' + "[" * 300_000 + "]" * 300_000 + "}").encode(),
    "deep-block.yml": ("title: x\n---\n" + _deep_block(5000)).encode(),
    "huge-int.yml": (
        "- prompt: hi\n  should:\n    - text: x\n      weight: " + "9" * 50_000 + "\n"
    ).encode(),
    "huge-int.json": (
        '[{"prompt": "hi", "should": [{"text": "x", "weight": 1' + "0" * 50_000 + "}]}]"
    ).encode(),
    "nul.yml": b"title: x\n---\n- prompt: h\x00i\n  should: [a]\n",
    "bad-utf8.yml": b"title: x\n---\n- prompt: caf\xe9\n  should: [a]\n",
    "too-big.yml": b"title: x\n---\n- prompt: hi\n  should: [a]\n  ideal: "
    + b"y" * 2_200_000
    + b"\n",
}
# Where the message must point (line, column), when the command reports the first problem.
POSITIONS = {"nul.yml": "3:12", "bad-utf8.yml": "3:14", "too-big.yml": "1:1", "bomb.yml": "7:"}


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_blueprint_is_refused_plainly_and_quickly(
    tmp_path: Path, name: str, command: str
) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    responses = tmp_path / "responses.jsonl"
    responses.write_text('{"prompt_id": "p", "model": "m", "response": "hi"}\n')
    args = [str(path)]
    if command == "score":
        args += ["--responses", str(responses), "--no-judge"]
    if command in ("plan", "run"):
        args += ["--models", "ideal", "--no-judge"]
    if command == "run":
        args += ["--out", str(tmp_path / "out")]
    env = {**os.environ, "PYTHONPATH": str(REPO), "BLUEPRINT_MAX_INPUT_MB": "2"}
    result = subprocess.run(
        [sys.executable, "-m", "engine", command, *args],
        capture_output=True,
        text=True,
        timeout=LIMIT_SECONDS + 20,  # the bound checked below; this only stops a hang
        preexec_fn=_limits,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode in (1, 2), output[-2000:]
    assert "Traceback" not in output and "Error:" not in result.stderr.replace("error", "")
    assert "set_int_max_str_digits" not in output
    found = re.search(re.escape(str(path)) + r":(\d+):(\d+): ", output)
    assert found, output[-2000:]
    expected = POSITIONS.get(name)
    if expected is not None:
        assert f"{path}:{expected}" in output, output[-2000:]
    assert len(output) < 20_000  # no quoting of the hostile input


@pytest.mark.parametrize("name", ["bomb.yml", "deep-flow.yml", "huge-int.yml"])
def test_lint_and_normalize_finish_in_bounded_time(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    for command in ("lint", "normalize"):
        start = os.times()
        subprocess.run(
            [sys.executable, "-m", "engine", command, str(path)],
            capture_output=True,
            timeout=LIMIT_SECONDS + 20,
            preexec_fn=_limits,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            check=False,
        )
        used = os.times()
        cpu = (used.children_user - start.children_user) + (
            used.children_system - start.children_system
        )
        assert cpu < LIMIT_SECONDS, (command, cpu)
