"""The nesting bound checked on the text before any YAML composer runs, whatever libyaml does.

PyYAML's C composer recurses once per level and overflows the C stack on a file nested tens
of thousands of levels deep (PyYAML 6.0.3), while newer libyaml builds refuse flow nesting
past 1,000 levels with an error of their own, raised while scanning ahead, before the first
event (PyYAML 6.0.4). Neither may decide where a blueprint is refused: the engine's bound
(`MAX_DEPTH`) does, at the collection that passes it, for every PyYAML the project admits.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml._yaml import CParser
from yaml.events import CollectionEndEvent, CollectionStartEvent, StreamEndEvent

from engine.blueprint.compose import MAX_DEPTH, too_deep

__all__ = ["check_nesting", "is_libyaml_depth_error", "locate_too_deep", "raise_if_depth_error"]

_INDICATORS = "[{-:?"
"""Every level of nesting starts at one of these characters (flow brackets, block entries,
mapping keys), so a text holding at most `MAX_DEPTH` of them cannot nest deeper."""


def is_libyaml_depth_error(exc: yaml.YAMLError) -> bool:
    """True for libyaml's own refusal of deep nesting ("exceeded maximum nesting depth")."""
    return "nesting depth" in str(exc) or "max depth" in str(exc)


def locate_too_deep(text: str) -> tuple[int, int] | None:
    """The 1-based line and column of the first collection nested deeper than `MAX_DEPTH`.

    Read with PyYAML's pure-Python parser, which keeps its state in lists (no recursion) and
    sets no depth limit of its own, so the answer does not depend on the libyaml build.
    Returns None when nothing nests that deep, or when the text is not valid YAML before
    that point.
    """
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return _at(event.start_mark)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return None
    return None


def check_nesting(text: str) -> None:
    """Refuse `text` if its lists and mappings nest deeper than `MAX_DEPTH`, before composing.

    The events are read one at a time (no recursion); a text that cannot nest that deep is
    passed at once. Syntax errors are left to the loader that follows, which says them better.

    Raises:
        BlueprintError: The text nests too deeply; the message names the line and column.
    """
    if sum(text.count(c) for c in _INDICATORS) <= MAX_DEPTH:
        return
    try:
        parser = CParser(text)
    except UnicodeEncodeError:  # a lone surrogate: the loader says where
        return
    depth = 0
    try:
        while True:
            event = parser.get_event()
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise too_deep(*_at(event.start_mark))
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
            elif isinstance(event, StreamEndEvent):
                return
    except yaml.YAMLError as exc:
        if not is_libyaml_depth_error(exc):
            return
        where = locate_too_deep(text)
        raise too_deep(*(where or _mark(exc))) from None
    finally:
        parser.dispose()


def _at(mark: Any) -> tuple[int, int]:
    """The 1-based line and column of a PyYAML mark (the text's start when there is none)."""
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _mark(exc: yaml.YAMLError) -> tuple[int, int]:
    return _at(getattr(exc, "problem_mark", None))


def raise_if_depth_error(exc: yaml.YAMLError, text: str) -> None:
    """Turn libyaml's own nesting refusal into the engine's, at the engine's position.

    Raises:
        BlueprintError: `exc` is libyaml refusing deep nesting.
    """
    if is_libyaml_depth_error(exc):
        raise too_deep(*(locate_too_deep(text) or _mark(exc))) from None
