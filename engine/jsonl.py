r"""The one JSON Lines reader: records split on `\n` only, each bad line reported with its place.

JSON Lines separates records by `\n` alone, so U+2028, U+2029, U+0085, `\v`, `\f` and
`\x1c`-`\x1e` stay inside their record (`str.splitlines()` would cut there and lose rows).
A UTF-8 byte order mark before the first record is skipped, a `\r` before `\n` is dropped.
Values are read as JavaScript's `JSON.parse` reads them: an integer too long for Python's
integer parsing becomes a float (as large integers are numbers in JavaScript). A line that is
not UTF-8, holds a NUL byte, is not JSON or is nested too deeply is reported in plain words
with its line and column; it never raises.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from engine.errors import InputError

__all__ = [
    "MAX_DEPTH",
    "JsonlProblem",
    "bracket_depth",
    "json_error_words",
    "loads_like_js",
    "parse_json_text",
    "parse_jsonl",
    "read_jsonl",
]

MAX_DEPTH: Final = 256
"""Deepest nesting of arrays and objects a record may have."""

_BOM: Final = b"\xef\xbb\xbf"
_INT_DIGITS: Final = 4300  # Python's default limit (sys.get_int_max_str_digits)
_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}

# Python's wording of JSON errors (the start of `JSONDecodeError.msg`) in plain words.
_JSON_WORDS: Final = (
    ("Expecting value", "a value is missing or is not valid JSON"),
    ("Expecting property name", "a key must be text in double quotes"),
    ("Expecting ',' delimiter", "a comma is missing between two items"),
    ("Expecting ':' delimiter", "a colon is missing after a key"),
    ("Unterminated string", "a text in double quotes is not closed"),
    (
        "Invalid control character",
        "a control character (a tab, line break or NUL) appears as is inside quotes; write it "
        "as an escape such as \\t or \\n",
    ),
    ("Invalid \\uXXXX escape", "a \\u escape needs four hexadecimal digits"),
    ("Invalid \\escape", "a backslash starts an escape that JSON does not have"),
    ("Extra data", "more text follows the JSON value; put one JSON value per line"),
)


@dataclass(frozen=True)
class JsonlProblem:
    """A line that could not be read, and why.

    Attributes:
        line: 1-based line number.
        message: What is wrong, in plain words.
        column: 1-based column (in characters) when the problem has a precise place.
    """

    line: int
    message: str
    column: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "")
        return f"{where}: {self.message}"


class _BadLine(ValueError):
    """A line's problem, with a column when it has one."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


def json_error_words(exc: json.JSONDecodeError) -> str:
    """Say what a `JSONDecodeError` means in plain words (without its place)."""
    return next(
        (plain for start, plain in _JSON_WORDS if exc.msg.startswith(start)), "not valid JSON"
    )


def _reject_constant(name: str) -> Any:
    raise _BadLine(f"not valid JSON: {name} is not a JSON number")


def _parse_int(digits: str) -> int | float:
    # JSON.parse reads every number as a double; Python refuses integers of >4300 digits.
    return int(digits) if len(digits.lstrip("-")) <= _INT_DIGITS else float(digits)


def loads_like_js(text: str) -> Any:
    """`json.loads`, reading numbers as `JSON.parse` does and refusing NaN and Infinity.

    Raises:
        json.JSONDecodeError: The text is not JSON.
        ValueError: It holds NaN or Infinity (the message is in plain words).
        RecursionError: It is nested too deeply for Python's parser.
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError:
        raise
    except ValueError as exc:
        if isinstance(exc, _BadLine):
            raise
        # An integer too long for Python: read the numbers one by one (slower, so only now).
        return json.loads(text, parse_int=_parse_int, parse_constant=_reject_constant)


def bracket_depth(text: str) -> int:
    """Return how deeply arrays and objects nest in a VALID JSON text (strings skipped).

    Only for texts `json.loads` accepted: every string there is closed, so the string pattern
    runs in linear time.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets), initial=0))


def parse_json_text(text: str) -> Any:
    """Parse one JSON text as `JSON.parse` would, bounded in depth.

    Raises:
        ValueError: It is not JSON, holds a NUL, or is nested more than `MAX_DEPTH` deep; the
            message is in plain words.
    """
    nul = text.find("\x00")
    if nul >= 0:
        raise _BadLine("a NUL (zero) byte is not allowed in JSON Lines", nul + 1)
    too_deep = _BadLine(f"nested more than {MAX_DEPTH} levels deep; flatten the record")
    try:
        value = loads_like_js(text)
    except json.JSONDecodeError as exc:
        raise _BadLine(f"not valid JSON: {json_error_words(exc)} (column {exc.colno})") from None
    except RecursionError:
        raise too_deep from None
    except _BadLine:
        raise
    except ValueError:  # numbers Python cannot read
        raise _BadLine("not valid JSON: a number cannot be read") from None
    if text.count("[") + text.count("{") > MAX_DEPTH and bracket_depth(text) > MAX_DEPTH:
        raise too_deep
    return value


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8", errors="replace")) + 1
        raise _BadLine("not UTF-8 text; save the file as UTF-8", column) from None


def _split(data: bytes) -> Iterator[bytes]:
    r"""Yield the lines of `data` split on `\n` only, one at a time, without a leading BOM."""
    start = len(_BOM) if data.startswith(_BOM) else 0
    while (end := data.find(b"\n", start)) >= 0:
        yield data[start:end]
        start = end + 1
    yield data[start:]


def parse_jsonl(
    lines: bytes | Iterable[str],
) -> tuple[list[tuple[int, Any]], list[JsonlProblem]]:
    r"""Read JSON Lines: every record with its line number, and a problem per bad line.

    Args:
        lines: The file's bytes (split on `\n` only), or its lines as texts.

    Returns:
        `(line number, value)` for each record, and the problems of the unreadable lines.
        Blank lines are skipped.
    """
    raw_lines: Iterable[bytes | str] = _split(lines) if isinstance(lines, bytes) else lines
    values: list[tuple[int, Any]] = []
    problems: list[JsonlProblem] = []
    for number, raw in enumerate(raw_lines, start=1):
        try:
            if isinstance(raw, bytes):
                text = _decode(raw)
            else:
                text = raw[1:] if number == 1 and raw.startswith("\ufeff") else raw
            if text.endswith("\r"):
                text = text[:-1]
            if not text.strip(" \t\r"):  # only JSON whitespace
                continue
            values.append((number, parse_json_text(text)))
        except _BadLine as exc:
            problems.append(JsonlProblem(number, exc.message, exc.column))
    return values, problems


def read_jsonl(path: Path) -> tuple[list[tuple[int, Any]], list[JsonlProblem]]:
    """Read a JSON Lines file with `parse_jsonl`.

    Raises:
        InputError: The file cannot be read at all.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror or exc}).") from None
    return parse_jsonl(data)
