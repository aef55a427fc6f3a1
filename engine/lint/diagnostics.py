"""What the linter reports: `Diagnostic`, its `Fix`, the registry of codes, and `apply_fix`."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Literal, TypeVar, dataclass_transform

from engine.blueprint.text import LINE_BREAK
from engine.records import Record

__all__ = [
    "CODES",
    "RUN_CODES",
    "CodeInfo",
    "Diagnostic",
    "Fix",
    "Severity",
    "apply_fix",
    "line_offsets",
]

Severity = Literal["error", "warning", "info"]
"""`error`: will not run, or will score wrongly for sure. `warning`: probably not what you
meant. `info`: worth knowing."""


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """One diagnostic code: its default severity and a one-line summary."""

    severity: Severity
    summary: str


def _codes(*rows: tuple[str, Severity, str]) -> dict[str, CodeInfo]:
    return {code: CodeInfo(severity, summary) for code, severity, summary in rows}


CODES: dict[str, CodeInfo] = _codes(
    # syntax and keys
    ("yaml-syntax", "error", "The text is not valid YAML (or JSON)."),
    ("duplicate-key", "error", "A key is written twice in the same block."),
    ("invalid-blueprint", "error", "Weval's parser rejects this part of the blueprint."),
    ("unknown-key", "warning", "A key Weval does not know; it is ignored."),
    ("conflicting-keys", "warning", "Two keys that mean the same thing; only one is used."),
    ("header-id", "info", "The header `id` is ignored: the id comes from the file name."),
    # points and paths
    ("single-element-path", "warning", "An alternative path with one point: OR, not AND."),
    ("or-block-with-required", "info", "All alternative paths together count as one item."),
    ("function-text-in-path", "error", "A `$` text inside an alternative path is judged as text."),
    ("quoted-function", "error", 'A quoted `"$fn: arg"` is one unknown function name.'),
    ("weight-out-of-range", "error", "A weight outside 0.1-10."),
    ("should-not", "warning", "`should_not` is deprecated; write the point as a `should`."),
    ("should-not-path-merge", "error", "A `should_not` path is merged with a `should` path."),
    ("no-criteria", "warning", "A prompt with nothing to score: no `should`, no `ideal`."),
    ("ideal-key-points", "info", "Points will be extracted from the `ideal` by an LLM."),
    # point functions
    ("unknown-function", "error", "A `$` function that does not exist."),
    ("bad-arguments", "error", "A function's argument has the wrong shape."),
    ("invalid-regex", "error", "A regular expression JavaScript cannot compile."),
    ("vacuous-arguments", "error", "Arguments that make a check always or never pass."),
    ("js-syntax", "error", "`$js` code that does not parse."),
    ("call-host-refused", "error", "`$call` to a host that is not allowed."),
    (
        "call-header",
        "error",
        "A `$call` header that cannot be sent, or reads a variable not allowed.",
    ),
    # prompts and messages
    ("missing-id", "warning", "A prompt without an `id`: its generated id changes on every edit."),
    ("duplicate-id", "error", "Two prompts with the same id."),
    ("missing-prompt", "error", "A prompt with no question: no `prompt` and no `messages`."),
    ("first-message-assistant", "error", "The conversation starts with the assistant."),
    ("last-message-not-user", "error", "The conversation does not end with a user turn."),
    ("nothing-to-generate", "error", "The conversation ends with a fixed assistant turn."),
    ("trailing-assistant-null", "error", "A final `assistant: null`, which Weval rejects."),
    ("repeated-role", "error", "Two user (or two assistant) turns in a row."),
    ("empty-message", "error", "A turn with empty content."),
    ("invalid-role", "error", "A message role other than user, assistant or system."),
    ("prompt-system-list", "error", "A list of system prompts on a prompt."),
    ("prompt-system-with-systems", "error", "A prompt `system` while the header sets `systems`."),
    # header and models
    ("temperature-out-of-range", "error", "A temperature outside 0-2."),
    ("temperature-ignored", "warning", "A temperature that another setting overrides."),
    ("systems-multiple-null", "error", "More than one `null` in `systems`."),
    ("unknown-provider", "error", "A model id whose provider is not known."),
    ("model-collection", "info", "A model collection such as CORE, and the models it runs."),
    ("unknown-collection", "error", "A collection name that is not defined."),
    ("custom-model", "error", "A custom model object that cannot be called as written."),
    ("model-host-refused", "error", "A custom model at an address that is not allowed."),
    ("model-object", "error", "A model written as `{provider: model}` instead of a string."),
    ("embedding-model", "error", "An `embeddingModel` that cannot embed texts."),
)
"""Every diagnostic code with its severity and summary; `docs/lint.md` has one heading per code."""

RUN_CODES: dict[str, CodeInfo] = _codes(
    ("judges-disagree", "info", "In a run, the judges (or reviewers) disagreed on this point."),
)
"""Codes that come from a run's results, not from the text (`engine.review.marks`): the
editor shows them beside the lint diagnostics; `blueprint lint` never reports them."""


_RANK = {"error": 0, "warning": 1, "info": 2}


def _invalid(
    title: str, field: str, value: object, kind: str, error: str | None = None
) -> Exception:
    """The `pydantic.ValidationError` these records raised when they were pydantic models.

    Built only when raised: `blueprint lint` never imports pydantic otherwise.
    """
    from pydantic_core import ValidationError

    line: dict[str, Any] = {"type": kind, "loc": (field,), "input": value}
    if error is not None:
        line["ctx"] = {"error": ValueError(error)}
    return ValidationError.from_exception_data(title, [line])  # type: ignore[list-item]


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise _invalid(type(self).__name__, name, value, "frozen_instance")


def _frozen_delattr(self: object, name: str) -> None:
    raise _invalid(type(self).__name__, name, None, "frozen_instance")


_R = TypeVar("_R", bound=type)


@dataclass_transform()
def _frozen(cls: _R) -> _R:
    """A frozen, slotted record whose fields refuse assignment as pydantic did."""
    made: _R = dataclass(frozen=True, slots=True, kw_only=True)(cls)  # type: ignore[assignment]
    made.__setattr__ = _frozen_setattr  # type: ignore[assignment]
    made.__delattr__ = _frozen_delattr  # type: ignore[assignment]
    return made


@_frozen
class Fix(Record):
    """A mechanical fix: `replacement` replaces exactly the diagnostic's range."""

    title: str
    """What the fix does, in plain words."""
    replacement: str
    """The text that replaces the diagnostic's range."""
    score_neutral: bool = False
    """True when applying it cannot change a score: it adds what scoring ignores (an id, a
    `# lint: ignore` comment) or rewrites what is written in the one form Weval reads (a
    number written as text, a misspelt points key). False when it chooses a meaning (an OR
    made an AND, a value clamped, a closest name guessed): such a fix is only suggested."""
    span: tuple[int, int, int, int] | None = None
    """(line, column, end_line, end_column) of the text it replaces, when that is not the
    diagnostic's own range (a point moved from one list to another)."""


