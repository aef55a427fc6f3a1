"""YAML syntax errors in plain words, at the position PyYAML reports (opening marks included)."""

from __future__ import annotations

import yaml

from engine.blueprint.text import line_column
from engine.errors import BlueprintError

__all__ = ["explain_reader_error", "explain_syntax_error"]


def explain_syntax_error(exc: yaml.MarkedYAMLError, text: str) -> BlueprintError:
    """Turn a PyYAML error into a positioned, plain-words BlueprintError."""
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    column = mark.column + 1 if mark else None
    opener = exc.context_mark
    opened = f" (it starts on line {opener.line + 1}, column {opener.column + 1})" if opener else ""
    if "mapping values are not allowed" in problem:
        message = (
            "This line has a second `: ` inside a value, so YAML reads a new key where none can "
            'start. Put the whole value in quotes, for example: title: "Benefits: Uttar Pradesh".'
        )
    elif "found character '\\t'" in problem or "\t" in problem:
        message = "A tab is used for indentation here; YAML allows only spaces. Replace the tab with spaces."
    elif "quoted scalar" in context:
        message = f"A quoted text is never closed{opened}. Add the closing quote."
    elif "flow sequence" in context:
        message = (
            f"A list written with `[` is not closed or is missing a comma between items{opened}. "
            "Add the missing `]` or `,`."
        )
    elif "flow mapping" in context:
        message = (
            f"A mapping written with `{{` is not closed or is missing a comma{opened}. "
            "Add the missing `}` or `,`."
        )
    elif "could not find expected ':'" in problem:
        message = (
            "A key on this line has no `:` after it, or a multi-line text is not indented. "
            "Write `key: value`, or indent the continuation lines."
        )
    elif "expected <block end>" in problem or "expected <block mapping" in problem:
        message = (
            "This line is indented differently from the lines around it. Line up items of the "
            "same list (the `-`) and keys of the same block at the same column."
        )
    elif "found undefined alias" in problem:
        message = "This `*name` refers to an anchor `&name` that is not defined above it."
    elif "block sequence entries are not allowed" in problem:
        message = (
            "A list item `-` starts where a value was expected on the same line. Put the list "
            "on the next lines, indented under its key."
        )
    else:
        detail = problem + (f" ({context})" if context else "")
        message = f"YAML syntax error: {detail}. Check the indentation and quoting around here."
    upstream = f"{problem} ({context})" if context else problem
    return BlueprintError(message, line=line, column=column, upstream=upstream)


def explain_reader_error(exc: yaml.reader.ReaderError, text: str) -> BlueprintError:
    """Turn libyaml's reader error (a character YAML does not allow) into a positioned error.

    libyaml reports the offset in UTF-8 bytes; it is turned into a 1-based line and column
    counted in characters, lines ending at LF, CR, U+0085, U+2028 or U+2029 as in YAML 1.1.
    """
    encoded = text.encode("utf-8", "surrogatepass")[: max(exc.position, 0)]
    line, column = line_column(text, len(encoded.decode("utf-8", "ignore")))
    code = exc.character if isinstance(exc.character, int) else 0
    return BlueprintError(
        f"This file holds a character that YAML does not allow (U+{code:04X}, a control "
        "character or a broken one). Remove it, or save the file again as plain UTF-8 text.",
        line=line,
        column=column,
        upstream=f"the stream contains non-printable characters ({exc.reason})",
    )
