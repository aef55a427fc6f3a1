"""The plan's warning when the `ideal` model would have no answer for some prompts."""

from __future__ import annotations

from collections.abc import Sequence

from engine.blueprint.models import Blueprint

__all__ = ["ideal_warnings"]

_LISTED = 5


def ideal_warnings(blueprint: Blueprint, models: Sequence[str]) -> list[str]:
    """Warn, before any call, that `ideal` will fail the prompts that have no `ideal:` answer.

    Args:
        blueprint: The blueprint to run.
        models: The plan's model ids (the warning applies only when `ideal` is one of them).
    """
    if not any(m == "ideal" or m.partition(":")[0] == "ideal" for m in models):
        return []
    missing = [p.id for p in blueprint.prompts if not (p.ideal and p.ideal.strip())]
    if not missing:
        return []
    shown = ", ".join(f"'{pid[:40]}'" for pid in missing[:_LISTED])
    more = f" and {len(missing) - _LISTED} more" if len(missing) > _LISTED else ""
    total = len(blueprint.prompts)
    return [
        f"The `ideal` model has no answer for {len(missing)} of {total} prompts ({shown}{more}): "
        "they will show as failed for `ideal`. Add an `ideal:` answer to those prompts, or "
        "leave `ideal` out of the models."
    ]
