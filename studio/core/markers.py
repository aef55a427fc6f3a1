"""Lint diagnostics as Ace annotations (gutter icons) and markers, and the editor's Ace settings.

The engine's positions are 1-based with an exclusive end; Ace's rows and columns are 0-based.
Ace escapes an annotation's `text` before showing it, so the message needs no escaping here
(never pass `html`). Pure: no Streamlit import.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, TypedDict

from engine.lint import Diagnostic
from studio.core.textsafe import plain_words

__all__ = [
    "EDITOR_OPTIONS",
    "KEYBINDINGS",
    "MARKER_CSS",
    "SEVERITY_WORDS",
    "Annotation",
    "Marker",
    "counts",
    "editor_props",
    "summary",
    "to_annotations",
    "to_markers",
]

SEVERITY_WORDS: dict[str, str] = {
    "error": "Error",
    "warning": "Warning",
    "info": "Note",
}
"""How each severity is named on screen."""

MARKER_CSS = """
.bp-marker-error { position: absolute; border-bottom: 2px solid #d93025; }
.bp-marker-warning { position: absolute; border-bottom: 2px dashed #e37400; }
.bp-marker-info { position: absolute; border-bottom: 1px dotted #1a73e8; }
.ace_editor, .ace_scroller, .ace_gutter { overflow: clip !important; }
"""
"""CSS injected into the editor's iframe: the marker classes, and Ace's panes made unscrollable.

Ace scrolls its text and gutter itself and keeps its panes at `overflow: hidden`, which
Chromium may still scroll natively: after select-all, Delete and typing new lines the text pane
was found scrolled by 15 px (the editor's top margin) while the gutter was not, so the line
numbers and marks sat a row below their lines. `overflow: clip` looks the same and lets nothing
scroll those panes.
"""


class Annotation(TypedDict):
    """One gutter annotation as Ace expects it."""

    row: int
    column: int
    type: Literal["error", "warning", "info"]
    text: str


class Marker(TypedDict):
    """One range marker as react-ace expects it."""

    startRow: int
    startCol: int
    endRow: int
    endCol: int
    className: str
    type: str


def _text(d: Diagnostic) -> str:
    fix = f" Fix: {plain_words(d.fix.title)}." if d.fix is not None else ""
    return f"{SEVERITY_WORDS[d.severity]}: {plain_words(d.message)}{fix}"


def to_annotations(diagnostics: Iterable[Diagnostic]) -> list[Annotation]:
    """Return one gutter annotation per diagnostic, at its start (0-based row and column)."""
    return [
        Annotation(
            row=max(d.line - 1, 0),
            column=max(d.column - 1, 0),
            type=d.severity,
            text=_text(d),
        )
        for d in diagnostics
    ]


def to_markers(diagnostics: Iterable[Diagnostic]) -> list[Marker]:
    """Return one underline per diagnostic over its range (at least one character wide)."""
    out: list[Marker] = []
    for d in diagnostics:
        start_row, start_col = max(d.line - 1, 0), max(d.column - 1, 0)
        end_row, end_col = max(d.end_line - 1, 0), max(d.end_column - 1, 0)
        if (end_row, end_col) <= (start_row, start_col):
            end_row, end_col = start_row, start_col + 1
        out.append(
            Marker(
                startRow=start_row,
                startCol=start_col,
                endRow=end_row,
                endCol=end_col,
                className=f"bp-marker-{d.severity}",
                type="text",
            )
        )
    return out


def counts(diagnostics: Sequence[Diagnostic]) -> dict[str, int]:
    """Return the number of diagnostics per severity (every severity present, maybe 0)."""
    out = dict.fromkeys(SEVERITY_WORDS, 0)
    for d in diagnostics:
        out[d.severity] += 1
    return out


def summary(diagnostics: Sequence[Diagnostic]) -> str:
    """One plain sentence: "No problems found." or "2 errors, 1 warning and 1 note."."""
    found = counts(diagnostics)
    parts = [
        f"{n} {word}{'s' if n != 1 else ''}"
        for n, word in (
            (found["error"], "error"),
            (found["warning"], "warning"),
            (found["info"], "note"),
        )
        if n
    ]
    if not parts:
        return "No problems found."
    if len(parts) == 1:
        return parts[0][0].upper() + parts[0][1:] + "."
    return ", ".join(parts[:-1]) + " and " + parts[-1] + "."


KEYBINDINGS: dict[str, Any] = {
    # The component binds Esc to its own "exitSession" (leave its keybinding/snippet editors),
    # which swallowed the key: with Ace's keyboard accessibility on, Esc must leave the text so
    # that Tab moves on through the page instead of indenting forever (a keyboard trap).
    "commands": [{"name": "exitSession", "bindkey": {"win": "Ctrl-Alt-Shift-F12", "mac": ""}}],
}
"""Key bindings changed from the editor component's defaults (its `keybindings` argument)."""


EDITOR_OPTIONS: dict[str, Any] = {
    "useWorker": False,  # the YAML worker erases our annotations
    "wrap": True,
    "showPrintMargin": False,
    "tabSize": 2,
    "useSoftTabs": True,
    # Enter starts the new line at the left edge: a person types a line's indentation (or
    # presses Tab), so text typed line by line comes out as typed instead of piling each
    # line's indentation onto the next (`---` drifting right)
    "enableAutoIndent": False,
    # typing `"` inserts one quote: auto-pairing made it `""` (and a YAML error) when the
    # closing quote was typed
    "behavioursEnabled": False,
    "wrapBehavioursEnabled": False,
    "fontSize": 14,
    "showLineNumbers": True,
    "showGutter": True,
    # Esc leaves the text (Tab then moves on through the page); Enter comes back
    "enableKeyboardAccessibility": True,
}
"""Ace's options for the blueprint editor (the component's `options` argument)."""


def editor_props(diagnostics: Sequence[Diagnostic], theme: str = "github") -> dict[str, Any]:
    """The `props` of the code editor: a stock Ace theme (no web fonts), annotations, markers.

    What a person types is what the text holds:
    - completion is off: the component's default live completion offered words of the document
      and took them on Enter, so typing `- id: th` and Enter gave `- id: three` and no new line;
    - every key reaches the text of record at once (`debounceChangePeriod` 0): with the
      component's 250 ms debounce, new marks arriving from the server while keys were still
      waiting reset the editor to its last reported text, and those keys were lost;
    - `tabSize` is 2 here too: the component's default props carry 4 (react-ace applies it
      before our options), and with 4 Tab from column 2 adds 2 spaces but Shift+Tab takes 4.
    The editing behaviour itself (no auto-indent, no auto-pairing) is in `EDITOR_OPTIONS`.
    """
    return {
        "theme": theme,
        "annotations": to_annotations(diagnostics),
        "markers": to_markers(diagnostics),
        "enableLiveAutocompletion": False,
        "enableBasicAutocompletion": False,
        "enableSnippets": False,
        "debounceChangePeriod": 0,
        "tabSize": EDITOR_OPTIONS["tabSize"],
    }
