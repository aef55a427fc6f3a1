"""A known function's argument: its shape, vacuous values, regexes, `$js` source, `$call` hosts."""

from __future__ import annotations

import re
from typing import Any

from engine.blueprint.source import Span, YList, YMap
from engine.blueprint.text import excerpt
from engine.checks import CheckDef
from engine.js.regex_limits import is_limit_message
from engine.js.values import js_number_str
from engine.lint.context import LintContext
from engine.lint.rules.fnpoint import FnPoint, js_error, regex_error
from engine.lint.rules.headers import check_headers
from engine.net import call_host_refusal

__all__ = ["check_arguments"]

_QUOTED = re.compile(r"'([^']*)'")
_ALL_OF = frozenset({"contains_all_of", "icontains_all_of", "matches_all_of", "imatch_all_of"})
_ANY_OF = frozenset({"contains_any_of", "icontains_any_of"})
_N_OF = frozenset(
    {
        "contains_at_least_n_of",
        "icontains_at_least_n_of",
        "matches_at_least_n_of",
        "imatch_at_least_n_of",
    }
)
_ONE_STRING = frozenset(
    {"contains", "icontains", "starts_with", "istarts_with", "ends_with", "iends_with",
     "contains_word", "icontains_word"}
)  # fmt: skip
_REGEX_ONE = {"matches": "imatches", "imatches": "imatches"}
_REGEX_LIST = {"matches_all_of": "imatch_all_of", "imatch_all_of": "imatch_all_of"}
_REGEX_N = {
    "matches_at_least_n_of": "imatch_at_least_n_of",
    "imatch_at_least_n_of": "imatch_at_least_n_of",
}
_CASELESS = frozenset({"imatches", "imatch_all_of", "imatch_at_least_n_of"})


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _vacuous(check: CheckDef, args: Any) -> str | None:
    """Why these arguments make the check pass (or fail) whatever the answer, if they do."""
    base, negated = check.canonical, check.negated
    always, never = "always scores 1.0", "never passes (it always scores 0)"
    if base in _ALL_OF and args == []:
        return (
            f"With an empty list, `{check.name}` {never if negated else always}, whatever "
            "the answer. List the texts to look for."
        )
    if base in _ANY_OF and args == []:
        return (
            f"With an empty list, `{check.name}` {always if negated else never}, whatever "
            "the answer. List the texts to look for."
        )
    if base in _ONE_STRING and args == "":
        return (
            f"With an empty text, `{check.name}` {never if negated else always}, whatever the "
            "answer. Write the text to look for."
        )
    if base in _N_OF and isinstance(args, list) and len(args) == 2 and _strings(args[1]):
        n, items = args
        if isinstance(n, int | float) and not isinstance(n, bool):
            if n > len(items):
                best = js_number_str(len(items) / n)
                return (
                    f"It asks for at least {js_number_str(n)} of {len(items)} listed items, so "
                    f"even an answer with all of them scores only {best}, never full marks. "
                    "Lower the number or list more items."
                )
            if n <= 0:
                return (
                    f"It asks for at least {js_number_str(n)} items, so it always scores 1.0, "
                    "whatever the answer. Use a number of 1 or more."
                )
    if base == "word_count_between" and isinstance(args, list) and len(args) == 2:
        low, high = args
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in args)
        if numbers and low > high:
            return (
                f"The minimum ({js_number_str(low)}) is above the maximum "
                f"({js_number_str(high)}), so no answer can meet it: the point reports an "
                "error and is left out of the score. Swap the two numbers."
            )
    return None


def arguments(ctx: LintContext, fp: FnPoint, check: CheckDef) -> None:
    """Vacuous arguments first; otherwise the catalogue's own argument check."""
    reason = _vacuous(check, fp.args)
    if reason is not None:
        ctx.add("vacuous-arguments", fp.args_span or fp.name_span, reason)
        return
    problem = check.arg_error(fp.args, fp.has_args)
    if problem is None:
        return
    where = fp.args_span or fp.name_span
    example = f" For example `{check.example.removeprefix('- ')}`." if check.example else ""
    ctx.add(
        "bad-arguments",
        where,
        f"This check cannot run with this argument, so the point reports an error and is left "
        f"out of the score. `${fp.name}` expects {check.args}.{example} (Weval: {problem})",
    )


def _patterns(check: CheckDef, args: Any) -> list[tuple[str, Any, Span | None]]:
    """(pattern, container, span) for each regex in the argument (no span: the argument's)."""
    base = check.canonical
    if base in _REGEX_ONE and isinstance(args, str):
        return [(args, None, None)]
    items: Any = None
    if base in _REGEX_LIST and _strings(args):
        items = args
    elif base in _REGEX_N and isinstance(args, list) and len(args) == 2 and _strings(args[1]):
        items = args[1]
    if items is None:
        return []
    spans = items.item_spans if isinstance(items, YList) else []
    return [(p, items, spans[i] if i < len(spans) else None) for i, p in enumerate(items)]


