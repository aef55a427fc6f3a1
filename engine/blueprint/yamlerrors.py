"""YAML syntax errors in the user's words, with facts measured from the text, at the right line."""

from __future__ import annotations

import unicodedata

import yaml
from yaml._yaml import CParser
from yaml.events import CollectionEndEvent, CollectionStartEvent, ScalarEvent, StreamEndEvent

from engine.blueprint.text import LINE_BREAK, excerpt, line_column
from engine.errors import BlueprintError

__all__ = ["explain_reader_error", "explain_syntax_error"]

_MAX_DEPTH = 500
_RESERVED = {
    "@": "`@` is reserved in YAML",
    "`": "YAML reserves it",
    "%": "`%` starts a YAML directive",
}


def _spaces(n: int) -> str:
    return f"{n} space" + ("" if n == 1 else "s")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


class _Lines:
    """The few lines a message needs, read in one pass without splitting the whole text."""

    def __init__(self, text: str, wanted: set[int], upto: int) -> None:
        """Keep the 1-based lines in `wanted`, and the nearest content line above `upto`."""
        self.lines: dict[int, str] = {}
        self.above: int | None = None
        number, start = 1, 0
        last = max([*wanted, upto])
        for match in LINE_BREAK.finditer(text):
            self._see(number, text[start : match.start()], wanted, upto)
            number, start = number + 1, match.end()
            if number > last:
                return
        self._see(number, text[start:], wanted, upto)

    def _see(self, number: int, line: str, wanted: set[int], upto: int) -> None:
        if number in wanted:
            self.lines[number] = line
        stripped = line.strip()
        if number < upto and stripped and not stripped.startswith("#"):
            self.above = number
            self.lines[number] = line

    def get(self, number: int) -> str:
        """Line `number` (1-based), or an empty string when it was not kept."""
        return self.lines.get(number, "")


def _swallowing_quote(text: str, error_line: int) -> tuple[int, int, str] | None:
    """A quoted text that ran over several lines and ended on the error's line.

    Such a quote was almost always left open: it swallowed the lines up to the next quote
    character, and the error follows. Returns the 1-based line and column of the opening
    quote and the quote character, or None.
    """
    try:
        parser = CParser(text)
    except UnicodeEncodeError:
        return None
    last: ScalarEvent | None = None
    depth = 0
    try:
        while True:
            event = parser.get_event()
            if isinstance(event, ScalarEvent):
                last = event
            elif isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > _MAX_DEPTH:
                    return None
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
            elif isinstance(event, StreamEndEvent):
                return None
    except yaml.YAMLError:
        pass
    finally:
        parser.dispose()
    if last is None or last.style not in ('"', "'"):
        return None
    start, end = last.start_mark, last.end_mark
    if start is None or end is None or start.line == end.line or end.line + 1 != error_line:
        return None
    return start.line + 1, start.column + 1, last.style or '"'


def _indentation(lines: _Lines, line: int, block_column: int | None) -> str | None:
    """Say how far line `line` (1-based) is from the lines around it, or None if it lines up."""
    own = _indent(lines.get(line))
    if lines.above is None:
        return None
    other = _indent(lines.get(lines.above))
    if lines.get(lines.above).lstrip().startswith("- ") and own > other:
        other += 2  # the keys of a `- key: value` item line up after the dash
    if own == other and block_column is not None:
        other = block_column - 1
    if own == other:
        return None
    return (
        f"Line {line} is indented {_spaces(own)}; the lines around it use {other}. "
        f"Line it up with the keys or `-` items of the same block ({_spaces(other)})."
    )


