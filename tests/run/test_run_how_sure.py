"""`blueprint run` ends by saying how sure its ranking is: intervals, pairs, prompts needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def blueprint_text(prompts: int) -> str:
    lines = ["title: How sure", "models: [openai:fake-a, openai:fake-b]", "---"]
    for i in range(prompts):
        # the fake server echoes `[<model>] ... echo: <prompt>`: fake-a meets 2 points, fake-b 1;
        # every third prompt has a point neither meets, so the scores vary between prompts
        extra = ["    - $contains: nobody"] if i % 3 == 0 else []
        lines += [
            f"- id: q{i:02d}",
            f"  prompt: Question number {i}",
            "  should:",
            "    - $contains: Question",
            "    - $contains: fake-a",
            *extra,
        ]
    return "\n".join(lines) + "\n"


def test_the_closing_lines_say_which_model_is_ahead_and_how_sure(fake_llm, tmp_path):
    bp = tmp_path / "bp.yml"
    bp.write_text(blueprint_text(6))
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "engine", "run", str(bp), "--out", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, **fake_llm.env()},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "how sure (95% intervals over prompts; see docs/uncertainty.md):" in text
    # fake-a: 0.67 on every third prompt, else 1 (mean 0.89); fake-b: 0.33, else 0.5.
    # Paired differences 0.34, 0.5, 0.5, 0.34, 0.5, 0.5: mean 0.4467, sd 0.082624,
    # se 0.033731, t(0.975, 5) = 2.570582, so 0.4467 ± 0.0867 = 0.36 to 0.53
    a, b = "openai:fake-a", "openai:fake-b"  # the names every page shows (issue 31)
    assert f"  {a}: 0.89, likely between " in text
    assert (
        f"{a} scores higher than {b}, and the gap (0.45, from 0.36 to 0.53) is larger than chance."
        in text
    )
    assert "To tell apart differences of 0.05 you would need about " in text
    assert "; you have 6" in text
    (written,) = out.glob("*_comparison.json")
    block = json.loads(written.read_text())["blueprintStudio"]["uncertainty"]
    assert block["models"][f"{a}[temp:0]"]["prompts"] == 6  # the JSON keeps Weval's ids
    assert block["pairs"][0]["separable"] is True
