"""Property tests: generated blueprints and random edit sequences.

After every edit the text re-parses to what a plain model of the blueprint predicts, the
session's diagnostics equal a full lint, and undo gives back the earlier bytes exactly.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.edit import (
    AddPoint,
    AddPrompt,
    DeletePoint,
    DeletePrompt,
    Edit,
    GroupPoints,
    MoveIntoBlock,
    MoveOutOfBlock,
    MovePoint,
    MovePrompt,
    PointRef,
    PointSpec,
    SetPointWeight,
    SetPromptField,
    ToggleInverted,
)
from engine.edit import session as session_module
from engine.edit.session import EditSession
from engine.lint import lint
from tests.edit.helpers import fn_point, normal, text_point

WORDS = (
    st.lists(st.sampled_from([*"abc xyz:#'\"-$?!é\\\n", "yes", "null", "1", " 2"]), max_size=8)
    .map("".join)
    .filter(lambda s: bool(s.strip()) and s.strip() == s and not s.startswith("$"))
)


@st.composite
def points(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A point as YAML (a list item at four spaces) and its normalized form."""
    text = draw(WORDS)
    if draw(st.booleans()):
        return f"    - {json.dumps(text)}", text_point(text)
    weight = draw(st.sampled_from([1, 2, 0.5]))
    return (
        f"    - $contains: {json.dumps(text)}\n      weight: {weight}",
        fn_point("contains", text, weight),
    )


@st.composite
def blueprints(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]]]:
    """A blueprint text with comments and a model of its prompts (id, points, should_not)."""
    n = draw(st.integers(1, 4))
    lines = ["# generated", "title: Generated", "models: [openai:gpt-4.1-mini]", "---"]
    model = []
    for i in range(n):
        if draw(st.booleans()):
            lines.append(f"# prompt {i}")
        lines += [f"- id: p{i}", f"  prompt: {json.dumps(draw(WORDS))}"]
        should = draw(st.lists(points(), max_size=3))
        texts = [p[1]["text"] for p in should if "text" in p[1]]
        if should and len(texts) == len(should) and draw(st.booleans()):
            lines.append(f"  should: [{', '.join(json.dumps(t) for t in texts)}]  # flow")
        elif should:
            lines.append("  should:")
            for point in should:
                lines.append(point[0])
                if draw(st.booleans()):
                    lines.append("    # a comment between points")
        model.append({"id": f"p{i}", "points": [p[1] for p in should], "should_not": []})
        if draw(st.booleans()):
            lines.append("")
    return "\n".join(lines) + "\n", model