def _message(exc: yaml.MarkedYAMLError, text: str) -> tuple[str, int, int]:
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 1
    column = mark.column + 1 if mark else 1
    opener = exc.context_mark
    where = f"line {opener.line + 1}, column {opener.column + 1}" if opener else ""
    lines = _Lines(text, {line, opener.line + 1 if opener else line}, line)
    here = lines.get(line)
    found = here[column - 1] if 0 < column <= len(here) else ""
    if found == "\t" or "'\\t'" in problem:
        return (
            f"A tab at column {column}: YAML indents with spaces only. Replace the tab with spaces.",
            line,
            column,
        )
    swallowed = _swallowing_quote(text, line)
    if swallowed is not None and "quoted scalar" not in context:
        open_line, open_column, quote = swallowed
        return (
            f"The quote {quote} opened on line {open_line}, column {open_column} is not closed on "
            f"that line, so the text runs on to line {line}. Add the closing {quote}.",
            open_line,
            open_column,
        )
    if "quoted scalar" in context and opener is not None:
        quote = lines.get(opener.line + 1)[opener.column : opener.column + 1] or '"'
        return (
            f"The quote {quote} opened on {where} is never closed. Add the closing {quote}.",
            line,
            column,
        )
    if "mapping values are not allowed" in problem:
        own, above = _indent(here), lines.get(lines.above or 0)
        keys_at = _indent(above) + (2 if above.lstrip().startswith("- ") else 0)
        if lines.above is not None and ": " in above and own > keys_at:
            return (
                f"Line {line} is indented {_spaces(own)}, more than line {lines.above} above it "
                f"({keys_at}), so YAML reads it as more of that line's value. Indent it "
                f"{_spaces(keys_at)} to make it a key of its own.",
                line,
                1,
            )
        return (
            f"Line {line} has a second `: ` at column {column}, inside a value, so YAML reads a new "
            'key where none can start. Put the whole value in quotes, for example: title: "A: B".',
            line,
            column,
        )
    if "cannot start any token" in problem:
        shown = (
            "a backtick"
            if found == "`"
            else f"`{found}`"
            if found.isprintable() and found
            else "this character"
        )
        why = _RESERVED.get(found, f"{shown} cannot start a value without quotes")
        return (
            f"The value at line {line}, column {column} starts with {shown}: {why}. "
            "Put the whole value in quotes.",
            line,
            column,
        )
    if "flow sequence" in context or "flow mapping" in context:
        bracket, closer = ("[", "]") if "sequence" in context else ("{", "}")
        return (
            f"The `{bracket}` opened on {where} is not closed, or two of its items have no comma "
            f"between them. Add the missing `{closer}` or `,`.",
            line,
            column,
        )
    if "could not find expected ':'" in problem and opener is not None:
        key = excerpt(lines.get(opener.line + 1)[opener.column :].strip(), 30, quote=False)
        return (
            f"Line {opener.line + 1}: `{key}` has no `:` after it. Write `key: value`, or indent "
            "it under the line above if it continues a text.",
            opener.line + 1,
            opener.column + 1,
        )
    if "block sequence entries are not allowed" in problem:
        return (
            f"A list item `-` starts at line {line}, column {column}, where a value was expected. "
            "Put the list on the next lines, indented under its key.",
            line,
            column,
        )
    if "found undefined alias" in problem:
        return (
            f"The `*` at line {line}, column {column} refers to an anchor `&name` that is not "
            "defined above it.",
            line,
            column,
        )
    if any(words in problem for words in ("expected key", "expected <block", "'-' indicator")):
        block = opener.column + 1 if opener is not None else None
        slip = _indentation(lines, line, block)
        if slip is not None:
            return slip, line, 1
        return (
            f"Line {line} does not line up with the block above it. Line up the keys of the same "
            "block, and the `-` items of the same list, at the same column.",
            line,
            column,
        )
    return (
        f"YAML cannot read line {line} from column {column}. Check the indentation and quoting "
        "around here.",
        line,
        column,
    )


def explain_syntax_error(exc: yaml.MarkedYAMLError, text: str) -> BlueprintError:
    """Turn a PyYAML error into a positioned, plain-words BlueprintError.

    The message says what is wrong in the user's terms, with facts measured from the text
    (how far a line is indented, where a quote opened); libyaml's wording stays in `upstream`.
    """
    message, line, column = _message(exc, text)
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    upstream = f"{problem} ({context})" if context else problem
    return BlueprintError(message, line=line, column=column, upstream=upstream)


def explain_reader_error(exc: yaml.reader.ReaderError, text: str) -> BlueprintError:
    """Turn libyaml's reader error (a character YAML does not allow) into a positioned error.

    libyaml reports the offset in UTF-8 bytes; it is turned into a 1-based line and column
    counted in characters, lines ending at LF or CR as js-yaml counts them (`line_column`).
    """
    encoded = text.encode("utf-8", "surrogatepass")[: max(exc.position, 0)]
    line, column = line_column(text, len(encoded.decode("utf-8", "ignore")))
    code = exc.character if isinstance(exc.character, int) else 0
    if code == 0 or "\x00" in text[:4096]:
        message = (
            "This file is not text: it holds zero bytes, as pictures and programs do, "
            "a character that YAML does not allow. Open the blueprint's YAML file instead."
        )
    else:
        name = unicodedata.name(chr(code), "") if 0 <= code < 0x110000 else ""
        what = f"{name.lower()} " if name else ""
        message = (
            f"An invisible control character (U+{code:04X} {what}) is at line {line}, column "
            f"{column}, a character that YAML does not allow. Delete it: put the cursor just "
            "after it and press Backspace, or retype the line."
        ).replace(" )", ")")
    return BlueprintError(
        message,
        line=line,
        column=column,
        upstream=f"the stream contains non-printable characters ({exc.reason})",
    )
