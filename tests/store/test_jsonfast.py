"""The fast JSON path reads what the standard library reads, and fails where it fails."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.jsonfast import dumps_compact, loads

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=["Cs"])),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(st.characters(blacklist_categories=["Cs"])), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(values)
def test_what_is_written_reads_back_as_the_same_value_by_both_parsers(value):
    text = dumps_compact(value)
    assert loads(text) == json.loads(text) == value
    assert loads(text.encode("utf-8")) == value


@pytest.mark.parametrize(
    "doc",
    ['{"a": NaN}', "[Infinity, -Infinity]", '"\\ud800"', '{"a": 1, "a": 2}', "[1e400]"],
)
def test_documents_only_json_accepts_are_read_as_json_reads_them(doc):
    got, want = loads(doc), json.loads(doc)
    assert repr(got) == repr(want)  # NaN != NaN, so compare their spelling


@pytest.mark.parametrize("doc", [b"{", b"[1,]", b"", b"{'a': 1}"])
def test_invalid_json_raises_jsons_own_error(doc):
    with pytest.raises(json.JSONDecodeError):
        loads(doc)


def test_invalid_utf8_raises_as_json_does():
    with pytest.raises(UnicodeDecodeError):
        loads(b'{"a": "\xff"}')


def test_too_deep_a_document_raises_as_json_does():
    with pytest.raises(RecursionError):
        loads("[" * 100_000 + "]" * 100_000)


def test_nan_is_written_as_null_as_javascript_writes_it():
    assert dumps_compact({"score": math.nan, "x": math.inf}) == '{"score":null,"x":null}'


def test_what_orjson_cannot_write_is_written_by_json():
    assert dumps_compact({1: "a"}) == '{"1":"a"}'  # a non-string key
    assert dumps_compact([2**70]) == "[1180591620717411303424]"
    assert dumps_compact("é\u2028") == '"é\u2028"'
