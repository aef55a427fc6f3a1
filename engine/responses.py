"""Responses files (JSONL) for offline scoring: one `{prompt_id, model, response}` per line."""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.conversation import tool_calls_from_rows
from engine.evidence import ToolCall
from engine.js.values import js_string
from engine.jsonl import parse_jsonl, read_jsonl

__all__ = ["ResponseRow", "RowProblem", "read_responses"]


@dataclass(frozen=True)
class ResponseRow:
    """One recorded response.

    Attributes:
        line: 1-based line in the file.
        prompt_id: The blueprint prompt it answers.
        model: The model id, used as is in the results.
        response: The final answer (None when only `messages` were recorded).
        messages: The full conversation, if recorded.
        tool_calls: Native tool calls, if recorded.
        durations_ms: Timed spans, if recorded (`duration_ms` may be a number or a list).
    """

    line: int
    prompt_id: str
    model: str
    response: str | None
    messages: list[dict[str, Any]] | None = None
    tool_calls: list[ToolCall] | None = None
    durations_ms: list[float] | None = None


@dataclass(frozen=True)
class RowProblem:
    """A line that could not be used, and why (with a column when it has a precise place)."""

    line: int
    message: str
    column: int | None = None

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"

    def located(self, file: str) -> str:
        """`FILE:LINE: message`, or `FILE:LINE:COL: message` when the column is known."""
        where = f"{file}:{self.line}" + (f":{self.column}" if self.column else "")
        return f"{where}: {self.message}"


def _messages(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not value:
        raise ValueError("`messages` must be a non-empty list of {role, content} objects")
    out = []
    for i, msg in enumerate(value):
        if not isinstance(msg, dict) or not isinstance(msg.get("role"), str):
            raise ValueError(f"message {i} must be an object with a `role` and `content`")
        content = msg.get("content")
        if content is not None and not isinstance(content, str):
            raise ValueError(f"message {i} has a `content` that is not text")
        out.append({"role": msg["role"], "content": content})
    return out


def _durations(value: Any) -> list[float] | None:
    if value is None:
        return None
    values = value if isinstance(value, list) else [value]
    out: list[float] = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | float) or math.isnan(v) or v < 0:
            raise ValueError(
                "`duration_ms` must be a non-negative number of milliseconds (or a list)"
            )
        out.append(float(v))
    return out


def _parse_row(line: int, row: Any, prompt_ids: set[str]) -> ResponseRow:
    if not isinstance(row, dict):
        raise ValueError("each line must be a JSON object")
    pid = row.get("prompt_id")
    if isinstance(pid, int | float) and not isinstance(pid, bool):
        pid = js_string(pid)  # as JavaScript prints it: 1.0 is "1", a huge integer "Infinity"
    if not isinstance(pid, str) or not pid:
        raise ValueError("missing `prompt_id`")
    if pid not in prompt_ids:
        close = difflib.get_close_matches(pid, sorted(prompt_ids), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise ValueError(f"unknown prompt id '{pid}'{hint}: the blueprint has no such prompt")
    model = row.get("model")
    if not isinstance(model, str) or not model.strip():
        raise ValueError("missing `model` (the name to show in the results)")
    response = row.get("response")
    if response is not None and not isinstance(response, str):
        raise ValueError("`response` must be text")
    messages = _messages(row["messages"]) if row.get("messages") is not None else None
    if response is None and messages is None:
        raise ValueError("missing `response` (or `messages` with the model's final turn)")
    return ResponseRow(
        line=line,
        prompt_id=pid,
        model=model.strip(),
        response=response,
        messages=messages,
        tool_calls=tool_calls_from_rows(row.get("tool_calls")),
        durations_ms=_durations(row.get("duration_ms")),
    )


def read_responses(
    source: Path | Iterable[str], prompt_ids: Iterable[str]
) -> tuple[list[ResponseRow], list[RowProblem]]:
    """Read a responses file; bad lines are reported, the others are returned.

    Args:
        source: A JSONL file path, or its lines.
        prompt_ids: The blueprint's prompt ids (rows naming others are reported).

    Returns:
        The usable rows, and a problem for each unusable line (with its line number).

    Raises:
        InputError: The file cannot be read at all.
    """
    values, bad = read_jsonl(source) if isinstance(source, Path) else parse_jsonl(source)
    problems = [RowProblem(p.line, p.message, p.column) for p in bad]
    ids = set(prompt_ids)
    rows: list[ResponseRow] = []
    seen: dict[tuple[str, str], int] = {}
    for number, value in values:
        try:
            row = _parse_row(number, value, ids)
        except ValueError as exc:
            problems.append(RowProblem(number, str(exc)))
            continue
        key = (row.prompt_id, row.model)
        if key in seen:
            problems.append(
                RowProblem(
                    number,
                    f"a second row for prompt '{row.prompt_id}' and model '{row.model}' (the first "
                    f"is on line {seen[key]}); this line was skipped",
                )
            )
            continue
        seen[key] = number
        rows.append(row)
    problems.sort(key=lambda p: p.line)
    return rows, problems
