"""`$js` (alias `$expr`): run the blueprint's JavaScript over the response in a QuickJS sandbox.

The sandbox runs in a worker process (`engine.js.process`), which is killed when it has
not answered shortly after the time limit: QuickJS does not read its clock everywhere (a
regex that resets many captures per repeat runs for seconds past it), and a `$js` source can
build such a regex at run time. What runs there is `engine.js.worker.evaluate_js`: a FRESH QuickJS
context per evaluation with a 100 ms time limit, a 64 MiB memory limit and a stack limit, the
globals `context = {messages, modelId}`, `r` and `response` (set in that order, as Weval's
sandbox object), and upstream's retry in an arrow-function IIFE after an illegal `return`.
A worker killed at the deadline gives upstream's timeout message; one that dies gives an
error naming that.
"""

from __future__ import annotations

from typing import Any

from engine.checks.context import CheckContext
from engine.js.engine import JSEngineError
from engine.js.process import evaluate_js
from engine.js.worker import stopped

__all__ = ["js", "js_arg_error"]


def js_arg_error(args: Any, has_args: bool) -> str | None:
    """Validator: the argument must be a string of JavaScript."""
    return None if isinstance(args, str) else "Argument for js must be a string expression."


def js(text: str, args: str, ctx: CheckContext) -> Any:
    """Run `args` as JavaScript over the response; return what upstream's `js` returns."""
    env = ctx.env
    try:
        return evaluate_js(
            args,
            text,
            ctx.js_context,
            time_limit_s=env.js_time_limit_s,
            memory_limit=env.js_memory_limit,
        )
    except JSEngineError as exc:  # the worker was killed at its deadline, or died
        return stopped(
            exc, "Expression evaluation failed", env.js_time_limit_s, env.js_memory_limit >> 20
        )
