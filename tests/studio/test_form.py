"""The Form view through AppTest: a new user builds a blueprint without writing YAML."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from engine.blueprint import parse_blueprint
from engine.store import open_store
from studio import state
from studio.core.gallery import BLANK
from studio.views.editor.form_points import parse_args
from studio.views.editor.form_state import PREFIX
from tests.conftest import CORPUS, NO_CORPUS_REASON
from tests.edit.test_form import BOMB_ARG
from tests.studio.helpers import app, buttons, texts, wait_for_status

NOTE = "# Notes for my team: keep these questions short.\n"


def _form(at: AppTest) -> AppTest:
    at.radio(key="editor_view").set_value("Form").run()
    assert not at.exception
    return at


def _click(at: AppTest, key: str) -> None:
    at.button(key=f"form:{key}").click().run()
    assert not at.exception, at.exception


def _type(at: AppTest, key: str, text: str) -> None:
    widget = next(w for w in [*at.text_input, *at.text_area] if w.key == f"form:{key}")
    widget.set_value(text).run()
    assert not at.exception, at.exception


def _text(at: AppTest) -> str:
    value = at.session_state[state.TEXT]
    assert isinstance(value, str)
    return value


def test_switching_views_without_an_edit_changes_no_byte() -> None:
    at = app()
    at.session_state[state.TEXT] = NOTE + BLANK
    at.run()
    _form(at)
    at.radio(key="editor_view").set_value("YAML").run()
    _form(at)
    at.radio(key="editor_view").set_value("YAML").run()
    assert not at.exception
    assert _text(at) == NOTE + BLANK


def test_a_new_user_builds_a_three_prompt_blueprint_in_the_form() -> None:
    at = app().run()
    buttons(at, "Start from a blank blueprint")[0].click().run()
    at.session_state[state.TEXT] = NOTE + _text(at)  # a note written in the YAML view
    at.run()
    _form(at)
    _type(at, "h:title", "Capitals quiz")
    # prompt 1: the blank prompt, its two judged points made the alternatives of one block
    _type(at, "p0:id", "france")
    _type(at, "p0:prompt", "What is the capital of France?")
    _type(at, "p0:should:0:arg", "paris")
    at.checkbox(key="form:p0:should:1:pick").check().run()
    at.checkbox(key="form:p0:should:2:pick").check().run()
    _click(at, "p0:False:group")
    assert any("count as ONE item" in c for c in texts(at, "caption"))
    # prompts 2 and 3
    _click(at, "add-prompt")
    _click(at, "add-prompt")
    _type(at, "p1:id", "spain")
    _type(at, "p1:prompt", "What is the capital of Spain?")
    _click(at, "p1:False:add-text")
    _type(at, "p1:should:0:text", "Names Madrid.")
    _click(at, "p1:True:add-text")
    _type(at, "p1:not:0:text", "Names Barcelona as the capital.")
    _type(at, "p2:id", "italy")
    _type(at, "p2:prompt", "What is the capital of Italy?")
    _click(at, "p2:False:add-fn")
    _type(at, "p2:should:0:arg", "rome")
    # a mistake, then undo
    _click(at, "p2:delete")
    assert len(parse_blueprint(_text(at)).prompts) == 2
    _click(at, "undo")
    text = _text(at)
    assert text.startswith(NOTE)
    bp = parse_blueprint(text)
    assert bp.title == "Capitals quiz"
    assert [p.id for p in bp.prompts] == ["france", "spain", "italy"]
    france, spain, italy = bp.prompts
    assert [(p.fn, p.args, p.path) for p in france.points] == [
        ("icontains", "paris", None),
        (None, None, 1),  # two alternatives: either judged point is enough
        (None, None, 2),
    ]
    assert [(p.text, p.inverted) for p in spain.points] == [
        ("Names Madrid.", False),
        ("Names Barcelona as the capital.", True),
    ]
    assert [(p.fn, p.args) for p in italy.points] == [("icontains", "rome")]
    # the YAML view shows the same text, the note kept
    at.radio(key="editor_view").set_value("YAML").run()
    assert not at.exception
    assert _text(at) == text
    # and it runs
    at.switch_page("views/run/run.py").run()
    at.multiselect[0].set_value(["ideal"]).run()
    at.radio(key="run_judging").set_value("none").run()
    buttons(at, "Start run")[0].click().run()
    assert not at.exception
    run = wait_for_status(open_store(), at.session_state[state.RUN_ID], ("completed",))
    assert run.done_cells == 3


def test_lint_diagnostics_show_on_their_field_with_their_fix() -> None:
    at = app()
    at.session_state[state.TEXT] = BLANK.replace(
        "  should:\n", "  should:\n    - text: Heavy\n      weight: 20\n"
    )
    at.run()
    _form(at)
    assert any("weight" in e.lower() and "20" in e for e in texts(at, "error"))
    fixes = [b for b in at.button if str(b.key).startswith("form:fix:p0:should:0:")]
    assert [str(b.label).startswith("Apply fix") for b in fixes] == [True]
    fixes[0].click().run()
    assert not at.exception
    assert "weight: 20" not in _text(at)
    assert not any("weight" in e.lower() and "20" in e for e in texts(at, "error"))
    _click(at, "undo")
    assert "weight: 20" in _text(at)


def test_what_the_form_cannot_edit_is_shown_read_only() -> None:
    text = BLANK + "  should_not:\n    - $js: r.length > 5000\n  tags: [x]\n"
    at = app()
    at.session_state[state.TEXT] = text
    at.run()
    _form(at)
    assert any("JavaScript ($js) is edited in the YAML view." in c for c in texts(at, "caption"))
    assert any("r.length > 5000" in c.value for c in at.code)
    assert any("tags" in e.label for e in at.expander)
    assert _text(at) == text


def test_undo_never_goes_back_into_another_draft() -> None:
    at = app().run()
    buttons(at, "Start from a blank blueprint")[0].click().run()
    _form(at)
    _type(at, "h:title", "First draft")
    assert not at.button(key="form:undo").disabled
    at.button(key="toolbar-blank").click().run()
    assert not at.exception
    assert at.button(key="form:undo").disabled
    assert "First draft" not in _text(at)


def test_points_are_duplicated_reordered_and_deleted() -> None:
    at = app()
    at.session_state[state.TEXT] = BLANK
    at.run()
    _form(at)
    _click(at, "p0:should:1:copy")
    _click(at, "p0:should:0:down")
    _click(at, "p0:should:3:delete")
    points = parse_blueprint(_text(at)).prompts[0].points
    assert [p.text or p.fn for p in points] == [
        "Explains the answer in plain words.",
        "icontains",
        "Explains the answer in plain words.",
    ]


def test_system_prompts_to_compare_are_edited_one_per_line() -> None:
    at = app()
    at.session_state[state.TEXT] = BLANK.replace("models:", "systems: [Be brief., null]\nmodels:")
    at.run()
    _form(at)
    _type(at, "h:systems", "Be brief.\n(none)\nBe thorough.")
    assert parse_blueprint(_text(at)).systems == ["Be brief.", None, "Be thorough."]
    assert "systems: [Be brief., null, Be thorough.]\n" in _text(at)  # still a `[...]` list


@pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS_REASON)
@pytest.mark.parametrize(
    "name", ["compass__literal.yml", "latent-discrimination-hiring.yml", "strawberry.yml"]
)
def test_real_blueprints_open_in_the_form_unchanged(name: str) -> None:
    assert CORPUS is not None
    text = (CORPUS / "blueprints" / name).read_text(encoding="utf-8")
    at = app()
    at.session_state[state.TEXT] = text
    at.run()
    _form(at)
    assert any(t.key == "form:p0:id" for t in at.text_input)
    assert any(t.key == "form:h:title" for t in at.text_input)
    at.radio(key="editor_view").set_value("YAML").run()
    assert not at.exception
    assert _text(at) == text


def test_an_unknown_key_is_shown_as_text_not_markdown() -> None:
    text = BLANK + "  x` [link](http://example.org) `y: 1\n"
    at = app()
    at.session_state[state.TEXT] = text
    at.run()
    _form(at)
    labels = [str(e.label) for e in at.expander if "edit in YAML" in str(e.label)]
    assert len(labels) == 1
    assert "[link](http" not in labels[0]  # no link can come from the blueprint
    assert _text(at) == text


def test_the_form_reads_a_typed_argument_with_the_bounded_reader() -> None:
    st.session_state[PREFIX + "p0:arg"] = BOMB_ARG
    with pytest.raises(ValueError, match="repeats anchors"):
        parse_args("yaml", "p0")
    st.session_state[PREFIX + "p0:arg"] = "[on, 0x1F]"
    assert parse_args("yaml", "p0") == (["on", 31], True)
