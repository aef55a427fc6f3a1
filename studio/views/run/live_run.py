"""Which run a Run page opened without a run in its link or session should show. Pure."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

from engine.store import RunRecord

__all__ = ["newest_active"]


def newest_active(
    runs: Iterable[RunRecord],
    active: Callable[[RunRecord], bool],
    *,
    text: str | None,
    title: str | None,
) -> str | None:
    """The id of the newest active run of the open blueprint, or of any blueprint.

    A new tab has a new session: it knows no run. When a blueprint is open (its draft
    restored from the link), its newest active run is the one to watch: the run of the same
    text, or of a blueprint with the same title (the text may have been edited since). With
    no blueprint open, the newest active run at all.

    Args:
        runs: Stored runs, newest first.
        active: Whether a run is still going.
        text: The open blueprint's text, or None.
        title: The open blueprint's title, or None.
    """
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest() if text is not None else None
    for run in runs:
        if not active(run):
            continue
        if text is None or run.blueprint_hash == digest or (title and run.title == title):
            return run.id
    return None
