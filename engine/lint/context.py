"""What every rule sees: the text, the header, the prompts and points, and where to report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.blueprint.prompts import NormalizedPrompt
from engine.blueprint.source import Span, YList, YMap
from engine.js.values import js_truthy
from engine.lint.diagnostics import CODES, Diagnostic, Fix, Severity
from engine.lint.text import SourceText
from engine.settings import Settings, load_settings

__all__ = ["POINT_KEYS", "LintContext", "PointRef", "PromptRef"]

POINT_KEYS = ("should", "points", "expect", "expects", "expectations")
"""The aliases of `should`, in the order Weval picks the first truthy one."""


@dataclass(slots=True)
class PromptRef:
    """One prompt as written, with where it is and (if the parser accepted it) its normal form."""

    raw: dict[str, Any]
    span: Span
    index: int
    normalized: NormalizedPrompt | None = None
    damaged: bool = False
    """Part of the prompt was dropped after a syntax error: do not report what seems missing."""


@dataclass(slots=True)
class PointRef:
    """One rubric item as written: a required point, or one point of an alternative path."""

    prompt: PromptRef
    key: str
    container: list[Any]
    index: int
    value: Any
    span: Span
    path: int | None = None

    @property
    def inverted(self) -> bool:
        """True for items under `should_not`."""
        return self.key == "should_not"


@dataclass(slots=True)
class PendingParserError:
    """A parser error, reported unless a more specific rule already explains it."""

    diagnostic: Diagnostic
    covered_by: str | None
    scope: tuple[int, int]


@dataclass
class LintContext:
    """The loaded blueprint and the diagnostics found so far."""

    src: SourceText
    fmt: Literal["yaml", "json"]
    settings_given: Settings | None = None
    strict: bool = False
    header: dict[str, Any] = field(default_factory=dict)
    header_span: Span = field(default_factory=lambda: Span(1, 1, 1, 1))
    prompts: list[PromptRef] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    pending: list[PendingParserError] = field(default_factory=list)
    blanked: list[tuple[int, int]] = field(default_factory=list)
    _points: list[PointRef] | None = None
    _by_prompt: dict[int, list[PointRef]] | None = None
    _settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        """The settings given to `lint`, else the user's settings (defaults if unreadable)."""
        if self.settings_given is not None:
            return self.settings_given
        if self._settings is None:
            try:
                self._settings = load_settings()
            except Exception:  # an unreadable settings file must not stop the linter
                self._settings = Settings()
        return self._settings

    # --- reporting -------------------------------------------------------------------

    def add(
        self,
        code: str,
        span: Span,
        message: str,
        *,
        fix: tuple[str, str] | None = None,
        severity: Severity | None = None,
        neutral: bool = False,
        alternatives: tuple[Fix, ...] = (),
        fix_span: tuple[int, int, int, int] | None = None,
    ) -> None:
        """Report a diagnostic.

        Args:
            code: Its code (in `CODES`).
            span: The range of text it covers.
            message: What is wrong, in plain words.
            fix: (title, replacement) for the span's exact range.
            severity: Instead of the code's own severity.
            neutral: The fix cannot change a score (`Fix.score_neutral`).
            alternatives: Other fixes of the same range.
            fix_span: The range the fix replaces, when it is not `span`.
        """
        yaml = self.fmt == "yaml"
        self.diagnostics.append(
            Diagnostic(
                line=span.line,
                column=span.column,
                end_line=span.end_line,
                end_column=span.end_column,
                severity=severity or CODES[code].severity,
                code=code,
                message=message,
                fix=Fix(title=fix[0], replacement=fix[1], score_neutral=neutral, span=fix_span)
                if fix is not None and yaml
                else None,
                alternatives=alternatives if yaml else (),
            )
        )

    # --- positions -------------------------------------------------------------------

    def key_span(self, container: Any, key: str, fallback: Span) -> Span:
        """Where `key` is written in a mapping (the fallback for unlocated values)."""
        if isinstance(container, YMap) and key in container.key_spans:
            return container.key_spans[key]
        return fallback

    def value_span(self, container: Any, key: str, fallback: Span) -> Span:
        """Where the value of `key` is written, ending at its last character."""
        if isinstance(container, YMap) and key in container.value_spans:
            return self.src.extent(container.get(key), container.value_spans[key])
        return fallback

    def entry_span(self, container: Any, key: str, fallback: Span) -> Span:
        """The whole `key: value` entry."""
        if isinstance(container, YMap) and key in container.key_spans:
            return self.src.through(
                container.key_spans[key], self.value_span(container, key, fallback)
            )
        return fallback

    def item_span(self, container: Any, index: int, fallback: Span) -> Span:
        """Where item `index` of a list is written, ending at its last character."""
        if isinstance(container, YList) and 0 <= index < len(container.item_spans):
            return self.src.extent(container[index], container.item_spans[index])
        return fallback

    def extent(self, value: Any, span: Span) -> Span:
        """The span of a node, ending at its last character."""
        return self.src.extent(value, span)

    def anchor(self, prompt: PromptRef) -> Span:
        """A short span that stands for a prompt: its first `key: value` when on one line."""
        raw = prompt.raw
        if isinstance(raw, YMap) and raw.key_spans:
            first = min(raw.key_spans, key=lambda k: raw.key_spans[k][:2])
            key = raw.key_spans[first]
            value = self.value_span(raw, first, key)
            if value.end_line == key.line and not isinstance(raw.get(first), YList | YMap):
                return self.src.through(key, value)
            return key
        return self.src.trim(Span(prompt.span.line, prompt.span.column, prompt.span.line, 10**6))

    # --- the rubric items --------------------------------------------------------------

    @property
    def points(self) -> list[PointRef]:
        """Every rubric item of every prompt (the used `should` alias, then `should_not`)."""
        if self._points is None:
            self._points = [p for prompt in self.prompts for p in _prompt_points(prompt)]
        return self._points

    def points_of(self, prompt: PromptRef, key: str | None = None) -> list[PointRef]:
        """The rubric items of one prompt (only those under `key`, if given)."""
        if self._by_prompt is None:
            self._by_prompt = {}
            for point in self.points:
                self._by_prompt.setdefault(id(point.prompt), []).append(point)
        found = self._by_prompt.get(id(prompt), [])
        return found if key is None else [p for p in found if p.key == key]


def used_point_key(raw: dict[str, Any]) -> str | None:
    """The `should` alias Weval reads: the first one with a truthy value."""
    return next((key for key in POINT_KEYS if js_truthy(raw.get(key))), None)


def _prompt_points(prompt: PromptRef) -> list[PointRef]:
    out: list[PointRef] = []
    keys = [k for k in (used_point_key(prompt.raw), "should_not") if k is not None]
    for key in keys:
        items = prompt.raw.get(key)
        if not isinstance(items, list):
            continue
        fallback = prompt.span
        kept = 0
        for i, item in enumerate(items):
            span = (
                items.item_spans[i]
                if isinstance(items, YList) and i < len(items.item_spans)
                else fallback
            )
            if isinstance(item, list):
                elements = [
                    (j, e)
                    for j, e in enumerate(item)
                    if not (e is None or (isinstance(e, list) and not e))
                ]
                if not elements:
                    continue
                for j, element in elements:
                    if isinstance(element, str | dict):
                        inner = (
                            item.item_spans[j]
                            if isinstance(item, YList) and j < len(item.item_spans)
                            else span
                        )
                        out.append(PointRef(prompt, key, item, j, element, inner, kept))
            elif isinstance(item, str | dict):
                out.append(PointRef(prompt, key, items, i, item, span, None))
            kept += 1
    return out
