"""`blueprint rescore RUN FILE` on hostile files: bounded, positioned, no traceback (as every CLI entry)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.test_cli_hostile_yaml import HOSTILE, LIMIT_SECONDS, POSITIONS, _limits

SMALL = "title: Small\n---\n- id: p\n  prompt: hi\n  ideal: hello\n  should: [$contains: hello]\n"


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str]:
    """A completed run (the offline `ideal` model) in a store of this module's own."""
    folder = tmp_path_factory.mktemp("rescore-hostile")
    env = {**os.environ, "PYTHONPATH": str(REPO), "BLUEPRINT_HOME": str(folder / "home")}
    bp = folder / "small.yml"
    bp.write_text(SMALL, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "run", str(bp), "--models", "ideal", "--no-judge",
         "--out", str(folder / "out")],
        capture_output=True, text=True, env=env, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return env, done.stdout.split()[1]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file_is_refused_plainly_and_quickly(stored_run, tmp_path: Path, name: str):
    env, run_id = stored_run
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    result = subprocess.run(
        [sys.executable, "-m", "engine", "rescore", run_id, str(path)],
        capture_output=True,
        text=True,
        timeout=LIMIT_SECONDS + 20,
        preexec_fn=_limits,
        env={**env, "BLUEPRINT_MAX_INPUT_MB": "2"},
        cwd=tmp_path,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 2, output[-2000:]
    assert "Traceback" not in output
    assert re.search(re.escape(str(path)) + r":(\d+):(\d+): ", output), output[-2000:]
    expected = POSITIONS.get(name)
    if expected is not None:
        assert f"{path}:{expected}" in output, output[-2000:]
    assert len(output) < 20_000
