"""Lint diagnostics -> Ace annotations and markers (pure)."""

from __future__ import annotations

from engine.lint import Diagnostic, Fix, lint
from studio.core import markers
from studio.core.textsafe import plain_words


def diag(line, column, end_line, end_column, severity="warning", fix=None):
    return Diagnostic(
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        severity=severity,
        code="unknown-key",
        message="`titel` is not a key",
        fix=fix,
    )


def test_annotation_rows_and_columns_are_zero_based():
    (a,) = markers.to_annotations([diag(2, 1, 2, 6)])
    assert a == {
        "row": 1,
        "column": 0,
        "type": "warning",
        "text": "Warning: “titel” is not a key",
    }


def test_annotation_names_the_fix_and_keeps_text_unescaped():
    d = diag(3, 5, 3, 9, "error", Fix(title="Rename to `title`", replacement="title"))
    d = d.model_copy(update={"message": "<img src=x onerror=alert(1)>"})
    (a,) = markers.to_annotations([d])
    assert a["type"] == "error"
    # Ace escapes annotation text itself; we pass it as data, never as `html`.
    assert a["text"].startswith("Error: <img src=x onerror=alert(1)>")
    assert a["text"].endswith(" Fix: Rename to “title”.")
    assert "html" not in a


def test_tooltips_speak_plain_words_without_backticks_or_codes():
    text = "title: x\n---\n- id: a\n  prompt: hi\n  shuold:\n    - $contains: a\n"
    (a,) = [t for t in markers.to_annotations(lint(text)) if t["row"] == 4]
    assert "`" not in a["text"] and "[" not in a["text"]
    assert "“should”" in a["text"]
    assert plain_words("Rename `shuold` to `should`.") == "Rename “shuold” to “should”."


def test_markers_cover_the_range_and_are_never_empty():
    (m,) = markers.to_markers([diag(2, 1, 2, 6)])
    assert (m["startRow"], m["startCol"], m["endRow"], m["endCol"]) == (1, 0, 1, 5)
    assert m["className"] == "bp-marker-warning"
    (empty,) = markers.to_markers([diag(4, 3, 4, 3, "info")])
    assert (empty["endRow"], empty["endCol"]) == (3, 3)
    (multi,) = markers.to_markers([diag(2, 7, 5, 1, "error")])
    assert (multi["startRow"], multi["endRow"], multi["endCol"]) == (1, 4, 0)


def test_real_lint_output_marks_the_typo_line():
    text = "title: x\ntitel: y\n---\n- id: a\n  prompt: hi\n  should:\n    - $contains: a\n"
    found = lint(text)
    ann = markers.to_annotations(found)
    assert any(a["row"] == 1 and a["type"] == "warning" for a in ann)


def test_counts_and_summary_sentences():
    assert markers.summary([]) == "No problems found."
    one = [diag(1, 1, 1, 2, "error")]
    assert markers.summary(one) == "1 error."
    many = [*one, diag(1, 1, 1, 2, "error"), diag(2, 1, 2, 2), diag(3, 1, 3, 2, "info")]
    assert markers.counts(many) == {"error": 2, "warning": 1, "info": 1}
    assert markers.summary(many) == "2 errors, 1 warning and 1 note."


def test_editor_props_use_a_stock_theme():
    props = markers.editor_props([diag(2, 1, 2, 6)])
    assert props["theme"] == "github"
    assert len(props["annotations"]) == len(props["markers"]) == 1


def test_editor_props_turn_every_completion_off():
    props = markers.editor_props([])
    assert props["enableLiveAutocompletion"] is False
    assert props["enableBasicAutocompletion"] is False
    assert props["enableSnippets"] is False
