"""The one JSONL reader (`--responses`, `replay:` files): `\n` only, BOM, depth, numbers, bytes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.jsonl import MAX_DEPTH, parse_jsonl
from engine.responses import read_responses
from engine.run.assemble import replay_rows
from tests.conftest import EXAMPLES

SEPARATORS = ["\u2028", "\u2029", "\u0085"]  # allowed as is inside JSON strings
CONTROLS = ["\v", "\f", "\x1c", "\x1d", "\x1e", "\r"]  # not allowed as is: a bad line


def row(model: str, response: str) -> bytes:
    data = {"prompt_id": "france", "model": model, "response": response}
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize("sep", SEPARATORS)
def test_unicode_line_breaks_stay_inside_their_row(tmp_path, sep):
    path = tmp_path / "r.jsonl"
    path.write_bytes(row("a", f"Paris{sep}is the capital") + b"\n" + row("b", "Paris") + b"\n")
    rows, problems = read_responses(path, ["france"])
    assert problems == []
    assert [(r.line, r.model, r.response) for r in rows] == [
        (1, "a", f"Paris{sep}is the capital"),
        (2, "b", "Paris"),
    ]


@pytest.mark.parametrize("sep", CONTROLS)
def test_control_line_breaks_do_not_split_a_line_or_shift_the_numbers(tmp_path, sep):
    path = tmp_path / "r.jsonl"
    path.write_bytes(row("a", "Paris").replace(b"Paris", f"Par{sep}is".encode()) + b"\n")
    path.write_bytes(path.read_bytes() + row("b", "Paris") + b"\n")
    rows, problems = read_responses(path, ["france"])
    assert [(r.line, r.model) for r in rows] == [(2, "b")]
    assert [(p.line, p.message.split(" (")[0]) for p in problems] == [
        (1, "not valid JSON: a control character")
    ]


def test_a_byte_order_mark_does_not_lose_row_1_and_crlf_is_fine(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + row("a", "x") + b"\r\n" + row("b", "y") + b"\r\n")
    rows, problems = read_responses(path, ["france"])
    assert problems == [] and [r.model for r in rows] == ["a", "b"]


def test_deep_nesting_is_a_bad_line_not_a_crash(tmp_path):
    path = tmp_path / "r.jsonl"
    deep = b'{"prompt_id": "france", "model": "m", "x": ' + b"[" * 1200 + b"]" * 1200 + b"}"
    path.write_bytes(deep + b"\n" + row("ok", "Paris") + b"\n")
    rows, problems = read_responses(path, ["france"])
    assert [r.model for r in rows] == ["ok"]
    assert [(p.line, p.message) for p in problems] == [
        (1, f"nested more than {MAX_DEPTH} levels deep; flatten the record")
    ]


def test_nesting_up_to_the_limit_is_read():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    values, problems = parse_jsonl([text, '["[[[[", {"a": "]]]]"}]'])
    assert problems == [] and len(values) == 2


def test_a_huge_integer_is_a_number_as_json_parse_reads_it():
    values, problems = parse_jsonl([f'{{"n": {"9" * 5000}, "m": {"1" * 300}}}'])
    assert problems == []
    assert values[0][1]["n"] == float("inf")
    assert values[0][1]["m"] == pytest.approx(float("1" * 300))


def test_numeric_prompt_ids_read_as_javascript_prints_them():
    rows, problems = read_responses(
        [
            '{"prompt_id": 1.0, "model": "m", "response": "x"}',
            f'{{"prompt_id": {"9" * 5000}, "model": "m", "response": "x"}}',
        ],
        ["1", "Infinity"],
    )
    assert problems == [] and [r.prompt_id for r in rows] == ["1", "Infinity"]


def test_bad_bytes_are_reported_with_line_and_column(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(
        row("a", "x")
        + b'\n{"prompt_id": "fr\xffance"}\n'
        + b'{"prompt_id": "france", "model": "n\x00"}\n'
        + b"{nope\n"
        + b'{"a": NaN}\n'
        + row("b", "y")
    )
    rows, problems = read_responses(path, ["france"])
    assert [r.model for r in rows] == ["a", "b"]
    located = [p.located("r.jsonl") for p in problems]
    assert located == [
        "r.jsonl:2:18: not UTF-8 text; save the file as UTF-8",
        "r.jsonl:3:36: a NUL (zero) byte is not allowed in JSON Lines",
        "r.jsonl:4: not valid JSON: a key must be text in double quotes (column 2)",
        "r.jsonl:5: not valid JSON: NaN is not a JSON number",
    ]


def test_no_python_wording_reaches_the_user(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(
        "\n".join(
            [
                "",
                "x",
                "{",
                '{"a" 1}',
                '{"a": 1,}',
                '"unterminated',
                "[1] 2",
                '{"n": ' + "7" * 4400 + "}",
            ]
        )
        + "\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "engine", "score", EXAMPLES / "functions.yml", "--responses", path],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
    )
    assert result.returncode == 1
    for words in ("Expecting", "delimiter", "line 1 column", "set_int_max_str_digits", "char "):
        assert words not in result.stderr
    assert "Traceback" not in result.stderr
    assert f"{path}:2: not valid JSON: a value is missing or is not valid JSON (column 1)" in (
        result.stderr
    )
    assert f"{path}:8: each line must be a JSON object" not in result.stderr
    assert f"{path}:8: missing `prompt_id`" in result.stderr


def test_replay_files_use_the_same_reader(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(
        b"\xef\xbb\xbf"
        + json.dumps({"prompt_id": "p1", "response": "a\u2028b"}, ensure_ascii=False).encode()
        + b"\n"
        + b'{"prompt_id": "p2", "response": "x", "deep": '
        + b"[" * 1200
        + b"]" * 1200
        + b"}\n"
    )
    rows = replay_rows(str(path))
    assert rows == {"p1": {"prompt_id": "p1", "response": "a\u2028b"}}
