"""QuickJS plumbing: fresh sandboxes for blueprint code, per-thread regex contexts, syntax checks.

Rules (measured in `shared/reference/studio-tech.md` §3): a QuickJS context is never used from
two threads. Blueprint code (`$js`, a string `where`) runs in a FRESH context per evaluation with
a time limit, a memory limit and a stack limit; the only globals are the ones the harness sets.
The regex fallback keeps one context per thread (`threading.local`) with a JS-side cache of
compiled `RegExp` objects. Strings cross the boundary as JSON (ASCII-escaped) when they hold lone
surrogates, which the binding cannot pass, and results always come back as JSON text.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Final

__all__ = [
    "MEMORY_LIMIT",
    "STACK_LIMIT",
    "TIME_LIMIT_S",
    "JSEngineError",
    "JSONText",
    "Sandbox",
    "fresh_context",
    "js_call",
    "js_canonical_upper",
    "js_regex_test",
    "js_syntax_error",
    "prepare_context",
    "quickjs_regex_error",
    "run_fresh",
    "set_globals",
]

TIME_LIMIT_S: Final = 0.1
MEMORY_LIMIT: Final = 64 << 20
STACK_LIMIT: Final = 512 << 10


def _quickjs() -> Any:
    """The QuickJS binding, imported on first use.

    Importing it starts a worker thread; `blueprint lint` of a file without JavaScript and a
    run without JavaScript checks never need it.
    """
    import quickjs

    return quickjs


class JSEngineError(RuntimeError):
    """QuickJS stopped a run: `kind` is `timeout`, `memory` or `engine`."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _classify(exc: Exception) -> JSEngineError:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "interrupted" in text:
        return JSEngineError("timeout", text)
    if "out of memory" in text or "string too long" in text:
        return JSEngineError("memory", text)
    return JSEngineError("engine", text)


