"""Shared helpers for the benchmarks: timing, generated blueprints, the shared corpus."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def shared_corpus() -> Path | None:
    """Return the shared Weval corpus folder, if present (../shared or $BLUEPRINT_SHARED_DIR)."""
    env = os.environ.get("BLUEPRINT_SHARED_DIR")
    base = Path(env) if env else REPO.parent / "shared"
    corpus = base / "corpus" / "weval" / "blueprints"
    return corpus if corpus.is_dir() else None


def median_seconds(fn: Callable[[], object], repeat: int = 15, warmup: int = 2) -> float:
    """Run `fn` `warmup + repeat` times and return the median wall time of the timed runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def against_bare_yaml(
    name: str, label: str, work: Callable[[], object], text: str, target_s: float, note: str = ""
) -> bool:
    """Print `work`'s median time beside a bare CSafeLoader load of `text`; return target met.

    Both run in this process with the same garbage-collector settings (the engine's parser
    no longer pauses the collector), so the ratio compares like with like.
    """
    import yaml

    ours = median_seconds(work)
    bare = median_seconds(lambda: list(yaml.load_all(text, Loader=yaml.CSafeLoader)))
    ok = ours <= target_s
    print(
        f"{name:<30} {label} {ours * 1000:7.1f} ms | bare CSafeLoader {bare * 1000:7.1f} ms "
        f"(ratio {ours / bare:3.1f}x){note} | target <= {target_s * 1000:.0f} ms "
        f"{'OK' if ok else 'MISSED'}"
    )
    return ok


def generated_blueprint(n_prompts: int) -> str:
    """Return a realistic blueprint with `n_prompts` prompts mixing every common feature."""
    lines = [
        "title: Generated benchmark blueprint",
        "description: Many prompts mixing functions, judged points, paths and messages.",
        "models: [openai:gpt-4.1-mini, anthropic:claude-haiku-4.5]",
        "---",
    ]
    for i in range(n_prompts):
        lines.append(f"- id: p{i:05d}")
        if i % 4 == 0:
            lines += [
                "  messages:",
                "    - system: You are terse.",
                f"    - user: Question {i} about the history of city number {i}?",
                "    - assistant: null",
                "    - user: And why does that matter?",
            ]
        else:
            lines.append(f'  prompt: "Explain concept {i} in two sentences, citing a source."')
        lines += [
            f"  ideal: Concept {i} means something specific; see the source.",
            "  should:",
            f'    - $icontains: "concept {i}"',
            "    - $word_count_between: [5, 120]",
            '    - $imatches: "\\\\bsource\\\\b"',
            "    - point: Explains the concept accurately.",
            "      weight: 2",
            "    - - $contains_any_of: [because, since]",
            "      - Gives a reason.",
            "    - - Asks a clarifying question.",
            "  should_not:",
            "    - $contains: As an AI",
        ]
    return "\n".join(lines) + "\n"
