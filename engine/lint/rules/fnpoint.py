"""Reading a function point as Weval does: its name, argument and where each is written."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from engine.blueprint.points import normalize_fn_name
from engine.blueprint.source import Span
from engine.js import js_regex_error, js_syntax_error
from engine.js.regex_limits import MAX_TRANSLATED_LENGTH
from engine.js.values import js_truthy
from engine.lint.context import LintContext, PointRef
from engine.lint.rules.points import split_function_text

__all__ = ["FnPoint", "function_point", "js_error", "regex_error"]


def regex_error(pattern: str, flags: str) -> str | None:
    """JavaScript's message for an invalid pattern (cached: linting runs on every keystroke).

    Long patterns are not kept here (each edit of one would hold another copy); the checks
    keep the last few of them.
    """
    if len(pattern) > MAX_TRANSLATED_LENGTH:
        return js_regex_error(pattern, flags)
    return _short_regex_error(pattern, flags)


@lru_cache(maxsize=8192)
def _short_regex_error(pattern: str, flags: str) -> str | None:
    return js_regex_error(pattern, flags)


@lru_cache(maxsize=2048)
def js_error(source: str) -> str | None:
    """The JS engine's message when `$js` source does not parse (cached)."""
    return js_syntax_error(source)


class FnPoint:
    """A function point as written: its name, argument and (computed when needed) positions."""

    __slots__ = ("_args_span", "_ctx", "_name_span", "arg_key", "args", "form", "has_args", "key",
                 "name", "point")  # fmt: skip

    def __init__(
        self,
        ctx: LintContext,
        point: PointRef,
        name: str,
        args: Any,
        form: Literal["string", "mapping", "full"],
        key: str = "",
        arg_key: str = "",
    ) -> None:
        self._ctx = ctx
        self.point = point
        self.name = name
        self.args = args
        self.has_args = args is not None
        self.form = form
        self.key = key
        self.arg_key = arg_key
        self._name_span: Span | None = None
        self._args_span: Span | None = None

    @property
    def name_span(self) -> Span:
        """Where the function's name is written (`$name` key, `"$name"` text, or `fn` value)."""
        if self._name_span is None:
            ctx, point = self._ctx, self.point
            if self.form == "string":
                self._name_span = ctx.extent(point.value, point.span)
            elif self.form == "mapping":
                self._name_span = ctx.key_span(point.value, self.key, point.span)
            else:
                self._name_span = ctx.value_span(point.value, "fn", point.span)
        return self._name_span

    @property
    def args_span(self) -> Span | None:
        """Where the argument is written, if there is one."""
        if self._args_span is None and self.form != "string":
            key = self.key if self.form == "mapping" else self.arg_key
            present = self.has_args if self.form == "mapping" else key in self.point.value
            if present:
                self._args_span = self._ctx.value_span(self.point.value, key, self.point.span)
        return self._args_span


def function_point(ctx: LintContext, point: PointRef) -> FnPoint | None:
    """Read the function of a rubric item, as Weval's parser does; None for judged text."""
    value = point.value
    if isinstance(value, str):
        if point.path is not None or not value.startswith("$") or len(value) < 2:
            return None  # judged text
        parts = split_function_text(value)
        if parts is not None and parts[1] is not None:
            return None  # `"$fn: arg"`: reported as quoted-function
        return FnPoint(ctx, point, value[1:], None, "string")
    if not isinstance(value, dict):
        return None
    key = next((k for k in value if k.startswith("$")), None)
    if key is not None:
        return FnPoint(ctx, point, normalize_fn_name(key[1:]), value[key], "mapping", key)
    fn = value.get("fn")
    if js_truthy(value.get("text")) or js_truthy(value.get("point")) or not js_truthy(fn):
        return None
    if not isinstance(fn, str):
        return None
    arg_key = "fnArgs" if js_truthy(value.get("fnArgs")) else "arg"
    return FnPoint(ctx, point, normalize_fn_name(fn), value.get(arg_key), "full", "fn", arg_key)
