"""The form model: what each field shows, what only the YAML view can change, and where
each diagnostic goes."""

from __future__ import annotations

import time

import pytest

from engine.edit.form import BlockView, PointView, header_view, prompt_view
from engine.edit.session import EditSession
from engine.edit.values import typed_value

TEXT = """\
title: Quiz
models: [openai:gpt-4.1-mini, {id: custom, url: "http://127.0.0.1:1"}]
point_defs:
  short: "r.length < 200"
judges_note: kept
---
- id: p1
  prompt: Hi
  ideal: Hello
  tags: [x]
  citation: {title: Source, url: "https://example.org"}
  should:
    - Greets back
    - $js: r.length > 3
    - $ref: short
    - text: Heavy
      weight: 20
    - - Is warm
      - $icontains: hello
    - $contains_any_of: [hi, hello]
  should_not:
    - $contains: bye
"""


def test_fields_as_written_and_read_only_parts() -> None:
    session = EditSession(TEXT)
    header = header_view(session)
    title = header.field("title")
    assert title is not None and title.editable and title.value == "Quiz"
    models = header.field("models")
    assert models is not None and not models.editable  # a custom model object
    assert {f.key for f in header.extras} == {"point_defs", "judges_note"}
    assert all(not f.editable and "YAML" in f.note for f in header.extras)

    view = prompt_view(session, 0)
    assert view.field("ideal") is not None
    citation = view.field("citation")
    assert citation is not None and not citation.editable
    assert [f.key for f in view.extras] == ["tags"]
    kinds = [p.kind if isinstance(p, PointView) else "block" for p in view.should]
    assert kinds == ["text", "read-only", "read-only", "text", "block", "function"]
    js, ref = view.should[1], view.should[2]
    assert isinstance(js, PointView) and "JavaScript" in js.note
    assert isinstance(ref, PointView) and "point_defs" in ref.note
    block = view.should[4]
    assert isinstance(block, BlockView)
    assert [(p.kind, p.fn) for p in block.points] == [("text", None), ("function", "icontains")]
    assert "count as ONE item" in block.effect  # the lint's own words
    listed = view.should[5]
    assert isinstance(listed, PointView) and listed.args == ["hi", "hello"]
    assert [p.fn for p in view.should_not if isinstance(p, PointView)] == ["contains"]


def test_each_diagnostic_goes_to_its_field() -> None:
    session = EditSession(TEXT)
    view = prompt_view(session, 0)
    heavy = view.should[3]
    assert isinstance(heavy, PointView)
    assert [d.code for d in heavy.diagnostics] == ["weight-out-of-range"]
    assert heavy.weight == 20
    placed = [d for p in view.should if isinstance(p, PointView) for d in p.diagnostics]
    header = header_view(session)
    every = (
        list(view.diagnostics)
        + placed
        + [d for b in view.should if isinstance(b, BlockView) for d in b.diagnostics]
        + [
            d
            for b in view.should
            if isinstance(b, BlockView)
            for p in b.points
            for d in p.diagnostics
        ]
        + [d for p in view.should_not for d in p.diagnostics]
        + [d for f in (*view.fields, *view.extras) for d in f.diagnostics]
        + list(header.diagnostics)
        + [d for f in (*header.fields, *header.extras) for d in f.diagnostics]
    )
    assert sorted(every, key=lambda d: d.sort_key()) == list(session.diagnostics)


BOMB_ARG = (
    '{a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"], '
    + ", ".join(
        f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    + ", z: *i}"
)


def test_a_value_typed_in_a_form_field_is_read_as_the_blueprint_reader_reads_yaml() -> None:
    # PyYAML's safe_load read these 358 characters as a shared structure that the form
    # then rendered into the YAML text item by item: 387 million items, the studio hung
    start = time.monotonic()
    with pytest.raises(ValueError, match="repeats anchors"):
        typed_value(BOMB_ARG)
    assert time.monotonic() - start < 5
    # js-yaml 4's reading, not YAML 1.1's
    assert typed_value("{n: 0o17, s: yes, t: 1:30, u: 012}") == {
        "n": 15,
        "s": "yes",
        "t": "1:30",
        "u": 12,
    }
    with pytest.raises(ValueError):
        typed_value("a\n---\nb\n")
