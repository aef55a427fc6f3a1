"""New YAML text for an edited node: block layout at a given column, scalars by ruamel.yaml.

Only the node being written is rendered; the caller splices it into the original text.
ruamel.yaml (round-trip dumper, YAML 1.2) decides how each scalar must be written (plain,
quoted, or a `|` block for multi-line text), so a value always reads back as itself.
The layout around it (two-space indents, `- ` items, nested `- - ` paths) is written here so
it matches what people write by hand in blueprints.
"""

from __future__ import annotations

import io
import json
import math
import re
import threading
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import LiteralScalarString

__all__ = ["block_entry", "block_item", "flow", "scalar", "value_after"]

_local = threading.local()
_FLOW_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ .:/@+-]*")
"""Plain text that reads the same in every flow context (else a value is double-quoted)."""
_ESCAPED_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
"""ruamel.yaml ends lines at these (YAML 1.1); js-yaml reads them as characters of a text."""


def _yaml() -> YAML:
    dumper = getattr(_local, "yaml", None)
    if dumper is None:
        dumper = YAML(typ="rt")
        dumper.width = 1_000_000  # never re-wrap long lines
        dumper.allow_unicode = True
        _local.yaml = dumper
    return dumper


def _number(value: float) -> int | float:
    return int(value) if math.isfinite(value) and value == int(value) else value


def scalar(value: Any, column: int, *, literal: bool = True) -> str:
    """Write a scalar owned by a key or dash at `column` (a block scalar's lines go deeper).

    Multi-line text is a `|` block, or a one-line double-quoted string when not `literal`
    (a block would swallow a more indented comment that follows it). Text holding U+0085,
    U+2028 or U+2029 is always double-quoted, with those characters escaped.

    Returns:
        The text after `key: ` / `- `; continuation lines carry their full indentation.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        value = _number(value)
    if isinstance(value, str) and any(chr(code) in value for code in _ESCAPED_BREAKS):
        return json.dumps(value, ensure_ascii=False).translate(_ESCAPED_BREAKS)
    if isinstance(value, str) and "\n" in value:
        if not literal:
            return json.dumps(value, ensure_ascii=False)
        value = LiteralScalarString(value)
    out = io.StringIO()
    _yaml().dump({"k": value}, out)
    lines = out.getvalue().rstrip("\n").split("\n")
    first = lines[0][3:]
    rest = [(" " * column + line) if line else line for line in lines[1:]]
    return "\n".join([first, *rest])


def _key(key: str) -> str:
    return scalar(key, 0)


def value_after(value: Any, column: int, *, in_item: bool = False, literal: bool = True) -> str:
    """The text that follows `key:` (or `-` when `in_item`) for a value owned at `column`."""
    inner = column + 2
    pad = "\n" + " " * inner
    if isinstance(value, dict) and value:
        entries = [block_entry(str(k), v, inner, literal=literal) for k, v in value.items()]
        return (" " if in_item else pad) + pad.join(entries)
    if isinstance(value, list) and value:
        items = [block_item(v, inner, literal=literal) for v in value]
        return (" " if in_item else pad) + pad.join(items)
    if isinstance(value, dict | list):
        return " {}" if isinstance(value, dict) else " []"
    return " " + scalar(value, column, literal=literal)


def block_entry(key: str, value: Any, column: int, *, literal: bool = True) -> str:
    """`key: value` for a block mapping whose keys start at `column` (no final newline)."""
    return _key(key) + ":" + value_after(value, column, literal=literal)


def block_item(value: Any, column: int, *, literal: bool = True) -> str:
    """`- value` for a block sequence whose dashes are at `column` (no final newline)."""
    return "-" + value_after(value, column, in_item=True, literal=literal)


def flow(value: Any, *, json_only: bool = False) -> str:
    """A value in flow style, for flow collections: plain scalars where YAML allows them.

    With `json_only` (a JSON file) the value is written as JSON, which is also YAML.
    """
    if isinstance(value, float):
        value = _number(value)
    if json_only:
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow(str(k))}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, str):
        plain = scalar(value, 0)
        return plain if _FLOW_PLAIN.fullmatch(plain) else json.dumps(value, ensure_ascii=False)
    return scalar(value, 0)
