"""Tool-use point functions over native tool calls or the `TOOL_CALL {json}` trace.

Which calls are inspected: when the provider's native tool calls were recorded
(`evidence.tool_calls` is a non-empty list) they are used; otherwise the subject text is parsed
for trace lines, as upstream always does. A string `where` in `tool_args_match` is the
blueprint's JavaScript over `args`; it runs in a fresh QuickJS sandbox with the `$js` limits,
in a worker process that is killed if it overruns them (`engine.js.process`).
"""

from __future__ import annotations

import math
import re
from typing import Any, Final

from engine.checks.context import CheckContext
from engine.checks.text import is_number
from engine.checks.trace import parse_tool_trace
from engine.js.engine import JSEngineError
from engine.js.process import run_fresh
from engine.js.strings import JS_WHITESPACE, js_trim
from engine.js.values import js_clean, js_string, js_truthy

__all__ = [
    "JS_WHITESPACE",
    "js_trim",
    "parse_tool_trace",
    "tool_args_match",
    "tool_call_count_between",
    "tool_call_order",
    "tool_called",
    "where_is_code",
]

_JS_SPACES: Final = re.compile(f"[{JS_WHITESPACE}]+")


def tool_called(text: str, args: str, ctx: CheckContext) -> bool:
    """True if any call has this name."""
    return any(call.name == args for call in ctx.tool_calls)


def tool_called_error(args: Any, has_args: bool) -> str | None:
    """Validator: a non-empty string tool name."""
    return None if isinstance(args, str) and args else "tool_called expects a string tool name"


def tool_args_match_error(args: Any, has_args: bool) -> str | None:
    """Validator: an object with a truthy `name`."""
    if isinstance(args, dict) and js_truthy(args.get("name")):
        return None
    return "tool_args_match expects { name, where }"


def where_is_code(args: Any) -> bool:
    """Whether `tool_args_match` runs its `where` as JavaScript (a string `where`)."""
    return isinstance(args, dict) and isinstance(args.get("where"), str)


def _strict_equal(a: Any, b: Any) -> bool:
    """JavaScript `===` for JSON values (objects compare by identity)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return bool(a == b)  # NaN !== NaN holds in Python too
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return a is b
    return type(a) is type(b) and a == b


def _has(obj: Any, key: str) -> bool:
    """JavaScript `key in obj` (own keys; arrays also have `length`)."""
    if isinstance(obj, dict):
        return key in obj
    if isinstance(obj, list):
        return key == "length" or (key.isdigit() and str(int(key)) == key and int(key) < len(obj))
    raise TypeError(f"Cannot use 'in' operator to search for '{key}' in {js_string(obj)}")


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, dict):
        return obj[key]
    return len(obj) if key == "length" else obj[int(key)]


def _partial(obj: Any, partial: Any, normalize: bool) -> bool:
    """Upstream's recursive partial match (`where` object); arrays are keyed by index."""
    if not isinstance(partial, dict | list):
        return False
    keys = list(partial) if isinstance(partial, dict) else [str(i) for i in range(len(partial))]
    for key in keys:
        if not _has(obj, key):
            return False
        pv = partial[key] if isinstance(partial, dict) else partial[int(key)]
        ov = _get(obj, key)
        if isinstance(pv, dict | list):
            if not _partial(ov, pv, normalize):
                return False
        elif isinstance(pv, str) and isinstance(ov, str):
            if normalize:
                ov, pv = _JS_SPACES.sub("", ov), _JS_SPACES.sub("", pv)
            if ov != pv:
                return False
        elif not _strict_equal(ov, pv):
            return False
    return True


_WHERE_HARNESS: Final = r"""(function (payload) {
  const p = JSON.parse(payload);
  for (const a of p.calls) {
    try {
      const fn = new Function("args", "return (" + p.where + ");");
      if (fn(a)) return "true";
    } catch (e) {}
  }
  return "false";
})"""


def tool_args_match(text: str, args: dict[str, Any], ctx: CheckContext) -> Any:
    """True if a call named `name` has arguments matching `where` (object or JS expression)."""
    name = args.get("name")
    where = args.get("where")
    normalize = js_truthy(args.get("normalizeWhitespace"))
    candidates = [
        call.arguments
        for call in ctx.tool_calls
        if _strict_equal(call.name, name) and call.arguments is not None
    ]
    if isinstance(where, str):
        if not candidates:
            return False
        env = ctx.env
        payload = {"where": where, "calls": js_clean(candidates)}
        try:
            result = run_fresh(
                _WHERE_HARNESS,
                payload,
                time_limit_s=env.js_time_limit_s,
                memory_limit=env.js_memory_limit,
            )
        except JSEngineError as exc:
            reason = (
                f"did not finish within {round(env.js_time_limit_s * 1000)} ms"
                if exc.kind == "timeout"
                else f"stopped: {exc.message}"
            )
            return {"error": f"tool_args_match: the `where` expression {reason}"}
        return result is True
    if isinstance(where, dict | list):
        return any(_partial(candidate, where, normalize) for candidate in candidates)
    return False


def tool_call_count_between(text: str, args: Any, ctx: CheckContext) -> bool:
    """`min <= count <= max` (defaults 0 and +inf), optionally counting one tool name."""
    arr = args if isinstance(args, list) else []
    low = arr[0] if len(arr) > 0 and is_number(arr[0]) else 0
    high = arr[1] if len(arr) > 1 and is_number(arr[1]) else math.inf
    name = arr[2] if len(arr) > 2 and isinstance(arr[2], str) else None
    count = sum(1 for call in ctx.tool_calls if not name or call.name == name)
    return bool(count >= low and count <= high)


def tool_call_order_error(args: Any, has_args: bool) -> str | None:
    """Validator: at least one string tool name in an array."""
    if isinstance(args, list) and any(isinstance(item, str) for item in args):
        return None
    return "tool_call_order expects an array of tool names"


def tool_call_order(text: str, args: list[Any], ctx: CheckContext) -> bool:
    """True if the names appear in this order as a subsequence (gaps allowed)."""
    expected = [item for item in args if isinstance(item, str)]
    index = 0
    for call in ctx.tool_calls:
        if call.name == expected[index]:
            index += 1
            if index == len(expected):
                return True
    return False
