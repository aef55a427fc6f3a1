"""`EditSession`: a blueprint text, its layout and its lint diagnostics, kept current per edit.

After an edit inside one prompt, only that prompt is linted again: the linter reads the header
and the edited prompt alone, at their own lines (the other prompts are replaced by blank
lines), and the diagnostics of every other prompt move by the number of lines added or
removed. Whenever that could differ from linting the whole text (a rule that looks across
prompts, a syntax error, a header edit, prompts added or moved), the whole text is linted.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.edit.apply import Applied, apply_edit
from engine.edit.edits import Edit, SetPromptField
from engine.edit.layout import Layout
from engine.lint import Diagnostic, lint
from engine.settings import Settings

__all__ = ["MAX_UNDO", "EditSession"]

MAX_UNDO = 100
"""How many earlier versions `undo` can go back to."""
MAX_UNDO_CHARS = 32_000_000
"""At most this much earlier text is kept for undo (the oldest versions go first)."""

_CROSS_PROMPT = frozenset({"yaml-syntax", "duplicate-id", "missing-id", "duplicate-key"})
"""Codes whose message or fix depends on other prompts (or on line numbers elsewhere)."""
_STALE_ELSEWHERE = frozenset({"yaml-syntax", "duplicate-id", "duplicate-key"})
"""Codes that, anywhere in the old diagnostics, make moved diagnostics unreliable."""


@dataclass(frozen=True, slots=True)
class _Version:
    text: str
    layout: Layout | None
    diagnostics: tuple[Diagnostic, ...]


class EditSession:
    """One draft being edited through the form.

    Attributes:
        text: The current text.
        diagnostics: The linter's diagnostics for `text` (equal to `lint(text)`).
    """

    def __init__(
        self,
        text: str,
        *,
        source: str | None = None,
        settings: Settings | None = None,
        diagnostics: list[Diagnostic] | None = None,
    ) -> None:
        """Start editing `text` (`diagnostics`, if given, must be `lint(text)`)."""
        self.source = source
        self.settings = settings
        self.text = text
        self.diagnostics: tuple[Diagnostic, ...] = tuple(
            diagnostics if diagnostics is not None else self._lint(text)
        )
        self._layout: Layout | None = None
        self._undo: list[_Version] = []
        self.full_lints = 0
        """How many edits needed the whole text linted (for tests and benchmarks)."""

    def _lint(self, text: str) -> list[Diagnostic]:
        return lint(text, source=self.source, settings=self.settings)

    @property
    def layout(self) -> Layout:
        """Where the header and each prompt are written (computed once, then kept current)."""
        if self._layout is None:
            self._layout = Layout.of(self.text)
        return self._layout

    @property
    def can_undo(self) -> bool:
        """Whether there is an edit to undo."""
        return bool(self._undo)

    def apply(self, edit: Edit) -> str:
        """Make `edit`, re-lint, and return the new text.

        Raises:
            EditError: The edit cannot be made; nothing changes.
        """
        applied = apply_edit(self.text, edit, self.layout)
        if applied.text == self.text:
            return self.text
        before = _Version(self.text, self._layout, self.diagnostics)
        self.diagnostics = tuple(self._relint(before, applied, edit))
        self.text, self._layout = applied.text, applied.layout
        self._remember(before)
        return self.text

    def set_text(self, text: str, diagnostics: list[Diagnostic] | None = None) -> None:
        """Take a change made outside the form (the YAML view, a fix) as one undoable step.

        `diagnostics`, if given, must be `lint(text)` (the studio passes its cached lint).
        """
        if text == self.text:
            return
        before = _Version(self.text, self._layout, self.diagnostics)
        self._remember(before)
        self.text, self._layout = text, None
        self.diagnostics = tuple(diagnostics if diagnostics is not None else self._lint(text))

    def _remember(self, version: _Version) -> None:
        self._undo = [*self._undo[-(MAX_UNDO - 1) :], version]
        kept = sum(len(v.text) for v in self._undo)
        while len(self._undo) > 1 and kept > MAX_UNDO_CHARS:
            kept -= len(self._undo.pop(0).text)

    def undo(self) -> str:
        """Go back to the text before the last edit (and its diagnostics); return it."""
        if self._undo:
            version = self._undo.pop()
            self.text, self._layout, self.diagnostics = (
                version.text,
                version.layout,
                version.diagnostics,
            )
        return self.text

    def _relint(self, before: _Version, applied: Applied, edit: Edit) -> list[Diagnostic]:
        layout, index, new_layout = before.layout, applied.prompt, applied.layout
        if (
            index is None
            or layout is None
            or new_layout is None
            or layout.kind not in ("header+list", "list")
            or not layout.block
            or (self.source or "").lower().endswith(".json")
            or (isinstance(edit, SetPromptField) and edit.key == "id")
            or any(d.code in _STALE_ELSEWHERE for d in before.diagnostics)
        ):
            self.full_lints += 1
            return self._lint(applied.text)
        return self._relint_prompt(before, applied.text, layout, new_layout, index)

    def _relint_prompt(
        self, before: _Version, text: str, old: Layout, new: Layout, index: int
    ) -> list[Diagnostic]:
        old_start, old_end = old.regions[index]
        start, end = new.regions[index]
        first = new.regions[0][0]
        head = text[:first]
        if old.kind == "list":
            head = ""
        pad = "\n" * text.count("\n", len(head), start)
        mini = head + pad + text[start:end]
        line_from = text.count("\n", 0, start) + 1
        line_to = (
            line_from + text.count("\n", start, end) - (1 if text[start:end].endswith("\n") else 0)
        )
        old_from = before.text.count("\n", 0, old_start) + 1
        old_to = (
            old_from
            + before.text.count("\n", old_start, old_end)
            - (1 if before.text[old_start:old_end].endswith("\n") else 0)
        )
        delta = line_to - old_to
        inside = [d for d in self._lint(mini) if line_from <= d.line <= line_to]
        if any(d.code in _CROSS_PROMPT for d in inside):
            self.full_lints += 1
            return self._lint(text)
        above = [d for d in before.diagnostics if d.line < old_from]
        below = [d.moved(delta) for d in before.diagnostics if d.line > old_to]
        return [*above, *inside, *below]
