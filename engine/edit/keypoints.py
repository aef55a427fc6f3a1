"""Key points found in an ideal answer written into a blueprint as `should` points."""

from __future__ import annotations

from collections.abc import Sequence

from engine.blueprint import parse_blueprint
from engine.edit.apply import apply_edit
from engine.edit.edits import AddPoint, PointSpec
from engine.edit.layout import Layout
from engine.edit.nodes import EditError
from engine.errors import BlueprintError

__all__ = ["add_should_points"]


def add_should_points(text: str, prompt_id: str, points: Sequence[str]) -> str:
    """Return `text` with `points` added as plain `should` points of the prompt `prompt_id`.

    Every byte outside that prompt's `should` list is kept. Points it already has (the same
    text) are not added twice.

    Raises:
        EditError: The text does not parse, has no prompt with this id, or that prompt is
            written in a way only the YAML view can change; the message says what to do.
    """
    try:
        blueprint = parse_blueprint(text)
    except BlueprintError as exc:
        raise EditError(f"The blueprint cannot be read, so nothing was added ({exc}).") from None
    index = next((i for i, p in enumerate(blueprint.prompts) if p.id == prompt_id), None)
    if index is None:
        raise EditError(
            f"The blueprint has no prompt with the id '{prompt_id}' any more, so the points "
            "were not added. Open the version the run used, or add them by hand."
        )
    have = {p.text for p in blueprint.prompts[index].points if p.fn is None}
    layout: Layout | None = None
    for point in dict.fromkeys(points):
        if point in have:
            continue
        applied = apply_edit(text, AddPoint(prompt=index, point=PointSpec(text=point)), layout)
        text, layout = applied.text, applied.layout
    return text
