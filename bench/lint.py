"""Lint speed: strawberry.yml (100 prompts) and a generated 2,000-prompt blueprint.

Prints the median time of `lint` beside a bare `yaml.load_all(..., CSafeLoader)` of the same
text in the same process, and the ratio. Targets: <= 50 ms and <= 1 s (as you type).
Run: python -m bench.lint
"""

from __future__ import annotations

import sys

import yaml

from bench.common import generated_blueprint, median_seconds, shared_corpus
from engine.blueprint.source import gc_paused
from engine.lint import lint
from engine.settings import Settings

SETTINGS = Settings()


def measure(name: str, text: str, target_s: float) -> bool:
    """Print one row and return whether the target was met."""
    found = lint(text, settings=SETTINGS)
    ours = median_seconds(lambda: lint(text, settings=SETTINGS))
    bare = median_seconds(lambda: list(yaml.load_all(text, Loader=yaml.CSafeLoader)))

    def bare_paused() -> None:
        with gc_paused():
            list(yaml.load_all(text, Loader=yaml.CSafeLoader))

    fair = median_seconds(bare_paused)
    ok = ours <= target_s
    print(
        f"{name:<30} lint {ours * 1000:7.1f} ms | bare CSafeLoader {bare * 1000:7.1f} ms "
        f"(ratio {ours / bare:3.1f}x) | bare with GC paused as ours {fair * 1000:7.1f} ms "
        f"(ratio {ours / fair:3.1f}x) | {len(found)} diagnostics | "
        f"target <= {target_s * 1000:.0f} ms {'OK' if ok else 'MISSED'}"
    )
    return ok


def main() -> int:
    """Run the lint benchmark; exit 1 when a target is missed."""
    results = []
    corpus = shared_corpus()
    if corpus is not None:
        text = (corpus / "strawberry.yml").read_text(encoding="utf-8")
        results.append(measure("strawberry.yml (100 prompts)", text, 0.050))
    else:
        print("strawberry.yml: skipped (the shared corpus is not beside the repository)")
    big = generated_blueprint(2000)
    print(f"generated blueprint: {len(big.splitlines())} lines, {len(big) / 1024:.0f} KiB")
    results.append(measure("generated (2,000 prompts)", big, 1.0))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
