"""The editor page whatever was pasted: an alias bomb, a huge text, binary junk (AppTest)."""

from __future__ import annotations

import pytest

from studio import state
from tests.studio.helpers import app, texts

BOMB = (
    "title: bomb\n"
    + "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))
    + "prompts:\n  - prompt: hi\n    should: [*a9]\n"
)
HUGE = "title: huge\n---\n- prompt: hi\n  should: [a]\n  ideal: " + "y" * 1_500_000 + "\n"
BINARY = "title: x\n---\n- prompt: h\x00i\x07\x1b\ufffe\n  should: [a]\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BOMB, "repeats anchors"),
        (HUGE, "more than the 1 MB limit"),
        (BINARY, "a character that YAML does not allow"),
    ],
    ids=["bomb", "huge", "binary"],
)
def test_hostile_text_shows_the_plain_message_and_stays_editable(
    monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    monkeypatch.setenv("BLUEPRINT_MAX_INPUT_MB", "1")
    at = app()
    at.session_state[state.TEXT] = text
    at.run()
    assert not at.exception
    shown = texts(at, "markdown")
    assert any(message in m for m in shown), shown[:20]
    assert all(len(m) < 2000 for m in shown)  # the pasted text is never echoed in messages
    assert any("cannot be read yet" in i for i in texts(at, "info"))
    # The draft is still the text of record, and editing it works on the next run.
    assert at.session_state[state.TEXT] == text
    at.session_state[state.TEXT] = "title: fixed\n---\n- prompt: hi\n  should: [a]\n"
    at.run()
    assert not at.exception
    assert not any(message in m for m in texts(at, "markdown"))


DEEP_PATTERN = "(?:" * 5000 + "a" + ")" * 5000
REGEX_BOMBS = (
    "title: regex bombs\n---\n- id: p1\n  prompt: Say a.\n  should:\n"
    '    - $matches: "a{99999999999999999999}"\n'
    '    - $imatches: "a{10000000}"\n'
    f'    - $matches: "{DEEP_PATTERN}"\n'
)


def test_huge_repeats_in_the_editor_are_checked_and_only_what_cannot_run_is_a_problem() -> None:
    # a{10000000} once raised MemoryError in lint, and the editor then said "No problems found"
    at = app()
    at.session_state[state.TEXT] = REGEX_BOMBS
    at.run()
    assert not at.exception
    shown = texts(at, "markdown")
    problems = [m for m in shown if "simplify the pattern" in m]
    assert len(problems) == 1 and len(problems[0]) < 2000, shown[:20]
    assert any("line 8, column" in m for m in shown)  # at the pattern that cannot run
    assert texts(at, "error") == ["1 error."]
