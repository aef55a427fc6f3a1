"""A drafting answer (untrusted model output) turned into linted, auto-fixed Weval YAML, or refused.

Nothing here runs the draft: it is parsed with the blueprint parser (its size, depth and
alias limits hold), refused when it holds markup, `${...}` placeholders, anchors or points
that run code or call out (each function's `reaches_out` in the registry: `$call`,
`$factcheck`, `$js`, `$expr`, a string `where` of `$tool_args_match`), then linted. Only the
lint fixes that cannot change a score are applied; the others (an OR made an AND, a guessed
name) are listed as suggestions for the user to choose. A refusal is a `DraftRefused` with a
message for the user in plain words; the message never quotes the answer, which travels apart
(`DraftRefused.reply`) for the studio to show as plain text.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from engine.blueprint import parse_blueprint
from engine.blueprint.models import Blueprint
from engine.checks import lookup
from engine.errors import BlueprintError, EngineError
from engine.lint import Diagnostic, apply_fix, lint

__all__ = ["MAX_ANSWER_CHARS", "Draft", "DraftRefused", "read_draft", "read_points"]

MAX_ANSWER_CHARS = 100_000
_FIX_ROUNDS = 30
_FENCE = re.compile(r"```(?:ya?ml)?[ \t]*\n(.*?)```", re.S | re.I)
_MARKUP = re.compile(r"<\s*/?\s*[A-Za-z!?][^<>]*>")
_POINTS_KEY = re.compile(r"^[ \t]*(?:should|should_not):", re.M)
_ANCHOR = re.compile(r"(?:^|[\s\[{,:-])[&*][A-Za-z0-9_-]+", re.M)


class DraftRefused(EngineError):
    """The model's answer cannot be offered as a draft; the message says why.

    Attributes:
        reply: What the model replied, when it did (untrusted text: show it as plain text).
    """

    def __init__(self, message: str, reply: str | None = None) -> None:
        super().__init__(message)
        self.reply = reply


@dataclass
class Draft:
    """A draft to show: the YAML, what lint fixed, what it suggests, and what it still says."""

    text: str
    fixed: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def suggested(self) -> list[str]:
        """The fixes lint offers but did not apply (they could change a score), one per line."""
        return [
            f"line {d.line}: {' or '.join(f.title for f in d.fixes)}"
            for d in self.diagnostics
            if d.fixes
        ]


def _yaml_of(answer: str) -> str:
    if len(answer) > MAX_ANSWER_CHARS:
        raise DraftRefused(
            f"The model's answer is {len(answer):,} characters, more than a draft can be "
            f"({MAX_ANSWER_CHARS:,}). Nothing was inserted; ask again with a shorter goal."
        )
    match = _FENCE.search(answer)
    text = (match.group(1) if match else answer).strip("\n")
    if not text.strip():
        raise DraftRefused("The model's answer holds no YAML. Nothing was inserted; try again.")
    if _MARKUP.search(text):
        raise DraftRefused(
            "The model's answer contains HTML or other markup, which a blueprint never needs. "
            "Nothing was inserted."
        )
    if "${" in text:
        raise DraftRefused(
            "The model's answer refers to variables (`${...}`), which a draft may not do. "
            "Nothing was inserted."
        )
    if _ANCHOR.search(text):
        raise DraftRefused(
            "The model's answer uses YAML anchors or aliases (`&name`, `*name`), which a draft "
            "may not do. Nothing was inserted."
        )
    return text + "\n"


_NOT_A_DOCUMENT = "Document must be an object or array"
_YAML_LINE = re.compile(r"^[ \t]*(?:-[ \t]|[^\s#][^:\n]*:(?:[ \t]|$))", re.M)


def _unreadable(exc: BlueprintError, reply: str, offset: int, indent: int) -> str:
    """Why a reply is no blueprint, in plain words (not the parser's terms)."""
    if _NOT_A_DOCUMENT in exc.message or not _YAML_LINE.search(reply):
        why = "it is written as prose, not as a blueprint in YAML"
    elif exc.line is not None and exc.line > offset:
        column = max(1, exc.column - indent) if exc.column else None
        where = f"at line {exc.line - offset}, column {column}" if column else ""
        # the parser's own words name lines of the text it read: only a whole draft's agree
        why = f"its YAML cannot be read {where}" + (f" ({exc.message})" if not offset else "")
    else:
        why = "its YAML cannot be read"
    return f"The model's reply could not be used as a draft: {why}."


def _parse(text: str, reply: str | None = None, offset: int = 0, indent: int = 0) -> Blueprint:
    """The draft's blueprint: `text` is `reply` after `offset` lines, indented `indent` more."""
    try:
        blueprint = parse_blueprint(text, source="draft.yml")
    except BlueprintError as exc:
        said = _unreadable(exc, text if reply is None else reply, offset, indent)
        raise DraftRefused(f"{said} Nothing was inserted; try again.") from None
    for prompt in blueprint.prompts:
        for point in prompt.points:
            check = lookup(point.fn) if point.fn is not None else None
            if check is not None and check.reaches_out(point.args):
                raise DraftRefused(
                    "The model's answer uses a point that calls a service or runs code (such "
                    "as $call, $factcheck, $js or $expr, or a $tool_args_match whose `where` "
                    "is JavaScript). Drafts may not; nothing was inserted."
                )
    return blueprint


def _fixed(text: str) -> Draft:
    """Apply lint's score-neutral fixes until none is left; keep what lint still reports."""
    fixed: list[str] = []
    for _ in range(_FIX_ROUNDS):
        diagnostics = lint(text)
        fixable = next((d for d in diagnostics if d.fix is not None and d.fix.score_neutral), None)
        if fixable is None or fixable.fix is None:
            return Draft(text, fixed, diagnostics)
        fixed.append(fixable.fix.title)
        text = apply_fix(text, fixable)
    return Draft(text, fixed, lint(text))


def _usable(draft: Draft) -> Draft:
    _parse(draft.text)  # a fix must not make it unusable
    errors = [d for d in draft.diagnostics if d.severity == "error" and not d.fixes]
    if errors:
        raise DraftRefused(
            f"The model's draft has {len(errors)} error(s) lint has no fix for (the first, on "
            f"line {errors[0].line}: {errors[0].message}). Nothing was inserted; try again."
        )
    return draft


@contextmanager
def _with_reply(answer: str) -> Iterator[None]:
    """Refusals raised inside carry the model's reply (the first `MAX_ANSWER_CHARS` of it)."""
    try:
        yield
    except DraftRefused as exc:
        raise DraftRefused(str(exc), reply=answer[:MAX_ANSWER_CHARS]) from None


def read_draft(answer: str) -> Draft:
    """A whole blueprint from the model's answer, linted and fixed.

    Raises:
        DraftRefused: The answer is too long, not a blueprint, hostile, or still has errors.
    """
    with _with_reply(answer):
        text = _yaml_of(answer)
        blueprint = _parse(text)
        if not blueprint.prompts:
            raise DraftRefused("The model's draft has no prompts. Nothing was inserted; try again.")
        return _usable(_fixed(text))


def read_points(answer: str, prompt_text: str) -> Draft:
    """`should` / `should_not` points for one prompt from the model's answer, linted and fixed.

    The returned text is the points' YAML (the keys and their lists), ready to put under the
    prompt.

    Raises:
        DraftRefused: The answer is too long, not points, hostile, or still has errors.
    """
    with _with_reply(answer):
        text = _yaml_of(answer)
        whole = "- prompt: " + json.dumps(prompt_text[:4000]) + "\n" + textwrap.indent(text, "  ")
        blueprint = _parse(whole, text, offset=1, indent=2)
        if len(blueprint.prompts) != 1 or not blueprint.prompts[0].points:
            raise DraftRefused(
                "The model's answer holds no `should` or `should_not` points. Nothing was "
                "inserted; try again."
            )
        draft = _usable(_fixed(whole))
    start = _POINTS_KEY.search(draft.text)
    body = draft.text[start.start() :] if start else ""
    return Draft(textwrap.dedent(body), draft.fixed, draft.diagnostics)
