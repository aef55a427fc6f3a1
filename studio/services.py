"""The studio's only cache layer: every `st.cache_*` wrapper around engine calls lives here.

Rules:
- The store is cached per database path (`$BLUEPRINT_HOME` may differ between tests).
- Lint and parse results are cached on the text, so a rerun never parses twice.
- Only completed runs are cached (by run id); a running run is read fresh on every poll.
- Cached objects are shared between sessions: treat them as read-only.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

import streamlit as st

from engine.blueprint import Blueprint, parse_blueprint
from engine.checks import CheckEnv
from engine.comparison import read_comparison
from engine.errors import BlueprintError, ConfigError, InputError
from engine.jsonl import json_error_words, loads_like_js
from engine.lint import Diagnostic, lint
from engine.providers.collections import model_collections
from engine.run import stored_comparison
from engine.settings import home_dir, load_settings
from engine.store import JudgmentRow, RunRecord, Store, open_store
from studio.core.gallery import Example, load_examples
from studio.core.resultdata import Results
from studio.core.textdiff import LineDiff, line_diff

__all__ = [
    "RunView",
    "blueprint_of_run",
    "check_env",
    "collections",
    "examples",
    "lint_text",
    "parse",
    "prompt_ids",
    "read_uploaded",
    "run_view",
    "store",
    "version_diff",
]


@st.cache_resource(show_spinner=False)
def _store(path: str | None) -> Store:
    return open_store(path)


def store() -> Store:
    """The team store of `BLUEPRINT_DATABASE_URL` when set, else the SQLite file in `$BLUEPRINT_HOME`."""
    if os.environ.get("BLUEPRINT_DATABASE_URL", "").strip():
        return _store(None)  # open_store reads (and checks) the address
    return _store(str(home_dir() / "studio.db"))


@st.cache_data(max_entries=64, show_spinner=False)
def lint_text(text: str, source: str | None = None) -> list[Diagnostic]:
    """The linter's diagnostics for a text (cached on the text)."""
    return lint(text, source=source)


@st.cache_resource(max_entries=32, show_spinner=False)
def parse(text: str, source: str | None = None) -> Blueprint | BlueprintError:
    """The parsed blueprint, or the error that stops parsing (cached on the text)."""
    try:
        return parse_blueprint(text, source=source)
    except BlueprintError as exc:
        return exc


def prompt_ids(text: str) -> set[str]:
    """The prompt ids of a blueprint text (empty when it does not parse)."""
    parsed = parse(text)
    return {p.id for p in parsed.prompts} if isinstance(parsed, Blueprint) else set()


def collections() -> dict[str, tuple[str, ...]]:
    """The model collections (shipped, and `[collections]` of the user's settings)."""
    try:
        settings = load_settings()
    except ConfigError:  # an unusable settings file: the shipped collections still work
        settings = None
    return model_collections(settings)


@st.cache_resource(show_spinner=False)
def check_env() -> CheckEnv:
    """The services point functions may use (settings from `$BLUEPRINT_HOME`)."""
    return CheckEnv(settings=load_settings())


@st.cache_data(show_spinner=False)
def examples() -> list[Example]:
    """The example blueprints of the gallery."""
    return load_examples()


def blueprint_of_run(run: RunRecord) -> Blueprint | None:
    """The blueprint a stored run was started with (None if missing or unreadable)."""
    text = store().blueprint_text(run.blueprint_hash)
    if text is None:
        return None
    result = parse(text, run.options.get("source"))
    return result if isinstance(result, Blueprint) else None


@dataclass(frozen=True)
class RunView:
    """A stored run and its results so far (None when it has no readable blueprint)."""

    run: RunRecord
    results: Results | None


@st.cache_resource(max_entries=8, show_spinner=False)
def _completed_results(db: str, run_id: str, summary: str) -> Results | None:
    # `summary` names the run's executive summary: one written later (`blueprint summarize`)
    # is a new entry, so the page shows it.
    return _load_results(run_id)


def _load_results(run_id: str) -> Results | None:
    run = store().get_run(run_id)
    if run is None:
        return None
    blueprint = blueprint_of_run(run)
    if blueprint is None:
        return None
    rows = store().cells(run_id)
    comparison = stored_comparison(store(), run_id, blueprint, rows)
    complete = run.live_status == "completed"  # else a missing cell may still come
    results = Results.from_comparison(comparison, rows, run_id, complete=complete)
    summary = store().executive_summary(run_id)
    if summary is not None:
        results.comparison.extra["executiveSummary"] = summary
    return results


def run_view(run_id: str) -> RunView | None:
    """A run and its results: cached once completed, read fresh while it can still change."""
    run = store().get_run(run_id)
    if run is None:
        return None
    if run.live_status == "completed":
        written = store().executive_summary(run_id)
        stamp = hashlib.sha256(json.dumps(written, sort_keys=True).encode()).hexdigest()
        return RunView(run, _completed_results(store().location, run_id, stamp))
    return RunView(run, _load_results(run_id) if run.done_cells else None)


def warm_recent_results(limit: int = 2) -> None:
    """Read the results of the latest `limit` completed runs into the cache (a fresh start).

    A link is most often to a run just made: after a restart its page then finds the
    results read. The same cache and key as `run_view`, so nothing else changes.
    """
    done = [r for r in store().list_runs(limit=20) if r.live_status == "completed"]
    for run in done[:limit]:
        run_view(run.id)


@st.cache_data(max_entries=16, show_spinner=False)
def version_diff(db: str, draft_id: str, old: tuple[int, str], new: tuple[int, str]) -> LineDiff:
    """The line diff between two versions of a draft, each named by `(number, updated_at)`.

    A version changes only with its `updated_at` (typing amends the latest one), so the
    pair names the texts: reruns while the user types elsewhere neither read nor diff again.
    """
    before = store().draft_version_text(draft_id, old[0]) or ""
    after = store().draft_version_text(draft_id, new[0]) or ""
    return line_diff(before, after, f"version {old[0]}", f"version {new[0]}")


def judgments(run_id: str, prompt_id: str, model_id: str) -> list[JudgmentRow]:
    """The raw judge answers of one cell (read on demand, not cached)."""
    return store().judgments(run_id, prompt_id, model_id)


def read_uploaded(data: bytes, name: str) -> Results:
    """Read an uploaded comparison JSON file (ours or Weval's).

    Raises:
        InputError: The file is not JSON or not a comparison; the message says what to do.
    """
    try:
        raw = loads_like_js(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"{name}: this file is not UTF-8 text; save it as UTF-8 JSON.") from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{name}:{exc.lineno}:{exc.colno}: this file is not JSON "
            f"({json_error_words(exc)}). Open a `*_comparison.json` written by Blueprint Studio "
            "or by Weval."
        ) from None
    except (ValueError, RecursionError):
        raise InputError(
            f"{name}: this file nests too deeply or holds a number too long to read. Open a "
            "`*_comparison.json` written by Blueprint Studio or by Weval."
        ) from None
    if not isinstance(raw, dict):
        raise InputError(
            f"{name}: this is not a comparison JSON file (the top level is not an object). "
            "Open a `*_comparison.json` written by Blueprint Studio or by Weval."
        )
    try:
        return Results(read_comparison(raw))
    except InputError as exc:
        raise InputError(str(exc).replace("comparison:", f"{name}:", 1)) from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise InputError(
            f"{name}: this comparison file has an entry of the wrong shape ({type(exc).__name__}). "
            "Open a `*_comparison.json` written by Blueprint Studio or by Weval."
        ) from None
