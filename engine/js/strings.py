"""JavaScript string semantics with no other engine dependency: whitespace, `trim()`, `JSON.parse`."""

from __future__ import annotations

import json
from typing import Any, Final

from engine.js.engine import JSEngineError, run_fresh

__all__ = ["JS_WHITESPACE", "is_js_blank", "js_json_parse", "js_trim"]

JS_WHITESPACE: Final = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""JavaScript's WhiteSpace and LineTerminator characters (what `trim()` and `\\s` remove)."""


def js_trim(text: str) -> str:
    """`String.prototype.trim()`: strip JavaScript's whitespace and line terminators.

    Unlike Python's `str.strip()`, it keeps U+001C-U+001F and U+0085.
    """
    return text.strip(JS_WHITESPACE)


def is_js_blank(text: str) -> bool:
    """Whether `text.trim() === ''` in JavaScript (an empty response)."""
    return not js_trim(text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_decoder = json.JSONDecoder(parse_constant=_reject_constant)
# JSON.parse reads every number as a double; Python refuses integers of more than 4,300 digits.
_long_decoder = json.JSONDecoder(
    parse_constant=_reject_constant,
    parse_int=lambda digits: int(digits) if len(digits.lstrip("-")) <= 4300 else float(digits),
)


_SHAPE_HARNESS: Final = r"""(function (p) {
  let v;
  try { v = JSON.parse(JSON.parse(p)); } catch (e) { return '"invalid"'; }
  if (Array.isArray(v)) return '"array"';
  return typeof v === "object" && v !== null ? '"object"' : '"scalar"';
})"""


def js_json_parse(text: str) -> tuple[bool, Any]:
    """Parse `text` as `JSON.parse` would: return (ok, value).

    Python's decoder matches JSON.parse (same whitespace set, strict strings, no BOM) once
    `NaN`/`Infinity` are refused. Nesting too deep for Python's decoder is checked by QuickJS;
    the value is then only its shape (`{}`, `[]` or None), which is all `is_json` needs.
    """
    try:
        return True, _decoder.decode(text)
    except json.JSONDecodeError:
        return False, None
    except ValueError:  # NaN/Infinity refused, or an integer too long for Python's int()
        try:
            return True, _long_decoder.decode(text)
        except ValueError:
            return False, None
    except RecursionError:
        try:
            shape = run_fresh(_SHAPE_HARNESS, text, time_limit_s=1.0, stack_limit=4 << 20)
        except JSEngineError:
            return False, None
        return (shape != "invalid"), {"object": {}, "array": []}.get(shape)
