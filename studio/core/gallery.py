"""The gallery: the example blueprints shipped in `studio/examples/`, and a blank starting point.

Pure: no Streamlit import.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.blueprint import parse_blueprint
from engine.errors import BlueprintError

__all__ = ["BLANK", "Example", "examples_dir", "load_examples"]

BLANK = """\
title: My blueprint
description: |
  What this blueprint checks, in a sentence or two.
models:
  - openai:gpt-4.1-mini
---
- id: first-question
  prompt: Write the question you want to ask the models here.
  ideal: An example of a great answer (optional; the `ideal` model answers with it).
  should:
    - $icontains: a word every good answer contains
    - Explains the answer in plain words.
    - Does not make up facts.
"""
"""The text of a new blueprint: one prompt with a function point and two judged points."""


@dataclass(frozen=True)
class Example:
    """One example blueprint."""

    name: str
    title: str
    description: str
    text: str
    prompts: int


def examples_dir() -> Path:
    """Where the examples are: `$BLUEPRINT_EXAMPLES`, else `studio/examples/` (in the package).

    The examples ship inside the `studio` package, so a wheel install has them too; the
    project's top-level `examples/` is a link to the same folder.
    """
    env = os.environ.get("BLUEPRINT_EXAMPLES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1] / "examples"


def load_examples(folder: Path | None = None) -> list[Example]:
    """Read every `*.yml`/`*.yaml` example, sorted by file name (unreadable files skipped)."""
    folder = folder or examples_dir()
    if not folder.is_dir():
        return []
    out: list[Example] = []
    for path in sorted([*folder.glob("*.yml"), *folder.glob("*.yaml")]):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        try:
            bp = parse_blueprint(text, source=path.name)
            title = bp.title or path.stem
            description = (bp.description or "").strip()
            prompts = len(bp.prompts)
        except BlueprintError:
            title, description, prompts = path.stem, "", 0
        out.append(Example(path.name, title, description, text, prompts))
    return out
