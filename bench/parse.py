"""Parse speed: strawberry.yml (100 prompts) and a generated 2,000-prompt blueprint.

Prints the median time of `parse_blueprint` beside a bare `yaml.load_all(..., CSafeLoader)`
of the same text in the same process, and the ratio. Targets: <= 50 ms and <= 1 s.
Run: python bench/parse.py
"""

from __future__ import annotations

import sys

from bench.common import against_bare_yaml, generated_blueprint, shared_corpus
from engine.blueprint import parse_blueprint


def measure(name: str, text: str, target_s: float) -> bool:
    """Print one row and return whether the target was met."""
    return against_bare_yaml(name, "ours", lambda: parse_blueprint(text), text, target_s)


def main() -> int:
    """Run the parse benchmark; exit 1 when a target is missed."""
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
