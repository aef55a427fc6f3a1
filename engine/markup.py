"""Markup removed from untrusted model text so that what is kept is plain text, not HTML."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["strip_tags"]

_TAG: Final = re.compile(r"</?[A-Za-z][^<>]{0,300}>")
_OPENER: Final = re.compile(r"<(?=[A-Za-z/!?])")
_PASSES: Final = 4


def strip_tags(text: str) -> str:
    """Remove tags from `text` until none is left (a fixed point), in linear time.

    One pass is not enough: `<scr<b>ipt>` loses `<b>` and becomes `<script>`. Tags are removed
    a few times over (nested tricks rarely go deeper); then every `<` still followed by what
    would open a tag (a letter, `/`, `!`, `?`) gets a space after it, so no tag, comment or
    declaration can remain, whatever the nesting or the length of its attributes.
    """
    for _ in range(_PASSES):
        stripped = _TAG.sub("", text)
        if stripped == text:
            break
        text = stripped
    return _OPENER.sub("< ", text)
