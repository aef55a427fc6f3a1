"""The editor's heading and the sidebar show the `title:` while a syntax error remains (AppTest)."""

from __future__ import annotations

from studio import state
from tests.studio.helpers import app, texts

BROKEN = (
    "title: Sandals advice\n---\n- id: one\n  prompt: hi\n  should: [a]\n"
    "- id: two\n  prompt: there\n   should: [b]\n"
)


def test_heading_shows_the_title_of_a_text_with_a_syntax_error() -> None:
    at = app()
    at.session_state[state.TEXT] = BROKEN
    at.run()
    assert not at.exception
    shown = texts(at, "markdown")
    assert any("Sandals advice" in m and "Untitled" not in m for m in shown if m.startswith("###"))
    assert any("Open blueprint:" in m and "Sandals advice" in m for m in shown)
