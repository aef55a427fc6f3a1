"""The editor's Versions panel: a draft's versions, a line diff between any two, restore one."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from engine.store import DraftVersion
from studio import services
from studio.core.drafts import version_note

__all__ = ["versions_panel"]


def _when(stamp: str) -> str:
    return stamp[:19].replace("T", " ") + " UTC"


def _rows(versions: list[DraftVersion]) -> list[dict[str, object]]:
    return [
        {
            "Version": v.number,
            "Saved": _when(v.updated_at),
            "What": version_note(v),
            "Title": v.title or "Untitled blueprint",
            "Size": f"{v.size:,} characters",
        }
        for v in versions
    ]


def versions_panel(draft_id: str, restore: Callable[[int], None]) -> None:
    """List the versions of `draft_id`, compare two, and offer to restore one.

    Args:
        draft_id: The draft open in the editor.
        restore: Called (as a button callback) with the number of the version to restore.
    """
    with st.expander("Versions", icon=":material/history:"):
        versions = services.store().draft_versions(draft_id)
        if not versions:
            st.caption("No version yet: versions are kept as you edit.")
            return
        st.caption(
            f"{len(versions)} version{'s' if len(versions) != 1 else ''}. Typing makes a new "
            "version after each pause; saving, restoring, opening and running keep one too. "
            "Nothing is deleted."
        )
        st.dataframe(_rows(versions), hide_index=True, width="stretch")
        numbers = [v.number for v in versions]  # newest first
        # keyed by the latest number: a new version shows the newest change again
        key = f"{draft_id}-{numbers[0]}"
        cols = st.columns(2)
        old = cols[0].selectbox(
            "Version",
            numbers,
            index=min(1, len(numbers) - 1),
            key=f"version-old-{key}",
            format_func=lambda n: f"Version {n}",
        )
        new = cols[1].selectbox(
            "Compared with",
            numbers,
            index=0,
            key=f"version-new-{key}",
            format_func=lambda n: f"Version {n}",
        )
        stamps = {v.number: v.updated_at for v in versions}
        _diff(draft_id, (int(old), stamps[int(old)]), (int(new), stamps[int(new)]))
        st.button(
            "Restore this version",
            key=f"version-restore-{draft_id}",
            on_click=restore,
            args=(int(old),),
            icon=":material/restore:",
            help="Opens the text of the version picked under “Version” as a new version; "
            "the text you have now stays a version too.",
        )


def _diff(draft_id: str, old_version: tuple[int, str], new_version: tuple[int, str]) -> None:
    diff = services.version_diff(services.store().location, draft_id, old_version, new_version)
    old, new = old_version[0], new_version[0]
    if diff.too_long:
        st.info("These versions are too long to compare line by line here.")
    elif diff.same:
        st.caption(f"Version {old} and version {new} have the same text.")
    else:
        st.caption(
            f"From version {old} to version {new}: {diff.added} line"
            f"{'s' if diff.added != 1 else ''} added, {diff.removed} removed."
        )
        st.code(diff.text, language="diff")  # plain text: the user's lines are never markup