@_frozen
class Diagnostic(Record):
    """One problem found in a blueprint, with the range of text it covers (1-based, end exclusive).

    A plain frozen record (no pydantic: linting a file stays quick to start); an unknown `code`
    is refused as `pydantic.ValidationError`, as it was when this was a pydantic model.
    """

    line: int
    """1-based line where the offending text starts."""
    column: int
    """1-based column where the offending text starts."""
    end_line: int
    """1-based line where the offending text ends."""
    end_column: int
    """1-based column just after the offending text."""
    severity: Severity
    """error, warning or info."""
    code: str
    """A stable kebab-case code, documented in docs/lint.md."""
    message: str
    """What is wrong, what it does to the score, what to write."""
    fix: Fix | None = None
    """A mechanical fix, when there is one."""
    alternatives: tuple[Fix, ...] = ()
    """Other fixes of the same range, for a problem with more than one reading."""

    def __post_init__(self) -> None:
        if self.code not in CODES and self.code not in RUN_CODES:
            error = f"unknown diagnostic code {self.code!r}"
            raise _invalid("Diagnostic", "code", self.code, "value_error", error)

    @property
    def fixes(self) -> tuple[Fix, ...]:
        """Every fix offered: the `fix` first, then the `alternatives`."""
        return ((self.fix,) if self.fix is not None else ()) + self.alternatives

    def moved(self, lines: int) -> Diagnostic:
        """This diagnostic (and its fixes' own ranges) `lines` lines further down."""

        def fix(f: Fix) -> Fix:
            if f.span is None:
                return f
            line, column, end_line, end_column = f.span
            return f.model_copy(
                update={"span": (line + lines, column, end_line + lines, end_column)}
            )

        return self.model_copy(
            update={
                "line": self.line + lines,
                "end_line": self.end_line + lines,
                "fix": None if self.fix is None else fix(self.fix),
                "alternatives": tuple(fix(f) for f in self.alternatives),
            }
        )

    def sort_key(self) -> tuple[int, int, int, int, int, str]:
        """Order by position, then errors before warnings before infos, then code."""
        return (
            self.line,
            self.column,
            self.end_line,
            self.end_column,
            _RANK[self.severity],
            self.code,
        )


def line_offsets(text: str) -> list[int]:
    """Return the offset where each line starts, lines ending at LF, CR or CR LF (`LINE_BREAK`)."""
    if "\r" in text:
        return [0, *(m.end() for m in LINE_BREAK.finditer(text))]
    return list(accumulate((len(line) + 1 for line in text.split("\n")[:-1]), initial=0))


def _offset(starts: list[int], text: str, line: int, column: int) -> int:
    if line < 1:
        return 0
    if line > len(starts):
        return len(text)
    base = starts[line - 1]
    limit = starts[line] if line < len(starts) else len(text)
    return min(base + max(column - 1, 0), limit)


def apply_fix(text: str, diagnostic: Diagnostic, fix: Fix | None = None) -> str:
    """Return `text` with a fix applied (its range replaced by its replacement).

    The range is the fix's own `span` when it has one, else the diagnostic's.

    Args:
        text: The text the diagnostic was found in.
        diagnostic: The diagnostic whose range is replaced.
        fix: One of the diagnostic's `alternatives`; by default its `fix`.

    Raises:
        ValueError: The diagnostic has no fix.
    """
    fix = fix or diagnostic.fix
    if fix is None:
        raise ValueError(f"The diagnostic {diagnostic.code} has no fix.")
    starts = line_offsets(text)
    line, column, end_line, end_column = fix.span or (
        diagnostic.line,
        diagnostic.column,
        diagnostic.end_line,
        diagnostic.end_column,
    )
    start = _offset(starts, text, line, column)
    end = _offset(starts, text, end_line, end_column)
    return text[:start] + fix.replacement + text[max(start, end) :]
