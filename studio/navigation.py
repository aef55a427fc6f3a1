"""The studio's pages: the single list used by the entry script and by the smoke tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["ADMIN", "APP", "PAGES", "SHARED", "PageSpec", "page"]

APP = Path(__file__).resolve().parent / "app.py"
"""The entry script (`streamlit run studio/app.py`)."""


@dataclass(frozen=True)
class PageSpec:
    """One page: its script (relative to the entry script), title, icon and URL path."""

    path: str
    title: str
    icon: str
    url_path: str
    default: bool = False


PAGES: tuple[PageSpec, ...] = (
    PageSpec("views/editor/editor.py", "Editor", ":material/edit_note:", "editor", default=True),
    PageSpec("views/run/run.py", "Run", ":material/play_circle:", "run"),
    PageSpec("views/results/results.py", "Results", ":material/leaderboard:", "results"),
    PageSpec("views/history/history.py", "History", ":material/history:", "history"),
    PageSpec("views/compare/compare.py", "Compare runs", ":material/compare_arrows:", "compare"),
    PageSpec(
        "views/preferences/preferences.py",
        "Compare answers",
        ":material/thumbs_up_down:",
        "preferences",
    ),
    PageSpec("views/settings/settings.py", "Settings", ":material/settings:", "settings"),
)

SHARED = PageSpec("views/share/share.py", "Shared results", ":material/share:", "share")
"""The page a share link opens (`/share?token=TOKEN`): one run, read-only, for any visitor."""

ADMIN = PageSpec("views/team/admin.py", "Team", ":material/group:", "admin")
"""Team mode, admins only: the members and their roles."""


def page(url_path: str) -> PageSpec:
    """The page with this url_path."""
    for spec in PAGES:
        if spec.url_path == url_path:
            return spec
    raise KeyError(url_path)
