"""Fuzzing the blueprint reader: parse, lint and normalize never fail but with a positioned error.

Alias bombs of random shapes, nesting far deeper than the limit (flow and block), odd numbers
(every js-yaml form, huge integers, NaN, .inf), control characters, NUL and Unicode line
breaks. Each run must end in a value or a `BlueprintError` with a line and column, and stay
bounded in memory (measured with tracemalloc).
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.blueprint import parse_blueprint
from engine.errors import BlueprintError
from engine.js.values import js_clean
from engine.lint import lint

MEMORY_LIMIT = 64 * 1024 * 1024  # bytes allocated at the peak of one parse or lint
FUZZ = settings(
    max_examples=40,
    deadline=None,  # timings on shared machines are noise; memory is checked instead
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BASE = (
    "title: Fuzzed\n---\n- id: p1\n  prompt: Say hi\n  should:\n"
    "    - $contains: hi\n      weight: {weight}\n    - Is friendly.\n"
    "  ideal: {ideal}\n"
)


def _bounded(work: Callable[[], object]) -> None:
    tracemalloc.start()
    try:
        work()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT, f"peak {peak / 1e6:.0f} MB"


def _normalize(text: str) -> None:
    error: BlueprintError | None = None
    try:
        json.dumps(js_clean(parse_blueprint(text).to_weval()))
    except BlueprintError as exc:
        error = exc
    if error is not None:
        assert error.line is not None and error.line >= 1 and error.column is not None
        assert "Traceback" not in error.message and len(error.message) < 600


def _lint(text: str) -> None:
    for d in lint(text):
        assert d.line >= 1 and d.column >= 1
        assert len(d.message) < 600


def _check(text: str) -> None:
    _bounded(lambda: _normalize(text))
    _bounded(lambda: _lint(text))


@st.composite
def alias_bombs(draw: st.DrawFn) -> str:
    levels = draw(st.integers(2, 14))
    width = draw(st.integers(2, 12))
    flow = draw(st.booleans())
    leaf = draw(st.text(st.characters(codec="utf-8", categories=["L", "N"]), max_size=200))
    lines = [f"a0: &a0 {json.dumps(leaf)}"]
    for i in range(1, levels):
        refs = [f"*a{i - 1}"] * width
        if flow:
            lines.append(f"a{i}: &a{i} [{', '.join(refs)}]")
        else:
            lines.append(f"a{i}: &a{i}\n" + "".join(f"  - {r}\n" for r in refs).rstrip("\n"))
    where = draw(st.sampled_from(["ideal", "should", "merge"]))
    last = f"*a{levels - 1}"
    if where == "ideal":
        lines.append(f"prompts:\n  - prompt: hi\n    ideal: {last}\n    should: [x]")
    elif where == "should":
        lines.append(f"prompts:\n  - prompt: hi\n    should: [{last}, {last}]")
    else:
        lines.append(f"m: &m {{k: {last}}}\nprompts:\n  - <<: *m\n    prompt: hi\n    should: [x]")
    return "title: bomb\n" + "\n".join(lines) + "\n"


# Found by this test: ten levels of four copies as an `ideal` joined into 3 million characters
# (a 98 MB peak where the limit is 64 MB); text made from a list is now bounded.
TEN_BY_FOUR = (
    'title: bomb\na0: &a0 "\u013e\u015e\u014f\u00d4\u00df\u0106\u010c\u0151\u0177\u015ep"\n'
    + "".join(f"a{i}: &a{i}\n" + f"  - *a{i - 1}\n" * 4 for i in range(1, 10))
    + "prompts:\n  - prompt: hi\n    ideal: *a9\n    should: [x]\n"
)


@given(alias_bombs())
@example(TEN_BY_FOUR)
@FUZZ
def test_alias_bombs(text: str) -> None:
    _check(text)


def test_an_ideal_joined_from_aliased_lists_is_refused_at_its_line() -> None:
    with pytest.raises(BlueprintError) as caught:
        parse_blueprint(TEN_BY_FOUR)
    assert caught.value.line == 50  # the `ideal:` line
    assert "ideal answer (`ideal`)" in caught.value.message
    assert "more than 1,000,000 characters" in caught.value.message


@st.composite
def deep_nesting(draw: st.DrawFn) -> str:
    style = draw(st.sampled_from(["flow-list", "flow-map", "block-list", "block-map", "mixed"]))
    # block styles indent every level, so their text grows with depth squared: 20,000 levels
    # would be a 200 MB file (beyond the input limit, and not what this test is about)
    depth = draw(st.integers(1000, 2_500 if style.startswith("block") else 20_000))
    if style == "flow-list":
        body = "[" * depth + "1" + "]" * depth
    elif style == "flow-map":
        body = "{a: " * depth + "1" + "}" * depth
    elif style == "block-list":
        body = "\n" + "".join(" " * (2 * i) + "-\n" for i in range(depth)) + " " * (2 * depth) + "x"
    elif style == "block-map":
        body = "\n" + "".join(" " * i + "k:\n" for i in range(1, depth)) + " " * depth + "x"
    else:
        body = "[" + "{a: [" * depth + "]}" * depth + "]"
    key = draw(st.sampled_from(["ideal", "should", "models", "extra"]))
    return f"title: deep\n---\n- prompt: hi\n  should: [x]\n  {key}: {body}\n"


@given(deep_nesting())
@FUZZ
def test_deep_nesting(text: str) -> None:
    _check(text)


NUMBER_FORMS = [
    "1_0", "0b11", "0o17", "0x1F", "+0x1F", "-0b11", "-0o17", "1_000.5", "0_1", "_1", "1_",
    "0b", "0x", "0X1F", ".nan", ".NaN", ".inf", "-.inf", "+.INF", "-0", "-00", "1e400",
    "-1e400", "0.1", "1e-400", "012", "0o8", "1:30", "1__0", "._5",
]  # fmt: skip


@st.composite
def odd_numbers(draw: st.DrawFn) -> str:
    form = draw(
        st.one_of(
            st.sampled_from(NUMBER_FORMS),
            st.builds(
                lambda sign, prefix, digits: sign + prefix + digits,
                st.sampled_from(["", "+", "-"]),
                st.sampled_from(["", "0b", "0o", "0x", "0"]),
                st.text("0123456789abcdefABCDEF_", min_size=1, max_size=40),
            ),
            st.integers(4000, 60_000).map(lambda n: "9" * n),
            st.integers(4000, 60_000).map(lambda n: "0x" + "f" * n),
            st.integers(4000, 60_000).map(lambda n: "1" * n + ".5e3"),
        )
    )
    place = draw(st.sampled_from(["weight", "arg", "ideal", "temperature"]))
    if place == "weight":
        return BASE.format(weight=form, ideal="x")
    if place == "arg":
        return BASE.replace("$contains: hi", f"$word_count_between: [{form}, {form}]").format(
            weight=1, ideal="x"
        )
    if place == "temperature":
        return f"title: t\ntemperatures: [{form}]\n---\n" + BASE.split("---\n", 1)[1].format(
            weight=1, ideal="x"
        )
    return BASE.format(weight=1, ideal=form)


@given(odd_numbers())
@FUZZ
def test_odd_numbers(text: str) -> None:
    _check(text)
    if ".json" not in text:
        doc = json.dumps({"prompts": [{"prompt": "hi", "should": ["x"], "weight": 1}]})
        _bounded(lambda: _normalize(doc))


ODD_CHARS = ["\x00", "\x01", "\x07", "\x1b", "\x7f", "\x85", "\u2028", "\u2029", "\r", "\ufeff",
             "\ud800", "\t", "\x0b", "\x0c", "\ufffe", "\U0001f600"]  # fmt: skip


@st.composite
def control_characters(draw: st.DrawFn) -> str:
    text = BASE.format(weight=2, ideal="An ideal answer.")
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(ODD_CHARS)) + text[at:]
    return text


@given(control_characters())
@FUZZ
def test_control_characters_and_unicode_line_breaks(text: str) -> None:
    _check(text)


@given(st.text(st.characters(codec="utf-8"), max_size=300))
@FUZZ
def test_any_text(text: str) -> None:
    _check(text)


TEXT_CHARS = st.sampled_from(["a", "é", " ", "\x85", "\u2028", "\u2029", "\ue000", "\\", '"', "x"])


@given(st.lists(TEXT_CHARS, min_size=1, max_size=30).map("".join))
@FUZZ
def test_unicode_line_breaks_are_kept_in_texts_as_js_yaml_keeps_them(value: str) -> None:
    # js-yaml ends lines at LF and CR only: U+0085, U+2028, U+2029 are characters of a text
    quoted = json.dumps(value, ensure_ascii=False)
    text = f"title: {quoted}\n---\n- prompt: |\n    <{value}>\n  should: [{quoted}]\n"
    weval = parse_blueprint(text).to_weval()
    assert weval["title"] == value
    assert weval["prompts"][0]["messages"][0]["content"] == f"<{value}>\n"
    assert weval["prompts"][0]["points"][0]["text"] == value
