"""Reading the `TOOL_CALL {json}` lines a model writes when it has no native tool calls."""

from __future__ import annotations

import re
from typing import Final

from engine.evidence import ToolCall
from engine.js.strings import js_json_parse, js_trim

__all__ = ["parse_tool_trace"]

_LINES: Final = re.compile(r"\r?\n")
_MARKER: Final = "TOOL_CALL "


def parse_tool_trace(text: str) -> list[ToolCall]:
    """Parse `TOOL_CALL {"name": ..., "arguments": ...}` lines; malformed lines are ignored."""
    if _MARKER not in text:
        return []
    calls: list[ToolCall] = []
    for raw in _LINES.split(text):
        line = js_trim(raw)
        if not line.startswith(_MARKER):
            continue
        ok, parsed = js_json_parse(js_trim(line[len(_MARKER) :]))
        if ok and isinstance(parsed, dict) and isinstance(parsed.get("name"), str):
            arguments = parsed.get("arguments")
            calls.append(ToolCall(name=parsed["name"], arguments=arguments, source="trace"))
    return calls
