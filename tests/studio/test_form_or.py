"""The Form tells OR paths and `should not` as Weval scores them (AppTest, clicking as a person)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from engine.blueprint import parse_blueprint
from engine.lint import lint
from studio import state
from studio.core.gallery import BLANK
from tests.studio.helpers import app, plain, texts

CAPITALS = """\
title: Capitals
---
- id: capitals
  prompt: Name the capital of Nigeria, or its largest city.
  should:
    - - $icontains: abuja
    - - $icontains: lagos
"""


def _form(text: str) -> AppTest:
    at = app()
    at.session_state[state.TEXT] = text
    at.run()
    at.radio(key="editor_view").set_value("Form").run()
    assert not at.exception
    return at


def _text(at: AppTest) -> str:
    value = at.session_state[state.TEXT]
    assert isinstance(value, str)
    return value


def _click(at: AppTest, key: str) -> None:
    at.button(key=f"form:{key}").click().run()
    assert not at.exception, at.exception


def _shape(text: str) -> list[tuple[str, int | None, bool]]:
    """Each point of the first prompt: its function (or text), its path, whether inverted."""
    return [
        (f"${p.fn}" if p.fn else str(p.text), p.path, p.inverted)
        for p in parse_blueprint(text).prompts[0].points
    ]


def test_a_yaml_or_shows_as_one_block_offering_both_readings() -> None:
    at = _form(CAPITALS)
    markdown = texts(at, "markdown")
    assert sum("Any one of these" in m for m in markdown) == 1
    assert any("Any one of these" in m and "· 2 alternatives" in m for m in markdown)
    warnings = [w for w in texts(at, "warning") if "only one point" in w]
    assert len(warnings) == 2 and all("Two readings" in w for w in warnings)
    labels = [plain(str(b.label)) for b in at.button if str(b.key).startswith("form:fix:")]
    assert labels.count("Apply fix: Make it a required point") == 2
    assert labels.count("Apply fix: Keep as alternatives: either is enough") == 2

    keep = [
        b
        for b in at.button
        if str(b.key).startswith("form:fix:") and "Keep as alternatives" in plain(str(b.label))
    ]
    keep[0].click().run()
    next(
        b
        for b in at.button
        if str(b.key).startswith("form:fix:") and "Keep as alternatives" in plain(str(b.label))
    ).click().run()
    assert not at.exception
    text = _text(at)
    # still an OR of two paths, each marked as meant; nothing left to warn about
    assert _shape(text) == [("$icontains", 0, False), ("$icontains", 1, False)]
    assert text.count("# lint: ignore[single-element-path]") == 2
    assert not [d for d in lint(text) if d.severity != "info"]
    assert not [w for w in texts(at, "warning") if "only one point" in w]


def test_make_it_required_turns_the_or_into_required_points() -> None:
    at = _form(CAPITALS)
    for _ in range(2):
        next(
            b for b in at.button if str(b.label) == "Apply fix: Make it a required point"
        ).click().run()
    assert _shape(_text(at)) == [("$icontains", None, False), ("$icontains", None, False)]


def test_a_check_under_should_not_is_written_as_its_not_form() -> None:
    at = _form(BLANK)
    assert any("`$not_` form under `should`" in c for c in texts(at, "caption"))
    _click(at, "p0:True:add-fn")  # "Add a check" under "The answer should not"
    text = _text(at)
    assert "should_not" not in text
    assert _shape(text)[-1] == ("$not_icontains", None, False)
    # and "Move to should not" on a check writes its `$not_` form in place
    _click(at, "p0:should:0:invert")
    assert _shape(_text(at))[0] == ("$not_icontains", None, False)
    assert "should-not" not in {d.code for d in lint(_text(at))}


def test_a_point_in_words_moved_to_should_not_stays_a_should_not() -> None:
    at = _form(BLANK)
    _click(at, "p0:should:1:invert")
    assert ("Explains the answer in plain words.", None, True) in _shape(_text(at))
