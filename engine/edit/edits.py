"""The edit vocabulary: one small frozen dataclass per change the form can make.

Prompts are addressed by their position in the blueprint (0-based, file order); points by
`PointRef`: the prompt, `should` or `should_not`, the item's position in that list, and for a
point inside an alternative path ("any one of these" block) its position in the block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "AddPoint",
    "AddPrompt",
    "DeletePoint",
    "DeletePrompt",
    "DuplicatePoint",
    "DuplicatePrompt",
    "Edit",
    "EditPoint",
    "GroupPoints",
    "MoveIntoBlock",
    "MoveOutOfBlock",
    "MovePoint",
    "MovePrompt",
    "PointEdit",
    "PointRef",
    "PointSpec",
    "SetHeader",
    "SetMessages",
    "SetPointWeight",
    "SetPromptField",
    "ToggleInverted",
]


@dataclass(frozen=True, slots=True)
class PointSpec:
    """A point as the form edits it: judged `text`, or a function `fn` with `args`.

    Attributes:
        text: The criterion an LLM judge checks (None for a function point).
        fn: The function name without `$` (None for a text point).
        args: The function's argument; ignored when `has_args` is False.
        has_args: Whether the function takes an argument (`$is_json` takes none).
        weight: The point's weight (None means the default, 1).
        citation: A citation string, or None.
    """

    text: str | None = None
    fn: str | None = None
    args: Any = None
    has_args: bool = True
    weight: float | None = None
    citation: str | None = None

    def to_yaml(self, *, in_block: bool = False) -> Any:
        """The plain value to write for this point (a string or a mapping).

        Inside a block, a string is always judged text, so a function is written `fn: name`.
        """
        extra: dict[str, Any] = {}
        if self.weight is not None and self.weight != 1:
            extra["weight"] = self.weight
        if self.citation:
            extra["citation"] = self.citation
        if self.fn is None:
            text = self.text or ""
            looks_like_function = not in_block and text.startswith("$") and len(text) > 1
            return {"text": text, **extra} if extra or looks_like_function else text
        if self.has_args:
            return {f"${self.fn}": self.args, **extra}
        if not extra and not in_block:
            return f"${self.fn}"
        return {"fn": self.fn, **extra}


@dataclass(frozen=True, slots=True)
class PointRef:
    """Where a point is: prompt, list (`inverted` for `should_not`), item, and block position."""

    prompt: int
    index: int
    inverted: bool = False
    sub: int | None = None


@dataclass(frozen=True, slots=True)
class SetHeader:
    """Set a header field (`title`, `description`, `models`, ...); None removes it."""

    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class AddPrompt:
    """Add a prompt (its fields as plain values) at position `at` (None: at the end)."""

    fields: dict[str, Any]
    at: int | None = None


@dataclass(frozen=True, slots=True)
class DuplicatePrompt:
    """Copy a prompt (its text, comments included) right after itself, with a new id."""

    prompt: int
    new_id: str


@dataclass(frozen=True, slots=True)
class DeletePrompt:
    """Remove a prompt."""

    prompt: int


@dataclass(frozen=True, slots=True)
class MovePrompt:
    """Move a prompt so that it ends up at position `to`."""

    prompt: int
    to: int


@dataclass(frozen=True, slots=True)
class SetPromptField:
    """Set a prompt field (`id`, `prompt`, `ideal`, `system`, `weight`, `citation`, ...).

    None removes the field.
    """

    prompt: int
    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class SetMessages:
    """Set the conversation: one user turn is written `prompt:`, more turns `messages:`.

    Each turn is `(role, content)`; content None is `assistant: null` (the model answers).
    """

    prompt: int
    messages: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True)
class AddPoint:
    """Add a point at the end of `should` (or `should_not`), or of block `block`."""

    prompt: int
    point: PointSpec
    inverted: bool = False
    block: int | None = None


@dataclass(frozen=True, slots=True)
class EditPoint:
    """Replace a point with a new one."""

    ref: PointRef
    point: PointSpec


@dataclass(frozen=True, slots=True)
class SetPointWeight:
    """Set a point's weight (None or 1: the default)."""

    ref: PointRef
    weight: float | None


@dataclass(frozen=True, slots=True)
class DuplicatePoint:
    """Copy a point (or a whole block) right after itself."""

    ref: PointRef


@dataclass(frozen=True, slots=True)
class DeletePoint:
    """Remove a point (a block left empty is removed too)."""

    ref: PointRef


@dataclass(frozen=True, slots=True)
class MovePoint:
    """Move a point within its list (or within its block) to position `to`."""

    ref: PointRef
    to: int


@dataclass(frozen=True, slots=True)
class ToggleInverted:
    """Move a point from `should` to `should_not` or back (added at the end of the other)."""

    ref: PointRef


@dataclass(frozen=True, slots=True)
class GroupPoints:
    """Make several points the alternatives of an "any one of these" block.

    Each point becomes its own alternative (a nested list of one point), all placed where the
    first of them was; a picked alternative stays as it is. Weval scores the block as its best
    alternative, so an answer that meets any one of the points gets the block's full score.
    """

    prompt: int
    indices: tuple[int, ...]
    inverted: bool = False


@dataclass(frozen=True, slots=True)
class AddAlternative:
    """Add an alternative (a new path of one point) to the list's "any one of these" block.

    It goes right after the list's last path (at the end when there is none yet).
    """

    prompt: int
    point: PointSpec
    inverted: bool = False


@dataclass(frozen=True, slots=True)
class MoveIntoBlock:
    """Move a point (not in a block) into alternative `block` of the same list, at its end.

    The point joins that alternative: both are then needed for it (their scores averaged).
    """

    ref: PointRef
    block: int


@dataclass(frozen=True, slots=True)
class MoveOutOfBlock:
    """Move a point out of its block; it becomes a required point right after the block."""

    ref: PointRef


PointEdit = (
    AddPoint
    | AddAlternative
    | DuplicatePoint
    | EditPoint
    | SetPointWeight
    | DeletePoint
    | MovePoint
    | ToggleInverted
    | GroupPoints
    | MoveIntoBlock
    | MoveOutOfBlock
)
"""An edit to the points of one prompt."""

Edit = (
    SetHeader
    | AddPrompt
    | DuplicatePrompt
    | DeletePrompt
    | MovePrompt
    | SetPromptField
    | SetMessages
    | PointEdit
)
"""Any edit `engine.edit.apply` accepts."""
