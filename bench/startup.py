"""Start-up time of the CLI, whole process, against `python -c pass` measured alongside.

Runs each command `--runs` times, interleaved (so a busy machine slows all alike), and prints
for each: the fastest and the median wall time, the CPU time (user + system) of the median run,
and the ratio of its fastest time to the fastest `python -c pass`. Targets: `blueprint lint`
of a small file <= 0.2 s, `blueprint --help` well under.
Bytecode is cached (as for an installed package), in a temporary folder.
Run: python -m bench.startup [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SMALL = """title: Small
models: [openai:gpt-4.1-mini]
---
- id: p1
  prompt: What is 2 + 2?
  should:
    - $contains: "4"
    - Says that it is four.
"""


_HTTPX_AS_BLUEPRINT = "import sys; sys.modules['httpx._main'] = None; import httpx"


def commands(small: Path) -> dict[str, list[str]]:
    """The measured commands, by label."""
    python = sys.executable
    return {
        "python -c pass": [python, "-c", "pass"],
        "blueprint --help": [python, "-m", "engine", "--help"],
        "blueprint lint small.yml": [python, "-m", "engine", "lint", str(small)],
        # what a run's first call imports, with and without httpx's command line (left out by
        # `blueprint`'s entry point: it loads rich and pygments)
        "import httpx": [python, "-c", "import httpx"],
        "import httpx, as blueprint does": [python, "-c", _HTTPX_AS_BLUEPRINT],
    }


def once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run `argv`; return (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        argv, env=env, cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Print each command's times and its ratio to `python -c pass`."""
    parser = argparse.ArgumentParser(prog="python -m bench.startup")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    # An installed package has its bytecode compiled; here it is cached in a temporary folder
    # (not beside the sources), else every start would compile the engine again.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        env["BLUEPRINT_HOME"] = str(Path(tmp) / "home")
        small = Path(tmp) / "small.yml"
        small.write_text(SMALL)
        argvs = commands(small)
        runs: dict[str, list[tuple[float, float]]] = {label: [] for label in argvs}
        for argv in argvs.values():
            once(argv, env)  # warm the file cache and the bytecode
        for _ in range(args.runs):
            for label, argv in argvs.items():
                runs[label].append(once(argv, env))
    base = min(wall for wall, _ in runs["python -c pass"])
    for label, values in runs.items():
        walls = sorted(wall for wall, _ in values)
        cpu = statistics.median(cpu for _, cpu in values)
        print(
            f"{label:26} fastest {walls[0]:.3f} s  median {statistics.median(walls):.3f} s  "
            f"CPU {cpu:.3f} s  fastest/pass {walls[0] / base:.1f}x"
        )


if __name__ == "__main__":
    main()