def _safe(text: str) -> bool:
    """Whether the binding can pass `text` directly (it cannot pass lone surrogates)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _ThreadState(threading.local):
    ctx: Any = None  # the regex contexts (`js_regex_test`)
    test: Any = None
    check: Any = None
    spare: Any = None  # the next `fresh_context` (`prepare_context`)


_state = _ThreadState()


def fresh_context(
    *,
    time_limit_s: float = TIME_LIMIT_S,
    memory_limit: int = MEMORY_LIMIT,
    stack_limit: int = STACK_LIMIT,
) -> Any:
    """Return a new QuickJS context with limits set; use it from the calling thread only.

    The context is the one `prepare_context` made in this thread, if any (never used before).
    """
    ctx, _state.spare = _state.spare, None
    if ctx is None:
        ctx = _quickjs().Context()
    ctx.set_memory_limit(memory_limit)
    ctx.set_max_stack_size(stack_limit)
    ctx.set_time_limit(time_limit_s)
    return ctx


def prepare_context() -> None:
    """Create this thread's next `fresh_context` now, before it is asked for.

    A JavaScript worker calls it after each answer, so the 0.3 ms a new QuickJS context
    takes is spent while the parent reads the answer rather than in the next request. The
    limits are set when `fresh_context` hands the context out (QuickJS counts its time limit
    from the start of each call, not from the context's creation).
    """
    if _state.spare is None:
        _state.spare = _quickjs().Context()


class JSONText(str):
    """A string holding JSON text: `set_globals` sets the value it encodes, not the string."""

    __slots__ = ()


def _json_text(value: Any) -> str:
    return value if isinstance(value, JSONText) else json.dumps(value, ensure_ascii=True)


def set_globals(ctx: Any, values: dict[str, Any]) -> None:
    """Set global variables from JSON-like values (strings with lone surrogates included).

    A `JSONText` value is parsed by QuickJS (the caller has encoded it already).
    """
    try:
        for name, value in values.items():
            if isinstance(value, str) and not isinstance(value, JSONText) and _safe(value):
                ctx.set(name, value)
            else:
                ctx.set(name, ctx.parse_json(_json_text(value)))
    except _quickjs().JSException as exc:
        raise _classify(exc) from None
    except Exception:  # a lone-surrogate string: let JavaScript decode it
        setter = ctx.eval("(function (n, p) { globalThis[n] = JSON.parse(p); })")
        for name, value in values.items():
            js_call(setter, name, _json_text(value))


def js_call(fn: Any, *args: Any) -> Any:
    """Call a QuickJS function; map interruptions and engine failures to `JSEngineError`."""
    try:
        return fn(*args)
    except _quickjs().JSException as exc:
        raise _classify(exc) from None
    except Exception as exc:  # the binding raises SystemError/UnicodeError on odd values
        raise JSEngineError("engine", f"{type(exc).__name__}: {exc}") from None


class Sandbox:
    """A fresh QuickJS context holding one harness function; used from one thread only.

    Args:
        harness: Source of a function expression; it receives one JSON string and must
            return a JSON string.
        time_limit_s: Wall-clock limit for each call.
        memory_limit: Heap limit in bytes.
        stack_limit: Native stack QuickJS may use, in bytes.

    Raises:
        JSEngineError: The harness itself could not be set up.
    """

    def __init__(
        self,
        harness: str,
        *,
        time_limit_s: float = TIME_LIMIT_S,
        memory_limit: int = MEMORY_LIMIT,
        stack_limit: int = STACK_LIMIT,
    ) -> None:
        ctx = fresh_context(
            time_limit_s=time_limit_s, memory_limit=memory_limit, stack_limit=stack_limit
        )
        try:
            self._fn = ctx.eval(harness)
        except _quickjs().JSException as exc:
            raise _classify(exc) from None
        self._ctx = ctx

    def call(self, payload: Any) -> Any:
        """Call the harness with `JSON.stringify(payload)`; return its decoded JSON result.

        Raises:
            JSEngineError: The call was interrupted (time), ran out of memory, or returned
                something that is not JSON.
        """
        out = js_call(self._fn, json.dumps(payload, ensure_ascii=True, allow_nan=False))
        if not isinstance(out, str):
            raise JSEngineError("engine", "the sandbox returned no result")
        try:
            return json.loads(out)
        except ValueError:
            raise JSEngineError("engine", "the sandbox returned an unreadable result") from None


def run_fresh(
    harness: str,
    payload: Any,
    *,
    time_limit_s: float = TIME_LIMIT_S,
    memory_limit: int = MEMORY_LIMIT,
    stack_limit: int = STACK_LIMIT,
) -> Any:
    """Run `harness` once in a fresh `Sandbox` and return its decoded JSON result.

    Raises:
        JSEngineError: See `Sandbox.call`.
    """
    box = Sandbox(
        harness, time_limit_s=time_limit_s, memory_limit=memory_limit, stack_limit=stack_limit
    )
    return box.call(payload)


_REGEX_HARNESS: Final = r"""(function () {
  const cache = new Map();
  const build = function (p, f) {
    try { return new RegExp(p, f); }
    catch (e) {  // out of memory may come from the cached patterns: drop them and retry once
      if (cache.size === 0) throw e;
      cache.clear();
      return new RegExp(p, f);
    }
  };
  const test = function (p, f, t, enc) {
    if (enc & 1) p = JSON.parse(p);
    if (enc & 2) t = JSON.parse(t);
    const key = f + "/" + p;
    let re = cache.get(key);
    if (re === undefined) {
      re = build(p, f);
      if (cache.size >= 512) cache.clear();
      cache.set(key, re);
    }
    re.lastIndex = 0;
    return re.test(t);
  };
  const check = function (p, f) {
    try { build(JSON.parse(p), f); return ""; }
    catch (e) { return String(e && e.message); }
  };
  return [test, check];
})()"""


def _thread_functions() -> tuple[Any, Any]:
    if _state.ctx is None:
        ctx = _quickjs().Context()
        ctx.set_memory_limit(MEMORY_LIMIT)
        ctx.set_max_stack_size(STACK_LIMIT)
        ctx.set_time_limit(TIME_LIMIT_S)
        functions, pick = ctx.eval(_REGEX_HARNESS), ctx.eval("(a, i) => a[i]")
        _state.test, _state.check = pick(functions, 0), pick(functions, 1)
        _state.ctx = ctx
    return _state.test, _state.check


def js_regex_test(pattern: str, flags: str, text: str, time_limit_s: float = TIME_LIMIT_S) -> bool:
    """Return `new RegExp(pattern, flags).test(text)` run by QuickJS in this thread's context.

    `time_limit_s` bounds this call (the context's clock is set for it).

    Raises:
        JSEngineError: The pattern is invalid (`engine`) or matching took longer than the time
            limit (`timeout`, catastrophic backtracking).
    """
    test, _ = _thread_functions()
    ctx = _state.ctx
    if ctx is not None:
        ctx.set_time_limit(time_limit_s)
    enc = 0
    if not _safe(pattern):
        pattern, enc = json.dumps(pattern), enc | 1
    if not _safe(text):
        text, enc = json.dumps(text), enc | 2
    try:
        return bool(test(pattern, flags, text, enc))
    except _quickjs().JSException as exc:
        raise _classify(exc) from None


def quickjs_regex_error(pattern: str, flags: str) -> str | None:
    """Return QuickJS's own message for an invalid pattern (lower-case, e.g. `unexpected end`)."""
    _, check = _thread_functions()
    try:
        message = check(json.dumps(pattern), flags)
    except _quickjs().JSException as exc:
        return str(_classify(exc))
    return message or None


_SYNTAX_HARNESS: Final = r"""(function (payload) {
  const src = JSON.parse(payload);
  const message = (e) => String(e && e.message);
  try { new Function(src); } catch (e) { return JSON.stringify(message(e)); }
  try { new Function("{" + src + "\n}"); } catch (e) { return JSON.stringify(message(e)); }
  return "null";
})"""


def js_syntax_error(source: str) -> str | None:
    """Return the JS engine's message if a `$js` source does not parse, else None.

    A source is accepted if it parses as a script, or (upstream's retry for a top-level
    `return`) as the body of an arrow function. Both are checked by parsing it as a function
    body, without running it; a source that tries to close the wrapper (`}); ...`) is
    rejected.
    """
    try:
        result = run_fresh(_SYNTAX_HARNESS, source)
    except JSEngineError as exc:
        return exc.message
    return result if isinstance(result, str) else None


_UPPER_HARNESS: Final = r"""(function () {
  const out = [];
  for (let c = 128; c < 0x10000; c++) {
    const u = String.fromCharCode(c).toUpperCase();
    if (u.length === 1 && u.charCodeAt(0) !== c) out.push(c, u.charCodeAt(0));
  }
  return JSON.stringify(out);
})"""

_upper_lock = threading.Lock()
_upper: dict[int, int] | None = None


def js_canonical_upper() -> dict[int, int]:
    """Return the non-ASCII code units whose `toUpperCase()` is a different single code unit.

    Computed once by QuickJS itself, so case-insensitive translation uses the same Unicode
    tables as the engine that is the oracle in the differential tests.
    """
    global _upper
    if _upper is None:
        with _upper_lock:
            if _upper is None:
                flat = run_fresh(_UPPER_HARNESS, None, time_limit_s=5.0)
                _upper = {flat[i]: flat[i + 1] for i in range(0, len(flat), 2)}
    return _upper
