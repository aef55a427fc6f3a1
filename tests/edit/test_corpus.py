"""Round trips over the real Weval blueprints: no edit keeps every byte; each edit changes
only its node and re-parses to the intended blueprint; the session's lint equals a full lint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.blueprint.parse import split_layout
from engine.blueprint.source import load_yaml_documents, span_of_item, span_of_key, span_of_value
from engine.edit import (
    AddPoint,
    DeletePoint,
    DuplicatePrompt,
    EditError,
    Layout,
    MovePoint,
    PointRef,
    PointSpec,
    SetHeader,
    SetPromptField,
    apply,
)
from engine.edit.form import header_view, prompt_view
from engine.edit.scope import POINT_KEYS
from engine.edit.session import EditSession
from engine.lint import lint
from tests.conftest import CORPUS, NO_CORPUS_REASON
from tests.edit.helpers import assert_only, normal, text_point

pytestmark = pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS_REASON)
FILES = sorted((CORPUS / "blueprints").glob("*.yml")) if CORPUS else []
UNREADABLE = {"maternal-health-uttar-pradesh.yml", "tool-use-native-test.yml"}


def _readable(path: Path) -> str:
    if path.name in UNREADABLE:
        pytest.skip("Weval rejects this blueprint too (see tests/blueprint/test_corpus.py)")
    return path.read_text(encoding="utf-8")


def _raw_prompts(text: str) -> list[Any]:
    return [raw for raw, _span in split_layout(load_yaml_documents(text), "yaml")[1]]


def _should_key(raw: dict[str, Any]) -> str:
    return next(k for k in POINT_KEYS if raw.get(k))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_no_edit_keeps_every_byte(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        session = EditSession(text)
        header_view(session)
        views = [prompt_view(session, i) for i in range(len(session.layout.regions))]
    except EditError:
        assert path.name in UNREADABLE
        return
    assert session.text == text
    assert len(views) == len(_raw_prompts(text))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_edit_changes_only_its_node(path: Path) -> None:
    text = _readable(path)
    raws = _raw_prompts(text)
    with_points = [i for i, r in enumerate(raws) if any(r.get(k) for k in POINT_KEYS)]
    if not with_points:  # a rubric-free blueprint: add the first point instead
        new = apply(text, AddPoint(0, PointSpec(text="Stays on topic.")))
        assert normal(new)["prompts"][0]["points"] == [text_point("Stays on topic.")]
        return
    index = with_points[len(with_points) // 2]
    raw = raws[index]
    key = _should_key(raw)
    region = Layout.of(text).regions[index]
    first = text.count("\n", 0, region[0]) + 1
    last = text.count("\n", 0, region[1] - 1) + 1
    before = normal(text)

    new = apply(text, SetPromptField(index, "ideal", "A new ideal answer."))
    assert_only(text, new, first, last)
    assert normal(new)["prompts"][index]["idealResponse"] == "A new ideal answer."

    points = raw[key]
    seq_span = span_of_value(raw, key)
    assert seq_span is not None
    new = apply(text, AddPoint(index, PointSpec(text="Stays on topic.")))
    assert_only(text, new, seq_span.line, last)
    after = normal(new)["prompts"][index]
    assert after["points"] == [*before["prompts"][index]["points"], text_point("Stays on topic.")]

    item = span_of_item(points, 0)
    assert item is not None
    new = apply(text, DeletePoint(PointRef(index, 0)))
    key_span = span_of_key(raw, key)
    assert key_span is not None
    assert_only(text, new, item.line if len(points) > 1 else key_span.line, item.end_line)
    if len(points) > 1:
        assert normal(new)["prompts"][index]["points"] == before["prompts"][index]["points"][1:]
        moved = apply(text, MovePoint(PointRef(index, 0), 1))
        got = normal(moved)["prompts"][index]["points"]
        want = before["prompts"][index]["points"]
        assert got == [want[1], want[0], *want[2:]]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_header_and_duplicate(path: Path) -> None:
    text = _readable(path)
    new = apply(text, SetHeader("title", "Renamed: a title"))
    assert normal(new)["title"] == "Renamed: a title"
    assert new.count("\n") - text.count("\n") in (0, 1)
    copied = apply(text, DuplicatePrompt(0, "the-copy"))
    prompts = normal(copied)["prompts"]
    assert prompts[1]["id"] == "the-copy"
    original = normal(text)["prompts"][0]
    assert {k: v for k, v in prompts[1].items() if k != "id"} == {
        k: v for k, v in original.items() if k != "id"
    }


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_session_lint_equals_full_lint(path: Path) -> None:
    text = _readable(path)
    session = EditSession(text)
    n = len(session.layout.regions)
    for i in (0, n // 2, n - 1):
        session.apply(AddPoint(i, PointSpec(fn="contains", args="", weight=20)))
        session.apply(SetPromptField(i, "weight", 2))
        assert list(session.diagnostics) == lint(session.text)
    session.undo()
    session.undo()
    assert list(session.diagnostics) == lint(session.text)