def _caseless_fix(
    ctx: LintContext, fp: FnPoint, check: CheckDef, patterns: list[str]
) -> tuple[Span, str] | None:
    """Replace `$matches: (?i)x` by `$imatches: x` (the whole entry), when that is mechanical."""
    if fp.form != "mapping" or fp.args_span is None or not isinstance(fp.point.value, YMap):
        return None
    if not patterns or not all(p.startswith("(?i)") for p in patterns):
        return None
    flags = "i"
    if any(regex_error(p.replace("(?i)", ""), flags) for p in patterns):
        return None
    base = check.canonical
    target = _REGEX_ONE.get(base) or _REGEX_LIST.get(base) or _REGEX_N.get(base)
    if target is None:
        return None
    name = f"not_{target}" if check.negated else target
    written = ctx.src.slice(fp.args_span)
    if written.count("(?i)") != sum(p.count("(?i)") for p in patterns):
        return None
    entry = ctx.src.through(fp.name_span, fp.args_span)
    return entry, f"${name}: {written.replace('(?i)', '')}"


def regexes(ctx: LintContext, fp: FnPoint, check: CheckDef) -> None:
    """Patterns JavaScript cannot compile; `(?i)` gets the case-insensitive function instead."""
    found = _patterns(check, fp.args)
    if not found:
        return
    flags = "i" if check.canonical in _CASELESS else ""
    bad = [(p, s, regex_error(p, flags)) for p, _, s in found]
    bad = [(p, s, e) for p, s, e in bad if e is not None]
    if not bad:
        return
    fix = _caseless_fix(ctx, fp, check, [p for p, _, _ in found])
    for pattern, span, error in bad:
        message = (
            f"This regular expression does not work in JavaScript, which Weval uses ({error}), "
            "so the point reports an error and is left out of the score."
        )
        if error is not None and is_limit_message(error):
            message = (
                f"{error}. Until then the point reports an error and is left out of the score."
            )
        if "(?" in pattern and ("(?i" in pattern or "(?s" in pattern or "(?m" in pattern):
            message += (
                " JavaScript has no inline flags such as `(?i)`: for case-insensitive matching "
                "use `$imatches` (or `$imatch_all_of`) and drop the `(?i)`."
            )
        if fix is not None:
            ctx.add(
                "invalid-regex", fix[0], message, fix=("Use the case-insensitive function", fix[1])
            )
            return
        ctx.add("invalid-regex", span or fp.args_span or fp.name_span, message)


def javascript(ctx: LintContext, fp: FnPoint, check: CheckDef) -> None:
    """`$js` source that does not parse."""
    if check.canonical != "js" or not isinstance(fp.args, str):
        return
    error = js_error(fp.args)
    if error is not None:
        ctx.add(
            "js-syntax",
            fp.args_span or fp.name_span,
            f"This JavaScript does not parse ({error}), so the point reports an error and is "
            "left out of the score. Check the brackets, quotes and operators.",
        )


def external_call(ctx: LintContext, fp: FnPoint, check: CheckDef) -> None:
    """`$call` to a host the settings do not allow."""
    if check.canonical != "call" or not isinstance(fp.args, dict):
        return
    url = fp.args.get("url")
    where = fp.args_span or fp.name_span
    if not isinstance(url, str):
        service = fp.args.get("service")
        services = ctx.header.get("externalServices")
        if not isinstance(service, str) or not isinstance(services, dict):
            return
        if service not in services:
            known = excerpt(", ".join(sorted(services)), 120, quote=False) or "none"
            ctx.add(
                "bad-arguments",
                where,
                f"There is no external service named `{excerpt(service, quote=False)}` under `externalServices` in "
                f"the header (defined: {known}), so the point reports an error.",
            )
            return
        entry = services[service]
        url = entry.get("url") if isinstance(entry, dict) else None
        if not isinstance(url, str):
            return
    else:
        headers = fp.args.get("headers")
        who = "This `$call`"
        span = ctx.value_span(fp.args, "headers", where)
        check_headers(ctx, headers, span, code="call-header", who=who, env_severity="warning")
        if isinstance(fp.args, YMap):
            where = ctx.value_span(fp.args, "url", where)
    refusal = call_host_refusal(url, ctx.settings)
    if refusal is not None:
        shown = _QUOTED.sub(lambda m: f"'{excerpt(m.group(1), quote=False)}'", refusal)
        ctx.add("call-host-refused", where, f"This `$call` cannot run here. {shown}")


def check_arguments(ctx: LintContext, fp: FnPoint, check: CheckDef) -> None:
    """Every argument rule for one function point."""
    arguments(ctx, fp, check)
    regexes(ctx, fp, check)
    javascript(ctx, fp, check)
    external_call(ctx, fp, check)
