"""A function point's reflection in the user's terms, written from its function and arguments.

"Contains 'sandals', which it should not: score 0.00." says what the check found and whether
that was wanted, instead of "Function 'icontains' evaluated to 0.00". Only the point's own
arguments are quoted (short excerpts); model output is never quoted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.checks.registry import CATALOGUE
from engine.js.values import js_json_stringify, js_string

__all__ = ["Wording", "excerpt", "wording_for"]

_EXCERPT: Final = 40
_LIST: Final = 4


def excerpt(value: Any, limit: int = _EXCERPT) -> str:
    """`value` as a short single-line quote: `'text'`, cut to `limit` characters with `…`."""
    text = value if isinstance(value, str) else js_string(value)
    text = " ".join(text.split()) if any(c in text for c in "\n\r\t") else text
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{text}'"


def _items(values: Any, show: Callable[[Any], str] = excerpt) -> str:
    """`'a', 'b' or 'c'`-style list of at most `_LIST` short quotes."""
    if not isinstance(values, list):
        return show(values)
    shown = [show(v) for v in values[:_LIST]]
    more = len(values) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _regex(value: Any) -> str:
    body = excerpt(value)[1:-1]
    return f"/{body}/"


def _n_and_list(args: Any) -> tuple[Any, Any]:
    if isinstance(args, list) and len(args) == 2:
        return args[0], args[1]
    return "n", args


def _text_family(verb: str, negative: str, case: str) -> Callable[[Any], tuple[str, str]]:
    def phrases(args: Any) -> tuple[str, str]:
        return f"{verb} {excerpt(args)}{case}", f"{negative} {excerpt(args)}{case}"

    return phrases


def _phrases(base: str, args: Any) -> tuple[str, str] | None:
    """(what holds when the base function passes, what holds when it fails), or None."""
    name = _CASELESS.get(base, base)
    case = " (ignoring case)" if name != base else ""
    simple = _SIMPLE.get(name)
    if simple is not None:
        return _text_family(*simple, case)(args)
    if name == "contains_any_of":
        return f"contains one of {_items(args)}{case}", f"contains none of {_items(args)}{case}"
    if name == "contains_all_of":
        return f"contains all of {_items(args)}{case}", f"contains none of {_items(args)}{case}"
    if name == "matches_all_of":
        listed = _items(args, _regex)
        return f"matches all of {listed}{case}", f"matches none of {listed}{case}"
    if name in ("contains_at_least_n_of", "matches_at_least_n_of"):
        n, values = _n_and_list(args)
        verb, show = ("contains", excerpt) if name.startswith("contains") else ("matches", _regex)
        listed = _items(values, show)
        return (
            f"{verb} at least {js_string(n)} of {listed}{case}",
            f"{verb} none of {listed}{case}",
        )
    if name == "matches":
        return f"matches {_regex(args)}{case}", f"does not match {_regex(args)}{case}"
    if name == "contains_word":
        return (
            f"contains the word {excerpt(args)}{case}",
            f"does not contain the word {excerpt(args)}{case}",
        )
    other = _OTHER.get(base)
    return None if other is None else other(args)


_SIMPLE: Final[dict[str, tuple[str, str]]] = {
    "contains": ("contains", "does not contain"),
    "starts_with": ("starts with", "does not start with"),
    "ends_with": ("ends with", "does not end with"),
}
_CASELESS: Final[dict[str, str]] = {
    "icontains": "contains",
    "istarts_with": "starts_with",
    "iends_with": "ends_with",
    "icontains_any_of": "contains_any_of",
    "icontains_all_of": "contains_all_of",
    "icontains_at_least_n_of": "contains_at_least_n_of",
    "imatches": "matches",
    "imatch_all_of": "matches_all_of",
    "imatch_at_least_n_of": "matches_at_least_n_of",
    "icontains_word": "contains_word",
}


def _words(args: Any) -> tuple[str, str]:
    low, high = args if isinstance(args, list) and len(args) == 2 else ("?", "?")
    span = f"{js_string(low)} to {js_string(high)} words"
    return f"has {span}", f"does not have {span}"


def _tool_args(args: Any) -> tuple[str, str]:
    name = excerpt(args.get("name")) if isinstance(args, dict) else "the tool"
    return (
        f"called {name} with the expected arguments",
        f"made no call to {name} with the expected arguments",
    )


def _tool_count(args: Any) -> tuple[str, str]:
    parts = list(args) if isinstance(args, list) else []
    low = parts[0] if parts and parts[0] is not None else 0
    high = parts[1] if len(parts) > 1 and parts[1] is not None else "any number of"
    of = f" to {excerpt(parts[2])}" if len(parts) > 2 and parts[2] is not None else ""
    span = f"{js_string(low)} to {js_string(high)} tool calls{of}"
    return f"made {span}", f"did not make {span}"


def _order(args: Any) -> tuple[str, str]:
    return (
        f"called the tools in the order {_items(args)}",
        f"did not call the tools in the order {_items(args)}",
    )


def _js(_: Any) -> tuple[str, str]:
    return "passes its JavaScript check", "fails its JavaScript check"


def _service(_: Any) -> tuple[str, str]:
    return "passes your service's check", "fails your service's check"


_OTHER: Final[dict[str, Callable[[Any], tuple[str, str]]]] = {
    "is_json": lambda _: ("is a JSON object or array", "is not a JSON object or array"),
    "word_count_between": _words,
    "js": _js,
    "call": _service,
    "factcheck": lambda _: ("passes the fact check", "fails the fact check"),
    "tool_called": lambda a: (f"called the tool {excerpt(a)}", f"did not call {excerpt(a)}"),
    "tool_args_match": _tool_args,
    "tool_call_count_between": _tool_count,
    "tool_call_order": _order,
}


class Wording:
    """The reflection sentences of one function point (built once per point, then reused)."""

    __slots__ = ("_fails", "_fallback", "_memo", "_negated", "_passes", "_wanted")

    def __init__(self, fn: str, args: Any, inverted: bool) -> None:
        """Prepare the phrases of point function `fn` with `args` (`inverted` for should_not)."""
        check = CATALOGUE.get(fn)
        phrases = None if check is None else _phrases(check.canonical, args)
        self._fallback = f"Function '{fn}' gave "
        self._passes, self._fails = phrases if phrases is not None else ("", "")
        self._negated = check is not None and check.negated
        self._wanted = not (self._negated ^ inverted)
        self._memo: dict[tuple[float, str], str] = {}

    def reflection(self, raw: float, score: str) -> str:
        """The sentence for a function result `raw` (before should_not) and the final `score`.

        Args:
            raw: The function's result in [0, 1], before a should_not point inverts it (for a
                `not_*` function, the negated result, as the function returns it).
            score: The final score already formatted (`0.00`).
        """
        key = (raw, score)
        text = self._memo.get(key)
        if text is None:
            text = self._sentence(raw, score)
            if len(self._memo) < 16:
                self._memo[key] = text
        return text

    def _sentence(self, raw: float, score: str) -> str:
        if not self._passes:
            return f"{self._fallback}{js_json_stringify(raw)}: score {score}."
        base = 1.0 - raw if self._negated else raw
        if base >= 1.0:
            found, verdict = self._passes, "as required" if self._wanted else "which it should not"
        elif base <= 0.0:
            found, verdict = self._fails, "but it should" if self._wanted else "as required"
        else:
            found = f"{self._passes} only in part ({int(base * 100 + 0.5)}%)"
            verdict = "" if self._wanted else ", which it should not"
            return f"{found[0].upper()}{found[1:]}{verdict}: score {score}."
        return f"{found[0].upper()}{found[1:]}, {verdict}: score {score}."


_cache: dict[int, tuple[object, Wording]] = {}


def wording_for(point: Any) -> Wording:
    """The (cached) `Wording` of a function point (`point.fn`, `point.args`, `point.inverted`)."""
    hit = _cache.get(id(point))
    if hit is not None and hit[0] is point:
        return hit[1]
    if len(_cache) >= 8192:
        _cache.clear()
    wording = Wording(point.fn or "", point.args, point.inverted)
    _cache[id(point)] = (point, wording)
    return wording
