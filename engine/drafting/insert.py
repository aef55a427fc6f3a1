"""Accepted suggestions put into the blueprint: each point added to its prompt by the editor's edits."""

from __future__ import annotations

import json
import textwrap

from engine.blueprint import parse_blueprint
from engine.edit.apply import apply
from engine.edit.edits import AddPoint, PointSpec

__all__ = ["insert_points"]


def insert_points(text: str, prompt_index: int, points_yaml: str) -> str:
    """`text` with the points of `points_yaml` (a checked `read_points` draft) added to a prompt.

    Points go at the end of the prompt's `should` or `should_not`; every other byte of the
    text stays as it was. Points of alternative paths are left out (they would change meaning
    when merged into existing paths).

    Raises:
        EditError: The prompt cannot be edited (the message says what to do).
        BlueprintError: `points_yaml` is not points (it should come from `read_points`).
    """
    wrapper = "- prompt: " + json.dumps("x") + "\n" + textwrap.indent(points_yaml, "  ")
    prompt = parse_blueprint(wrapper, source="suggestion.yml").prompts[0]
    for point in prompt.points:
        if point.path is not None:
            continue
        spec = PointSpec(
            text=point.text,
            fn=point.fn,
            args=point.args,
            has_args=point.has_args,
            weight=point.multiplier if point.multiplier != 1 else None,
        )
        text = apply(text, AddPoint(prompt=prompt_index, point=spec, inverted=point.inverted))
    return text
