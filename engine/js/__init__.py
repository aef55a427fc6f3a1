"""JavaScript semantics the engine reproduces: the QuickJS runtime, `RegExp`, strings and values.

What is here: QuickJS sandboxes and the worker process blueprint JavaScript runs in (`engine`,
`process`, `worker`), JavaScript regular expressions translated onto the `regex` module with
V8's parser and errors and QuickJS as the fallback (`regex`, `regex_parse`, `regex_limits`,
`regex_run`, `charsets`, `case`), and JavaScript's string and value semantics (`strings`,
`values`: `trim()`, `JSON.parse`, `String(x)`, truthiness, numbers written out).

May import: the standard library, QuickJS, `regex`, `engine.lazy` and its own
modules; never `engine.checks`, `engine.providers`, `engine.net` or anything else of the engine
above it (the worker process starts from `engine.js.worker` and must stay light).

The names load on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.js.engine import js_syntax_error
    from engine.js.regex import compile_js_regex, js_regex_error

_HOMES = {
    "js_syntax_error": "engine",
    "compile_js_regex": "regex",
    "js_regex_error": "regex",
}

__all__ = ["compile_js_regex", "js_regex_error", "js_syntax_error"]

__getattr__ = lazy_names(__name__, _HOMES)
