"""Fuzz the one JSONL reader: it never raises, keeps every valid row and places every bad line."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jsonl import MAX_DEPTH, parse_jsonl
from engine.output import well_formed

# Characters that broke readers: Unicode and control line breaks, BOM, NUL, lone surrogates.
ODD = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\r", "\ufeff", "\x00"]
ODD += ["\ud800", "\udfff", "\ud83d", "é", "\U0001f600", '"', "\\", "\n"]
BOM = b"\xef\xbb\xbf"
PYTHON_WORDING = ("Expecting", "delimiter", "line 1 column", "set_int_max_str_digits", "char ")


def _as_utf16(text: str) -> str:
    """Join surrogate pairs into their character, as a JavaScript string (UTF-16) holds them."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


texts = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(ODD)), max_size=30).map(
    _as_utf16
)


@st.composite
def big_integer(draw: st.DrawFn) -> tuple[str, Any]:
    digits = draw(st.sampled_from([1, 20, 400, 4000, 4299, 4300, 4301, 6000]))
    text = draw(st.sampled_from("123456789")) + "7" * (digits - 1)
    sign = draw(st.sampled_from(["", "-"]))
    value = int(text) if digits <= 4300 else float(text)
    return sign + text, -value if sign else value


def scalar() -> st.SearchStrategy[tuple[str, Any]]:
    return st.one_of(
        st.none().map(lambda v: ("null", v)),
        st.booleans().map(lambda v: (json.dumps(v), v)),
        st.integers().map(lambda v: (str(v), v)),
        st.floats(allow_nan=False, allow_infinity=False).map(lambda v: (repr(v), v)),
        big_integer(),
        st.tuples(texts, st.booleans()).map(
            lambda p: (well_formed(json.dumps(p[0], ensure_ascii=p[1])), p[0])
        ),
    )


def _array(items: list[tuple[str, Any]]) -> tuple[str, Any]:
    return "[" + ",".join(t for t, _ in items) + "]", [v for _, v in items]


def _object(items: list[tuple[str, tuple[str, Any]]]) -> tuple[str, Any]:
    pairs = dict(items)  # the last duplicate key wins, as in JSON.parse
    text = "{" + ",".join(well_formed(json.dumps(k)) + ":" + t for k, (t, _) in items) + "}"
    return text, {k: v for k, (_, v) in pairs.items()}


values = st.recursive(
    scalar(),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(_array),
        st.lists(st.tuples(texts, inner), max_size=4).map(_object),
    ),
    max_leaves=12,
)

deep = st.integers(MAX_DEPTH + 1, 1500).map(lambda n: ("[" * n + "]" * n).encode())
junk = st.one_of(
    st.binary(max_size=40),
    deep,
    st.tuples(
        st.binary(max_size=10), st.sampled_from([b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80"])
    ).map(lambda p: b'{"a": "' + p[0] + p[1] + b'"}'),
).map(lambda b: b.replace(b"\n", b" "))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(
        st.one_of(values.map(lambda v: ("valid", v)), junk.map(lambda b: ("junk", b))),
        max_size=12,
    ),
    bom=st.booleans(),
    crlf=st.booleans(),
)
def test_the_reader_keeps_valid_rows_and_places_bad_lines(lines, bom, crlf):
    encoded = [(kind, item[0].encode("utf-8") if kind == "valid" else item) for kind, item in lines]
    data = (b"\r\n" if crlf else b"\n").join(raw for _, raw in encoded)
    if bom:
        data = BOM + data
    rows, problems = parse_jsonl(data)  # never raises

    by_line = dict(rows)
    bad = {p.line for p in problems}
    assert len(by_line) == len(rows) and len(bad) == len(problems)
    assert not (set(by_line) & bad)
    for number, (kind, item) in enumerate(lines, start=1):
        if kind == "valid":
            assert number in by_line, (number, problems)
            assert by_line[number] == item[1]
        else:
            if number == 1 and not bom and item.startswith(BOM):
                item = item[len(BOM) :]  # the file's own byte order mark
            blank = not item.strip(b" \t\r")
            assert (number in by_line or number in bad) != blank
    raw_lines = data.split(b"\n")
    for problem in problems:
        assert 1 <= problem.line <= len(lines)
        assert problem.column is None or 1 <= problem.column <= len(raw_lines[problem.line - 1])
        assert not any(words in problem.message for words in PYTHON_WORDING)
