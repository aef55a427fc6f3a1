r"""The JavaScript worker: a child process that runs blueprint `$js` and `where` code in QuickJS.

`engine.js.process` starts it as `python -m engine.js.worker` (a fresh interpreter)
and kills it when an answer is late: QuickJS's own time limit is not read everywhere (its
regex engine resets a repeated group's captures in a loop that never polls it), so only a
separate process can be stopped by force. This module imports only `json`, the standard
library and `engine.js.engine` (QuickJS), so the worker starts in about 0.1 s.

Each request gets a FRESH QuickJS context with the requested limits, exactly as an evaluation
in the parent did (`evaluate_js` and `engine.js.engine.run_fresh` are the in-process paths; the
parent's tests and `bench/js.py` call them directly too). The worker makes the next context
as soon as it has answered (`engine.js.engine.prepare_context`), while the parent reads the answer.

Protocol: the worker writes `{"ready":1}` once QuickJS is loaded, then answers each request
line on stdin with one line on stdout. Both are JSON with `ensure_ascii=True`, so a line never
holds a raw newline and lone surrogates cross as `\udxxx` escapes. Requests:

- `{"op": "js", "source", "text", "time_limit_s", "memory_limit", "kill_after_s",
  "context_bytes"?}`: answered with what `$js` returns (`evaluate_js`). With
  `context_bytes`, that many bytes follow the line: the `context` global's JSON text, which
  the worker keeps; without it, the last one sent is used again (the parent sends a
  conversation once for all the `$js` points over it).
- `{"op": "fresh", "harness", "payload", "time_limit_s", "memory_limit", "stack_limit",
  "kill_after_s"}`: answered with the decoded result of `engine.js.engine.run_fresh`.

Answers: `{"ok": value}`, `{"err": [kind, message]}` (a `JSEngineError`) or `{"fail":
message}` (a request the worker could not handle); a request that took more than a quarter of
`kill_after_s` first writes `{"done":1}` (QuickJS has finished; a long answer is being
encoded). The worker exits at end of input. While a request runs, an interval timer whose
signal kills the process (`SIGALRM`, default action) is set a little past the parent's own
deadline (`kill_after_s`), so a worker whose parent died mid-request does not outlive it by
more than that. Its address space is limited (`ADDRESS_SPACE`), and it ignores `SIGINT`
(Ctrl-C is the parent's to handle).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sys
import time
from typing import IO, Any, Final

from engine.js.engine import (
    JSEngineError,
    JSONText,
    fresh_context,
    js_call,
    prepare_context,
    run_fresh,
    set_globals,
)

__all__ = ["ADDRESS_SPACE", "DONE", "READY", "evaluate_js", "main", "stopped"]

ADDRESS_SPACE: Final = 512 << 20
"""The worker's `RLIMIT_AS` (virtual memory) on top of twice the requested QuickJS heap limit.

