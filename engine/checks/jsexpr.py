"""`$js` (alias `$expr`): run the blueprint's JavaScript over the response in a QuickJS sandbox.

Each evaluation gets a FRESH QuickJS context (never shared between threads) with a 100 ms time
limit, a 64 MiB memory limit and a stack limit. Its only globals besides the built-ins are
`context = {messages, modelId}`, `r` and `response`, set in that order (as Weval's sandbox
object). The source runs as a script; its completion value is the result. If the script
fails with an illegal `return` (QuickJS says "return not in a function", Node "Illegal return
statement"), it runs again wrapped in an arrow-function IIFE, in the same context, as upstream
does. The result is classified inside JavaScript and returned as JSON.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

from engine.checks.context import CheckContext
from engine.checks.jsengine import JSEngineError, fresh_context, js_call, set_globals
from engine.jsvalues import js_clean

__all__ = ["js", "js_arg_error"]

# `_RUN` returns a boolean or number result as is (the common case, no more JS needed) and
# wraps anything else: {v: value} or {e: thrown}. Only then is `_CLASSIFY` parsed, which
# classifies the value as upstream's processResult does. Both are short because QuickJS
# parses them once per evaluation (a fresh context each time).
_RUN: Final = (
    "(function(s){var v;try{v=(0,eval)(s)}catch(e){return{e:e}}var t=typeof v;"
    "return t==='boolean'||t==='number'?v:{v:v}})"
)
_CLASSIFY: Final = (
    "(function(w){var S=JSON.stringify,m=function(e){return e!==null&&typeof e==='object'&&"
    "'message' in e?String(e.message):String(e)};try{if('e' in w)return S({k:'thrown',m:m(w.e)})"
    ";var v=w.v,t=typeof v;if(t==='object'&&v!==null&&'score' in v){var c=Object.assign({},v),"
    "s=c.score;if(typeof s==='boolean')s=s?1:0;else if(typeof s==='number')s=Math.max(0,"
    "Math.min(1,s));else return S({k:'error',e:'Invalid score type: '+typeof s});return S({k:"
    "'score',s:s!==s?'nan':s,x:typeof c.explain==='string'?c.explain:null})}if(v===undefined)"
    "return S({k:'undef'});return S({k:'error',e:'Script returned an invalid type: '+t+'. Must "
    "return a boolean or a number.'})}catch(e){return S({k:'thrown',m:m(e)})}})"
)
# QuickJS's one enumerable host global; Node's `vm` context has no `performance`.
_NO_HOST_GLOBALS: Final = "delete globalThis.performance"
_RETRY_MARKERS: Final = ("Illegal return statement", "return not in a function")


def js_arg_error(args: Any, has_args: bool) -> str | None:
    """Validator: the argument must be a string of JavaScript."""
    return None if isinstance(args, str) else "Argument for js must be a string expression."


def _stopped(exc: JSEngineError, prefix: str, limit_s: float, memory_mib: int) -> dict[str, str]:
    if exc.kind == "timeout":
        detail = f"Script execution timed out after {round(limit_s * 1000)}ms"
    elif exc.kind == "memory":
        detail = f"{exc.message} (the sandbox allows {memory_mib} MiB)"
    else:
        detail = exc.message
    return {"error": f"{prefix}: {detail}"}


def _convert(result: Any, prefix: str) -> Any:
    kind = result.get("k") if isinstance(result, dict) else None
    if kind == "undef":
        return False
    if kind == "score":
        score = math.nan if result["s"] == "nan" else float(result["s"])
        out: dict[str, Any] = {"score": score}
        if isinstance(result.get("x"), str):
            out["explain"] = result["x"]
        return out
    if kind == "error":
        return {"error": str(result.get("e"))}
    if kind == "thrown":
        return {"error": f"{prefix}: {result.get('m')}"}
    return {"error": f"{prefix}: the sandbox returned an unreadable result"}


def _run(ctx: Any, source: str) -> tuple[Any, str | None]:
    """Run once; return (a primitive result or a classification, the thrown message if any)."""
    value = js_call(ctx.eval(_RUN), source)
    if isinstance(value, bool | int | float):
        return value, None
    result = json.loads(js_call(ctx.eval(_CLASSIFY), value))
    return result, result.get("m") if result.get("k") == "thrown" else None


def js(text: str, args: str, ctx: CheckContext) -> Any:
    """Run `args` as JavaScript over the response; return what upstream's `js` returns."""
    env = ctx.env
    limit_s, memory_mib = env.js_time_limit_s, env.js_memory_limit >> 20
    prefix = "Expression evaluation failed"
    try:
        box = fresh_context(time_limit_s=limit_s, memory_limit=env.js_memory_limit)
        box.eval(_NO_HOST_GLOBALS)
        set_globals(  # in this order: Object.keys(this) is `context,r,response` in Weval
            box,
            {
                "context": {
                    "messages": js_clean(ctx.evidence.messages),
                    "modelId": ctx.evidence.model_id,
                },
                "r": text,
                "response": text,
            },
        )
        result, thrown = _run(box, args)
        if thrown is not None and any(marker in thrown for marker in _RETRY_MARKERS):
            prefix = "Expression evaluation failed on retry"
            result, thrown = _run(box, "(() => {\n" + args + "\n})();")
    except JSEngineError as exc:
        return _stopped(exc, prefix, limit_s, memory_mib)
    if isinstance(result, bool):
        return result
    if isinstance(result, int | float):
        return math.nan if math.isnan(result) else max(0.0, min(1.0, float(result)))
    return _convert(result, prefix)