@st.composite
def edits(draw: st.DrawFn, model: list[dict[str, Any]]) -> tuple[Edit, Any]:
    """An edit that fits the model, and a function that applies it to the model."""
    p = draw(st.integers(0, len(model) - 1))
    prompt = model[p]
    choices = ["add", "ideal", "add-prompt"]
    if prompt["points"]:
        choices += ["delete", "move", "weigh", "invert"]
    if len(model) > 1:
        choices += ["delete-prompt", "move-prompt"]
    singles = [i for i, item in enumerate(prompt["points"]) if not isinstance(item, list)]
    blocks = [i for i, item in enumerate(prompt["points"]) if isinstance(item, list)]
    if len(singles) >= 2:
        choices.append("group")
    if singles and blocks:
        choices.append("into")
    if blocks:
        choices.append("out")
    kind = draw(st.sampled_from(choices))
    n = len(prompt["points"])
    if kind == "group":
        picked = tuple(sorted(draw(st.sets(st.sampled_from(singles), min_size=2, max_size=3))))

        def group(m: list[dict[str, Any]]) -> None:
            items = m[p]["points"]
            paths = [[items[i]] for i in picked]  # one alternative per point
            for i in reversed(picked):
                items.pop(i)
            items[picked[0] : picked[0]] = paths

        return GroupPoints(p, picked), group
    if kind == "into":
        i, b = draw(st.sampled_from(singles)), draw(st.sampled_from(blocks))

        def into(m: list[dict[str, Any]]) -> None:
            items = m[p]["points"]
            items[b].append(items.pop(i))

        return MoveIntoBlock(PointRef(p, i), b), into
    if kind == "out":
        b = draw(st.sampled_from(blocks))
        j = draw(st.integers(0, len(prompt["points"][b]) - 1))

        def out(m: list[dict[str, Any]]) -> None:
            items = m[p]["points"]
            moved = items[b].pop(j)
            if items[b]:
                items.insert(b + 1, moved)
            else:
                items[b] = moved

        return MoveOutOfBlock(PointRef(p, b, sub=j)), out
    if kind == "add":
        text = draw(WORDS)
        return AddPoint(p, PointSpec(text=text)), lambda m: m[p]["points"].append(text_point(text))
    if kind == "ideal":
        ideal = draw(WORDS)
        return SetPromptField(p, "ideal", ideal), lambda m: m[p].__setitem__("ideal", ideal)
    if kind == "add-prompt":
        new_id = f"n{draw(st.integers(0, 999))}"
        entry = {"id": new_id, "points": [], "should_not": []}
        return AddPrompt({"id": new_id, "prompt": "New?"}), lambda m: m.append(entry)
    if kind == "delete-prompt":
        return DeletePrompt(p), lambda m: m.pop(p)
    if kind == "move-prompt":
        to = draw(st.integers(0, len(model) - 1))
        return MovePrompt(p, to), lambda m: m.insert(to, m.pop(p))
    i = draw(st.integers(0, n - 1))
    if kind == "delete":
        return DeletePoint(PointRef(p, i)), lambda m: m[p]["points"].pop(i)
    if kind == "move":
        to = draw(st.integers(0, n - 1))
        return MovePoint(PointRef(p, i), to), lambda m: m[p]["points"].insert(
            to, m[p]["points"].pop(i)
        )
    if kind == "weigh":
        if not singles:
            return DeletePoint(PointRef(p, i)), lambda m: m[p]["points"].pop(i)
        i = draw(st.sampled_from(singles))
        w = draw(st.sampled_from([1, 3, 0.25]))
        return SetPointWeight(PointRef(p, i), w), lambda m: m[p]["points"][i].__setitem__(
            "multiplier", w
        )
    return ToggleInverted(PointRef(p, i)), lambda m: m[p]["should_not"].append(
        m[p]["points"].pop(i)
    )


def _observed(text: str) -> list[dict[str, Any]]:
    out = []
    for prompt in normal(text)["prompts"]:
        entry = {
            "id": prompt["id"],
            "points": prompt.get("points", []),
            "should_not": prompt.get("should_not", []),
        }
        if "idealResponse" in prompt:
            entry["ideal"] = prompt["idealResponse"]
        out.append(entry)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_edit_sequences(data: st.DataObject) -> None:
    text, model = data.draw(blueprints())
    session = EditSession(text)
    assert _observed(text) == model
    for _ in range(data.draw(st.integers(1, 6))):
        if not model:
            break
        edit, change = data.draw(edits(model))
        before = session.text
        session.apply(edit)
        change(model)
        assert _observed(session.text) == model
        assert list(session.diagnostics) == lint(session.text)
        if session.text != before and data.draw(st.booleans()):
            assert session.undo() == before
            assert list(session.diagnostics) == lint(before)
            session.apply(edit)
    assert session.text.startswith("# generated\ntitle: Generated\n")


def test_changes_made_in_yaml_are_one_undoable_step() -> None:
    session = EditSession("title: A\n")
    session.set_text("title: B\nmodels: [x]\n")
    assert list(session.diagnostics) == lint("title: B\nmodels: [x]\n")
    assert session.can_undo
    assert session.undo() == "title: A\n"
    assert list(session.diagnostics) == lint("title: A\n")
    assert not session.can_undo


def test_undo_keeps_a_bounded_amount_of_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "MAX_UNDO_CHARS", 2_000)
    session = EditSession("title: A\n---\n- id: a\n  prompt: Hi\n")
    for i in range(40):
        session.apply(SetPromptField(0, "ideal", f"{i} " + "x" * 100))
    kept = 0
    while session.can_undo:
        session.undo()
        kept += 1
    assert 10 <= kept < 40
