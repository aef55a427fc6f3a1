"""Structural edits on blueprint YAML that keep every byte outside the edited node.

May import: `engine.lint` and everything below it; never `engine.report` or the command line.

`apply(text, edit)` makes one edit from the vocabulary in `engine.edit.edits`; `EditSession`
keeps a text, its layout and its lint diagnostics up to date edit by edit; `form_model`
describes what the studio's form shows and what only the YAML view can change.
"""

from engine.edit.apply import Applied, apply, apply_edit
from engine.edit.edits import (
    AddAlternative,
    AddPoint,
    AddPrompt,
    DeletePoint,
    DeletePrompt,
    DuplicatePoint,
    DuplicatePrompt,
    Edit,
    EditPoint,
    GroupPoints,
    MoveIntoBlock,
    MoveOutOfBlock,
    MovePoint,
    MovePrompt,
    PointRef,
    PointSpec,
    SetHeader,
    SetMessages,
    SetPointWeight,
    SetPromptField,
    ToggleInverted,
)
from engine.edit.layout import Layout
from engine.edit.nodes import EditError
from engine.edit.session import EditSession

__all__ = [
    "AddAlternative",
    "AddPoint",
    "AddPrompt",
    "Applied",
    "DeletePoint",
    "DeletePrompt",
    "DuplicatePoint",
    "DuplicatePrompt",
    "Edit",
    "EditError",
    "EditPoint",
    "EditSession",
    "GroupPoints",
    "Layout",
    "MoveIntoBlock",
    "MoveOutOfBlock",
    "MovePoint",
    "MovePrompt",
    "PointRef",
    "PointSpec",
    "SetHeader",
    "SetMessages",
    "SetPointWeight",
    "SetPromptField",
    "ToggleInverted",
    "apply",
    "apply_edit",
]
