"""Parsing and linting never switch the process-wide garbage collector (issue 10)."""

from __future__ import annotations

import gc
import threading

from engine.blueprint import parse_blueprint
from engine.lint import lint
from engine.settings import Settings


def test_parse_and_lint_leave_the_collector_enabled_for_other_threads() -> None:
    text = "title: many prompts\n---\n" + "".join(
        f"- id: p{i}\n  prompt: Question {i}?\n  should:\n    - $contains: answer {i}\n"
        f"    - text: Mentions topic {i}.\n      weight: 2\n"
        for i in range(1500)
    )
    seen_disabled = threading.Event()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if not gc.isenabled():
                seen_disabled.set()

    watcher = threading.Thread(target=watch)
    assert gc.isenabled()
    watcher.start()
    try:
        for _ in range(3):
            parse_blueprint(text, settings=Settings())
            lint(text, settings=Settings())
    finally:
        done.set()
        watcher.join()
    assert not seen_disabled.is_set()
    assert gc.isenabled()
