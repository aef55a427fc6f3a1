"""A small file whose aliases expand to 900,000 points is refused in seconds (issue 32, item 4).

900 prompts each reference one anchored list of 1,000 points (`should: *p`): about 50 KB,
under the alias limit, yet it asked `normalize` for 97 s and a gigabyte. Every entry that
reads blueprint text must finish or refuse quickly and in a few hundred MB; each runs in a
child process whose peak memory is measured.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.blueprint import parse_blueprint
from engine.blueprint.budget import MAX_POINTS, MAX_PROMPTS
from engine.errors import BlueprintError
from tests.conftest import REPO

CPU_SECONDS = 20  # generous: the machine is shared; refusing takes about a second
PEAK_MB = 400


def _aliased(prompts: int, points: int) -> str:
    listed = ", ".join(f"point {i}" for i in range(points))
    lines = ["title: Expansion", "models: [openai:m]", "prompts:"]
    lines.append(f"  - id: q0\n    prompt: q0\n    should: &p [{listed}]")
    lines += [f"  - id: q{i}\n    prompt: q{i}\n    should: *p" for i in range(1, prompts)]
    return "\n".join(lines) + "\n"


_MEASURED = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stdout.write(done.stdout[-4000:])
sys.stderr.write(done.stderr[-4000:])
print(f"@@ {done.returncode} {peak.ru_maxrss} {peak.ru_utime + peak.ru_stime}", file=sys.stderr)
"""

_STUDIO = """
import sys
from engine.edit.form import header_view, prompt_view
from engine.edit.session import EditSession
try:
    session = EditSession(open(sys.argv[1], encoding="utf-8").read())
    header_view(session)
    prompt_view(session, 0)
    errors = [d for d in session.diagnostics if d.severity == "error"]
    print("errors", len(errors), *(d.message for d in errors))
except Exception as exc:
    print("refused", type(exc).__name__)
"""


def _measured(args: list[str], cwd: Path) -> tuple[int, float, float, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "OPENAI_API_KEY": "k"}
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )
    found = re.search(r"@@ (-?\d+) (\d+) ([\d.]+)", done.stderr)
    assert found, done.stderr[-2000:]
    code, peak_kb, cpu = int(found.group(1)), int(found.group(2)), float(found.group(3))
    return code, peak_kb / 1024, cpu, done.stdout + done.stderr


COMMANDS = {
    "normalize": ["-m", "engine", "normalize", "{file}", "--format", "weval-json"],
    "lint": ["-m", "engine", "lint", "{file}"],
    "plan with a judge": ["-m", "engine", "plan", "{file}", "--judges", "openai:judge"],
    "studio editor and form": ["-c", _STUDIO, "{file}"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_aliased_list_of_points_in_900_prompts_is_refused_quickly(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / "expansion.yml"
    path.write_text(_aliased(900, 1000))
    assert path.stat().st_size < 60_000
    args = [a.replace("{file}", str(path)) for a in COMMANDS[name]]
    code, peak_mb, cpu, output = _measured(args, tmp_path)
    assert cpu < CPU_SECONDS and peak_mb < PEAK_MB, (cpu, peak_mb)
    assert "Traceback" not in output
    if name == "studio editor and form":
        assert "errors 1" in output, output[-2000:]
    else:
        assert code in (1, 2), output[-2000:]
        assert re.search(re.escape(str(path)) + r":\d+:\d+: ", output), output[-2000:]
    assert f"more than the {MAX_POINTS:,}" in output, output[-2000:]


def test_the_refusal_names_the_prompt_that_passes_the_limit() -> None:
    per_prompt = 1000
    with pytest.raises(BlueprintError) as refused:
        parse_blueprint(_aliased(900, per_prompt))
    first_too_many = MAX_POINTS // per_prompt  # 0-based index of the prompt that passes it
    assert refused.value.line == 4 + 3 * first_too_many + 2
    assert "split the blueprint" in refused.value.message


def test_a_file_at_the_limits_is_still_read() -> None:
    start = time.process_time()
    blueprint = parse_blueprint(_aliased(MAX_POINTS // 1000, 1000))
    assert sum(len(p.points) for p in blueprint.prompts) == MAX_POINTS
    assert time.process_time() - start < CPU_SECONDS


def test_too_many_prompts_are_refused_at_the_first_one_too_many() -> None:
    prompts = [{"id": f"q{i}", "prompt": "hi", "should": ["x"]} for i in range(MAX_PROMPTS + 1)]
    with pytest.raises(BlueprintError, match=f"more than the {MAX_PROMPTS:,}"):
        parse_blueprint(json.dumps({"title": "many", "prompts": prompts}))
