"""Helpers for the lint tests: lint strictly (a crashing rule fails the test) and find diagnostics."""

from __future__ import annotations

from engine.lint import Diagnostic
from engine.lint.run import run_lint
from engine.settings import Settings

SETTINGS = Settings()


def lint_strict(text: str, **kw) -> list[Diagnostic]:
    """Lint with default settings, re-raising any exception inside a rule."""
    kw.setdefault("settings", SETTINGS)
    return run_lint(text, strict=True, **kw)


def span(d: Diagnostic) -> tuple[int, int, int, int]:
    return (d.line, d.column, d.end_line, d.end_column)


def codes(text: str, **kw) -> list[str]:
    return [d.code for d in lint_strict(text, **kw)]


def find(text: str, code: str, **kw) -> list[Diagnostic]:
    return [d for d in lint_strict(text, **kw) if d.code == code]
