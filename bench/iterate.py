"""Run-against-run speed: `blueprint compare` of two 1,000-prompt x 10-model comparisons.

Scores a generated blueprint (1,000 prompts, 5 function points each) twice with
`blueprint score` (10 models; the second time a tenth of the answers changed), then times
the WHOLE `blueprint compare A B --format json` process against a baseline run in the same
session: a bare Python process that only loads both JSON files. Target: <= 1 s.
Run: python -m bench.iterate
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROMPTS = 1000
MODELS = [f"bench:model-{i}" for i in range(10)]
TARGET_S = 1.0


def blueprint_text() -> str:
    lines = ["title: Iterate bench", "models: [bench:model-0]", "---"]
    for i in range(PROMPTS):
        lines += [
            f"- id: p{i}",
            f"  prompt: Question {i}?",
            "  should:",
            f"    - $icontains: word{i % 7}",
            "    - $word_count_between: [2, 40]",
            f"    - $not_icontains: bad{i % 5}",
            "    - - $contains: A",
            "      - $contains: B",
            "    - - $icontains: c",
        ]
    return "\n".join(lines) + "\n"


def responses(path: Path, seed: int, changed: float) -> None:
    rnd = random.Random(seed)
    base = random.Random(0)
    with path.open("w", encoding="utf-8") as out:
        for i in range(PROMPTS):
            for model in MODELS:
                words = [f"word{base.randrange(7)}", "A", "c", "text"] * base.randrange(1, 6)
                if rnd.random() < changed:
                    words = [f"bad{i % 5}", "B"]
                row = {"prompt_id": f"p{i}", "model": model, "response": " ".join(words)}
                out.write(json.dumps(row) + "\n")


def timed(cmd: list[str], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bp = folder / "bench.yml"
        bp.write_text(blueprint_text(), encoding="utf-8")
        outs = []
        for name, changed in (("base", 0.0), ("cand", 0.1)):
            rows = folder / f"{name}.jsonl"
            responses(rows, 1, changed)
            out = folder / f"{name}.json"
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "engine",
                    "score",
                    str(bp),
                    "--responses",
                    str(rows),
                    "--out",
                    str(out),
                    "--no-judge",
                ],
                check=True,
                stderr=subprocess.DEVNULL,
            )
            outs.append(str(out))
        size = sum(Path(p).stat().st_size for p in outs) / 1e6
        ours = timed([sys.executable, "-m", "engine", "compare", "--format", "json", *outs])
        bare = timed([sys.executable, "-c", f"import json\nfor p in {outs!r}: json.load(open(p))"])
        ok = ours <= TARGET_S
        print(
            f"compare {PROMPTS} prompts x {len(MODELS)} models ({size:.1f} MB of JSON): "
            f"{ours:.2f} s whole process | bare json.load of both {bare:.2f} s "
            f"(ratio {ours / bare:.1f}x) | target <= {TARGET_S:.0f} s {'OK' if ok else 'MISSED'}"
        )


if __name__ == "__main__":
    main()