A started worker maps about 95 MiB (the interpreter, QuickJS and its helper thread); QuickJS
keeps its own heap limit (64 MiB by default) inside it.
"""
READY: Final = b'{"ready":1}\n'
"""The line the worker writes once it can take requests."""
DONE: Final = b'{"done":1}\n'
"""The line a slow request writes when QuickJS has finished, before the answer is encoded."""
_ALARM_MARGIN_S: Final = 2.0

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


def stopped(exc: JSEngineError, prefix: str, limit_s: float, memory_mib: int) -> dict[str, str]:
    """Return the `$js` error result for a run QuickJS (or the parent) stopped.

    Args:
        exc: Why it stopped (`timeout`, `memory` or `engine`).
        prefix: `Expression evaluation failed` (or `... on retry`).
        limit_s: The time limit, quoted in the timeout message.
        memory_mib: The heap limit, quoted in the out-of-memory message.

    Returns:
        `{"error": ...}` with upstream's timeout wording.
    """
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


def evaluate_js(
    source: str, text: str, context: str, *, time_limit_s: float, memory_limit: int
) -> Any:
    """Run a `$js` source over a response in a fresh QuickJS context, in this process.

    Its only globals besides the built-ins are `context`, `r` and `response`, set in that
    order (as Weval's sandbox object). The source runs as a script; its completion value is
    the result. If the script fails with an illegal `return` (QuickJS says "return not in a
    function", Node "Illegal return statement"), it runs again wrapped in an arrow-function
    IIFE, in the same context, as upstream does.

    Args:
        source: The blueprint's JavaScript.
        text: The response (`r`, `response`).
        context: `context` as JSON text, `{messages, modelId}` (`CheckContext.js_context`).
        time_limit_s: QuickJS's time limit for each call into the context.
        memory_limit: QuickJS's heap limit in bytes.

    Returns:
        What upstream's `js` returns: a boolean, a number in [0, 1] (or NaN), `{score,
        explain?}` or `{error}`.
    """
    prefix = "Expression evaluation failed"
    try:
        box = fresh_context(time_limit_s=time_limit_s, memory_limit=memory_limit)
        box.eval(_NO_HOST_GLOBALS)
        # in this order: Object.keys(this) is `context,r,response` in Weval
        set_globals(box, {"context": JSONText(context), "r": text, "response": text})
        result, thrown = _run(box, source)
        if thrown is not None and any(marker in thrown for marker in _RETRY_MARKERS):
            prefix = "Expression evaluation failed on retry"
            result, thrown = _run(box, "(() => {\n" + source + "\n})();")
    except JSEngineError as exc:
        return stopped(exc, prefix, time_limit_s, memory_limit >> 20)
    if isinstance(result, bool):
        return result
    if isinstance(result, int | float):
        return math.nan if math.isnan(result) else max(0.0, min(1.0, float(result)))
    return _convert(result, prefix)


class _Last:
    """What the worker keeps between requests: the last `context` it was sent."""

    context: str | None = None


def _handle(request: dict[str, Any]) -> Any:
    op = request["op"]
    if op == "js":
        if _Last.context is None:
            raise ValueError("no context was sent")
        return evaluate_js(
            request["source"],
            request["text"],
            _Last.context,
            time_limit_s=float(request["time_limit_s"]),
            memory_limit=int(request["memory_limit"]),
        )
    if op == "fresh":
        return run_fresh(
            request["harness"],
            request["payload"],
            time_limit_s=float(request["time_limit_s"]),
            memory_limit=int(request["memory_limit"]),
            stack_limit=int(request["stack_limit"]),
        )
    raise ValueError(f"unknown request {op!r}")


def _answer(line: bytes, requests: IO[bytes], answers: IO[bytes]) -> bytes:
    """Read the rest of one request, handle it; return the answer line (never raises).

    A request that took more than a quarter of the parent's deadline writes `DONE` first:
    the deadline bounds the evaluation, and encoding a long answer takes time of its own.
    """
    start = time.monotonic()
    kill_after_s = 0.0
    try:
        request = json.loads(line)
        if "context_bytes" in request:
            _Last.context = requests.read(int(request["context_bytes"])).decode("ascii")
        kill_after_s = float(request["kill_after_s"])
        _limit_address_space(int(request.get("memory_limit", 0)))
        signal.setitimer(signal.ITIMER_REAL, kill_after_s + _ALARM_MARGIN_S)
        try:
            answer: dict[str, Any] = {"ok": _handle(request)}
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except JSEngineError as exc:
        answer = {"err": [exc.kind, exc.message]}
    except Exception as exc:  # a malformed request or a bug: the parent reports it as errored
        answer = {"fail": f"{type(exc).__name__}: {exc}"}
    if time.monotonic() - start > kill_after_s / 4:
        answers.write(DONE)
        answers.flush()
    try:
        return (json.dumps(answer, ensure_ascii=True) + "\n").encode("ascii")
    except (TypeError, ValueError, MemoryError) as exc:
        return (json.dumps({"fail": f"unencodable answer: {exc!r}"}) + "\n").encode("ascii")


_address_space = 0


def _limit_address_space(memory_limit: int) -> None:
    """Set `RLIMIT_AS` to `ADDRESS_SPACE` plus twice the heap limit (never above the hard one)."""
    global _address_space
    want = ADDRESS_SPACE + 2 * max(memory_limit, 0)
    if want == _address_space:
        return
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    soft = want if hard == resource.RLIM_INFINITY else min(want, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    _address_space = want


def _serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    prepare_context()  # loads QuickJS too
    answers.write(READY)
    answers.flush()
    while line := requests.readline():
        answers.write(_answer(line, requests, answers))
        answers.flush()
        with contextlib.suppress(Exception):  # else `fresh_context` makes one (or says why not)
            prepare_context()  # the next request's fresh context, made while the parent reads


def main() -> None:
    """Serve requests from stdin until it ends (the parent closed it or exited)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The protocol keeps its own copy of stdout; fd 1 and `print` then go to stderr, so no
    # stray output (Python's or C's) can corrupt an answer line.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _limit_address_space(0)
    _serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
