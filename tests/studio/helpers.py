"""Shared helpers of the studio tests: stored runs made by the engine, an AppTest factory."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

from engine.run import RunOptions
from engine.run.service import run_sync
from engine.store import Store
from studio.core import runs
from studio.navigation import APP
from studio.page_errors import RAISE_KEY

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def make_run(
    store: Store,
    text: str,
    models: list[str],
    *,
    environ: Mapping[str, str] | None = None,
    judges: list[str] | None = None,
    judge: bool = False,
    source: str = "blueprint.yml",
) -> str:
    """Run a blueprint to the end through the engine's pipeline; return the run id."""
    # The studio's own way of preparing (it copes with offline models such as `ideal`).
    prepared = runs.prepare(
        store,
        text,
        source,
        models=models,
        judges=judges,
        judge=judge,
        options=RunOptions(concurrency=8),
        record=True,
        environ=environ,
    )
    assert not prepared.problems, prepared.problems
    assert prepared.run_id is not None
    run_sync(prepared.run_id, prepared.plan, store, prepared.options, environ=environ)
    return prepared.run_id


def wait_for_status(store: Store, run_id: str, statuses: tuple[str, ...], timeout: float = 30.0):
    """Poll the store until the run's live status is one of `statuses`."""
    deadline = time.monotonic() + timeout
    while True:
        run = store.get_run(run_id)
        assert run is not None
        if run.live_status in statuses:
            return run
        if time.monotonic() > deadline:
            raise AssertionError(f"run {run_id} is {run.live_status}, not one of {statuses}")
        time.sleep(0.05)


def app() -> AppTest:
    """A fresh AppTest of the studio's entry script; a page that fails raises (`at.exception`)."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.session_state[RAISE_KEY] = True
    return at


def plain(markdown: str) -> str:
    """Markdown escaped by `safe_markdown`, read back as the text it shows."""
    return re.sub(r"\\(.)", r"\1", markdown)


def texts(at: AppTest, kind: str) -> list[str]:
    """What every element of one kind shows (markdown, caption, error, info, ...), unescaped."""
    return [plain(str(e.value)) for e in getattr(at, kind)]


def buttons(at: AppTest, label_start: str):
    return [b for b in at.button if str(b.label).startswith(label_start)]


class _TableReader(HTMLParser):
    """The tables of an HTML fragment: test id, header row, and rows of (is header, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[str], list[list[tuple[bool, str]]]]] = []
        self._cell: list[str] | None = None
        self._header = False
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append((dict(attrs).get("data-testid") or "", [], []))
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr" and not self._in_head:
            self.tables[-1][2].append([])
        elif tag in ("td", "th"):
            self._cell, self._header = [], tag == "th"

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self._in_head = False
        elif tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell)
            if self._in_head:
                self.tables[-1][1].append(text)
            else:
                self.tables[-1][2][-1].append((self._header, text))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def static_tables(at: AppTest) -> dict[str, pd.DataFrame]:
    """The static HTML tables on the page (`studio.views.compare.statictable`), by their test id, as a reader
    sees them: one frame each, its row headers (if any) as the index."""
    out: dict[str, pd.DataFrame] = {}
    for element in at.get("html"):
        reader = _TableReader()
        reader.feed(str(element.proto.body))
        for test_id, head, rows in reader.tables:
            if rows and rows[0] and rows[0][0][0]:  # a header column
                index = [r[0][1] for r in rows]
                data = [[t for _, t in r[1:]] for r in rows]
                out[test_id] = pd.DataFrame(data, columns=head[1:], index=index)
            else:
                out[test_id] = pd.DataFrame([[t for _, t in r] for r in rows], columns=head)
    return out
