"""THE point-function table: one `CheckDef` per base function; aliases and `not_*` are derived.

Derivation (one mechanism, `_derive`):

1. a base flagged `singular_alias` is also reachable by its singular spelling (`contains` ->
   `contain`, `matches` -> `match`, `starts` -> `start`, `ends` -> `end`);
2. every `negatable` base gets `not_<name>`, whose result is the base's inverted (an error passes
   through unchanged and names the positive function; a boolean is negated; n becomes 1 - n);
3. every `not_*` ALWAYS gets its singular alias too (upstream has `not_start_with` although it
   has no `start_with`);
4. `synonyms` add extra names (`js` -> `expr`, `call` -> `external`).

The derived names equal upstream's registry exactly (`tests/checks/test_registry.py`), plus our
`extension` functions (the typed evidence evaluators), which Weval does not have.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Final

from engine.checks import call as call_mod
from engine.checks import factcheck as factcheck_mod
from engine.checks import jsexpr, patterns, text, tools, typed
from engine.checks.context import CheckContext

__all__ = ["CATALOGUE", "CheckDef", "base_checks", "function_names", "lookup", "opposite"]

CheckFn = Callable[[str, Any, CheckContext], Any]
ArgCheck = Callable[[Any, bool], "str | None"]
_SINGULAR: Final = (
    ("contains", "contain"),
    ("matches", "match"),
    ("starts", "start"),
    ("ends", "end"),
)


def _no_args(args: Any, has_args: bool) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class CheckDef:
    """One point function.

    Attributes:
        name: The registry name (`contains`, `not_contains`, `contain`, ...).
        fn: `(text, args, ctx) -> result`; assumes `arg_error(args) is None`.
        summary: One line for docs and the studio picker.
        args: A human description of the expected argument.
        arg_error: `(args, has_args) -> message | None`; the message is upstream's exact
            `Invalid arguments for ...` text (None means acceptable).
        example: A YAML line showing a use.
        negatable: Whether `not_<name>` exists.
        singular_alias: Whether the singular spelling (`contain`) exists.
        synonyms: Extra names for the same function.
        needs_network: Calls an HTTP service.
        runs_js: Runs blueprint JavaScript in the QuickJS sandbox (a worker process).
        runs_js_when: For a function that runs JavaScript only for some arguments, which
            ones (`tool_args_match` with a string `where`); None: always, when `runs_js`.
        typed: Returns `Outcome`s with statuses, findings and evidence.
        extension: Ours, not Weval's (Weval reports it as an unknown function).
        canonical: The base name this entry was derived from (itself for bases).
        negated: True for derived `not_*` entries.
    """

    name: str
    fn: CheckFn
    summary: str
    args: str
    arg_error: ArgCheck = _no_args
    example: str = ""
    negatable: bool = False
    singular_alias: bool = False
    synonyms: tuple[str, ...] = ()
    needs_network: bool = False
    runs_js: bool = False
    runs_js_when: Callable[[Any], bool] | None = None
    typed: bool = False
    extension: bool = False
    canonical: str = ""
    negated: bool = False

    def reaches_out(self, args: Any) -> bool:
        """Whether a point with `args` runs code or calls a service (what a draft may not do)."""
        if self.needs_network:
            return True
        return self.runs_js and (self.runs_js_when is None or self.runs_js_when(args))

    def __call__(
        self, text: str, args: Any, ctx: CheckContext, has_args: bool | None = None
    ) -> Any:
        """Validate `args`, then run the function (an invalid argument gives `{error}`)."""
        if not self.typed:
            problem = self.arg_error(args, args is not None if has_args is None else has_args)
            if problem is not None:
                return {"error": problem}
        return self.fn(text, args, ctx)


def _negate(fn: CheckFn) -> CheckFn:
    def negated(text: str, args: Any, ctx: CheckContext) -> Any:
        result = fn(text, args, ctx)
        if isinstance(result, bool):
            return not result
        if isinstance(result, int | float):
            return 1 - result
        return result

    return negated


def _singular(name: str) -> str | None:
    for plural, single in _SINGULAR:
        if plural in name:
            return name.replace(plural, single, 1)
    return None


def _string_family(
    name: str,
    fn: Any,
    check: Callable[[str], ArgCheck],
    summary: str,
    shape: str,
    example: str,
    *,
    negatable: bool,
    singular: tuple[bool, bool],
) -> list[CheckDef]:
    """A case-sensitive base and its `i` twin: the same function with `ignore_case=True`.

    `singular` says which of the two has a singular alias (upstream has `istart_with` but no
    `start_with`, `icontain_any_of` but no `contain_any_of`).
    """
    iname = "i" + name
    return [
        CheckDef(
            name,
            partial(fn, ignore_case=False),
            summary,
            shape,
            check(name),
            example.format(name),
            negatable=negatable,
            singular_alias=singular[0],
        ),
        CheckDef(
            iname,
            partial(fn, ignore_case=True),
            summary + " Case-insensitive (JS `toLowerCase`).",
            shape,
            check(iname),
            example.format(iname),
            negatable=negatable,
            singular_alias=singular[1],
        ),
    ]


def _regex(
    name: str,
    fn: Any,
    check: ArgCheck,
    ignore_case: bool,
    summary: str,
    shape: str,
    example: str,
    **flags: Any,
) -> CheckDef:
    return CheckDef(
        name,
        partial(fn, name=name, ignore_case=ignore_case),
        summary,
        shape,
        check,
        example,
        **flags,
    )


def _typed(
    name: str, fn: CheckFn, summary: str, shape: str, check: ArgCheck, example: str, **flags: Any
) -> CheckDef:
    return CheckDef(name, fn, summary, shape, check, example, typed=True, extension=True, **flags)


def base_checks() -> tuple[CheckDef, ...]:
    """Return the base table (no aliases, no `not_*`), in documentation order."""
    s, rx = text.string_arg, "a regex string (JS syntax)"
    both, only_i = (True, True), (False, True)
    # fmt: off
    bases = [
        *_string_family("contains", text.contains, s, "The response contains the substring.",
                        "a string", '${}: "fiduciary"', negatable=True, singular=both),
        *_string_family("starts_with", text.starts_with, lambda n: s(n, "a string prefix"),
                        "The response starts with the prefix (no trimming).", "a string",
                        '${}: "Dear"', negatable=True, singular=only_i),
        *_string_family("ends_with", text.ends_with, lambda n: s(n, "a string suffix"),
                        "The response ends with the suffix (no trimming).", "a string",
                        '${}: "."', negatable=True, singular=only_i),
        *_string_family("contains_any_of", text.contains_any_of, text.any_strings,
                        "At least one substring appears (an empty list is false).",
                        "a list of strings", "${}: [because, since]", negatable=True,
                        singular=only_i),
        *_string_family("contains_all_of", text.contains_all_of, text.any_strings,
                        "Graded: the share of substrings that appear (an empty list is 1).",
                        "a list of strings", "${}: [hello, world]", negatable=True, singular=both),
        *_string_family("contains_at_least_n_of", text.contains_at_least_n_of,
                        text.count_and_strings, "Graded: min(1, found / n) over the substrings.",
                        "[n, [strings]]", "${}: [2, [apple, pear, plum]]", negatable=False,
                        singular=both),
        _regex("matches", patterns.matches, s("matches", "a regex string"), False,
               "The JavaScript regex matches.", rx, r'$matches: "^Report #\\d+$"',
               negatable=True, singular_alias=True),
        _regex("imatches", patterns.matches, s("imatches", "a regex string"), True,
               "The JavaScript regex matches, with flag `i`.", rx, r'$imatches: "^sentence\\.$"',
               negatable=True, singular_alias=True),
        _regex("matches_all_of", patterns.matches_all_of,
               text.any_strings("matches_all_of", "regex strings"), False,
               "Graded: the share of regexes that match.", "a list of regex strings",
               r"$matches_all_of: ['\d+', blue]", singular_alias=True),
        _regex("imatch_all_of", patterns.matches_all_of,
               text.any_strings("imatch_all_of", "regex strings"), True,
               "Graded: the share of regexes that match, with flag `i`.",
               "a list of regex strings", r"$imatch_all_of: ['\d+', blue]"),
        _regex("matches_at_least_n_of", patterns.matches_at_least_n_of,
               text.count_and_strings("matches_at_least_n_of", "pattern"), False,
               "Graded: min(1, matched / n) over the regexes.", "[n, [regex strings]]",
               r"$matches_at_least_n_of: [2, ['\d+ apples', '\d+ pears']]", singular_alias=True),
        _regex("imatch_at_least_n_of", patterns.matches_at_least_n_of,
               text.count_and_strings("imatch_at_least_n_of", "pattern"), True,
               "Graded: min(1, matched / n) over the regexes, with flag `i`.",
               "[n, [regex strings]]", "$imatch_at_least_n_of: [1, [apples, pears]]"),
        _regex("contains_word", patterns.contains_word, s("contains_word"), False,
               "The word appears with no Unicode letter, number or `_` on either side.",
               "a string", "$contains_word: Paraná", negatable=True, singular_alias=True),
        _regex("icontains_word", patterns.contains_word, s("icontains_word"), True,
               "As contains_word, case-insensitive (JS flags `iu`).", "a string",
               "$icontains_word: paraná", negatable=True, singular_alias=True),
        CheckDef("is_json", text.is_json,
                 "The whole response is a JSON object or array (`JSON.parse`).",
                 "none (ignored)", example="$is_json"),
        CheckDef("word_count_between", text.word_count_between,
                 "Graded word count: 1 inside [min, max], count/min below, max/count above.",
                 "[min, max]", text.word_range, "$word_count_between: [50, 200]"),
        CheckDef("js", jsexpr.js, "Run JavaScript over `r`/`response` and `context`; return a "
                 "boolean, a number or {score, explain}.", "a string of JavaScript",
                 jsexpr.js_arg_error, '$js: "r.length > 100"', synonyms=("expr",), runs_js=True),
        CheckDef("call", call_mod.call, "Score with your own HTTP service (allow-listed hosts "
                 "only).", "{service: name} or {url: ...}, plus parameters",
                 call_mod.call_arg_error, "$call: {service: fact-checker, claim: '{response}'}",
                 synonyms=("external",), needs_network=True),
        CheckDef("factcheck", factcheck_mod.factcheck, "Ask the configured fact-check service "
                 "(unverified when none is configured).", "an instruction string, or none",
                 factcheck_mod.factcheck_arg_error, '$factcheck: "focus on dates"',
                 needs_network=True),
        CheckDef("tool_called", tools.tool_called, "A tool call with this name was made.",
                 "a tool name", tools.tool_called_error, "$tool_called: calculator"),
        CheckDef("tool_args_match", tools.tool_args_match, "A call to the tool has arguments "
                 "matching `where` (partial object, or a JS expression over `args`).",
                 "{name, where, normalizeWhitespace?}", tools.tool_args_match_error,
                 "$tool_args_match: {name: retrieve, where: {docId: '42'}}", runs_js=True,
                 runs_js_when=tools.where_is_code),
        CheckDef("tool_call_count_between", tools.tool_call_count_between,
                 "min <= number of tool calls <= max, optionally for one tool.",
                 "[min?, max?, name?]", example="$tool_call_count_between: [1, 3, search]"),
        CheckDef("tool_call_order", tools.tool_call_order,
                 "The tools were called in this order (gaps allowed).", "a list of tool names",
                 tools.tool_call_order_error, "$tool_call_order: [search, retrieve]"),
        _typed("required_text", typed.required_text,
               "Every substring appears in the generated assistant turns.",
               "a non-empty list of non-empty strings", typed.text_list_error("required_text"),
               "$required_text: [refund, 14 days]"),
        _typed("forbidden_text", typed.forbidden_text,
               "No substring appears in the generated assistant turns.",
               "a non-empty list of non-empty strings", typed.text_list_error("forbidden_text"),
               "$forbidden_text: [guarantee]"),
        _typed("required_tool", typed.required_tool, "A call to this tool was made.",
               "a tool name", typed.tool_name_error, "$required_tool: lookup_account"),
        _typed("forbidden_tool", typed.forbidden_tool, "No call to this tool was made.",
               "a tool name", typed.tool_name_error, "$forbidden_tool: issue_refund",
               synonyms=("no_tool_call",)),
        _typed("max_duration", typed.max_duration, "The longest recorded timed span is within "
               "the limit (unverified without timings).", '"30s", "500ms" or milliseconds',
               typed.duration_error, '$max_duration: "30s"'),
        _typed("schema_result", typed.schema_result, "The response, parsed as JSON, satisfies "
               "the JSON Schema (the argument, else the prompt's `schema:`).",
               "a JSON Schema, or none", _no_args, "$schema_result"),
        _typed("tool_error_rate", typed.tool_error_rate, "Reports the share of failed tool "
               "operations; fails above the maximum, if one is given.",
               "none, a rate in [0, 1], or {max: rate}", typed.rate_error,
               "$tool_error_rate: {max: 0.2}"),
    ]
    # fmt: on
    return tuple(replace(b, canonical=b.name) for b in bases)


def _derive(bases: tuple[CheckDef, ...]) -> dict[str, CheckDef]:
    table: dict[str, CheckDef] = {}

    def add(name: str, check: CheckDef) -> None:
        if name in table:
            raise ValueError(f"duplicate point function name {name!r}")
        table[name] = replace(check, name=name)

    for base in bases:
        add(base.name, base)
        if base.singular_alias and (single := _singular(base.name)):
            add(single, base)
        for synonym in base.synonyms:
            add(synonym, base)
        if base.negatable:
            negated = replace(
                base,
                fn=_negate(base.fn),
                negated=True,
                negatable=False,
                singular_alias=False,
                synonyms=(),
                summary=f"Negation of {base.name}: " + base.summary[0].lower() + base.summary[1:],
            )
            add("not_" + base.name, negated)
            if single_not := _singular("not_" + base.name):
                add(single_not, negated)
    return table


CATALOGUE: Final[Mapping[str, CheckDef]] = _derive(base_checks())
"""Every registered name (bases, aliases, synonyms, `not_*`) -> its `CheckDef`."""


def lookup(name: str) -> CheckDef | None:
    """Return the point function registered under `name` (aliases and `not_*` included)."""
    return CATALOGUE.get(name)


def opposite(name: str) -> str | None:
    """The function that scores 1 - score of `name`: `not_x` for `x`, `x` for `not_x`.

    None when there is none (an unknown name, or a function without a `not_` form).
    """
    check = lookup(name)
    if check is None:
        return None
    if check.negated:
        positive = name.removeprefix("not_")
        return positive if lookup(positive) is not None else None
    return f"not_{name}" if lookup(f"not_{name}") is not None else None


def function_names() -> list[str]:
    """Return every registered name, sorted."""
    return sorted(CATALOGUE)
