"""Lint speed: strawberry.yml (100 prompts) and a generated 2,000-prompt blueprint.

Prints the median time of `lint` beside a bare `yaml.load_all(..., CSafeLoader)` of the same
text in the same process, and the ratio. Targets: <= 50 ms and <= 1 s (as you type).
Run: python -m bench.lint
"""

from __future__ import annotations

import sys

from bench.common import against_bare_yaml, generated_blueprint, shared_corpus
from engine.lint import lint
from engine.settings import Settings

SETTINGS = Settings()


def measure(name: str, text: str, target_s: float) -> bool:
    """Print one row and return whether the target was met."""
    found = lint(text, settings=SETTINGS)
    note = f" | {len(found)} diagnostics"
    return against_bare_yaml(
        name, "lint", lambda: lint(text, settings=SETTINGS), text, target_s, note
    )


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
