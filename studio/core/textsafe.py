"""Untrusted text made safe for Streamlit's Markdown: escape everything, keep `code spans`.

Model output, prompts, blueprint text and lint messages that quote the blueprint are
untrusted. Pages show them with `st.text`, `st.code` or dataframe cells (never as HTML). Where
Markdown is wanted (a lint message with `code` in it, an expander label), `safe_markdown`
escapes every Markdown and Streamlit directive character, so no link, image, HTML tag,
`:color[...]` directive or LaTeX can come from the text; backtick code spans are kept as code.
Pure: no Streamlit import.
"""

from __future__ import annotations

import re

from engine.textlines import one_line

__all__ = ["one_line", "plain_words", "safe_markdown"]

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=^\"'])")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _escape(text: str) -> str:
    escaped = _SPECIAL.sub(r"\\\1", text)
    # A line break must not start a block (heading, list, quote): the characters that could
    # are escaped above; collapse runs of newlines so no raw HTML block can start either.
    return escaped.replace("\r", "")


def _code(content: str) -> str:
    fence = "``" if "`" in content else "`"
    pad = " " if content.startswith("`") or content.endswith("`") else ""
    return f"{fence}{pad}{content}{pad}{fence}"


def safe_markdown(text: str) -> str:
    """Return Markdown that shows `text` literally, keeping its backtick code spans as code.

    Every character Markdown or Streamlit could interpret (links, images, emphasis, HTML,
    `:material/...:` icons, `:red[...]` colors, `$...$` LaTeX) is backslash-escaped outside
    code spans; inside a code span CommonMark shows text literally.
    """
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_escape(text[last : match.start()]))
        out.append(_code(match.group(1)))
        last = match.end()
    out.append(_escape(text[last:]))
    return "".join(out)


def plain_words(text: str) -> str:
    """`text` for places that show plain text (tooltips, option labels): code spans quoted.

    "`should`" becomes "“should”"; a stray backtick is dropped.
    """
    return _CODE_SPAN.sub(lambda m: f"“{m.group(1).strip()}”", text).replace("`", "")
