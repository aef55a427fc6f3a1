"""Import what the first page of a (re)started studio needs, while nobody has opened one yet.

A studio that has just started has imported Streamlit and `studio.serve` only: the first
visitor's page would import pandas, the store, the results and compare views (about 3 s on a
loaded 2-core machine) and read the run's results before it draws anything.
`warm_in_background` imports them in a daemon thread started with the server, then reads the
results of the latest completed runs into the studio's cache (`services.run_view`'s own
cache and key), so a link opened after a restart finds them ready. The thread does not delay
`/_stcore/health`. A module that fails to import, or a store that cannot be read, is left to
the page that needs it, which reports the error as usual.
"""

from __future__ import annotations

import importlib
import logging
import threading

__all__ = ["MODULES", "warm_in_background"]

LOGGER = logging.getLogger(__name__)

MODULES = (
    # the entry script's own imports (studio/app.py), then the pages opened from links
    "studio.access",
    "studio.services",
    "studio.state",
    "studio.page_errors",
    "studio.core.drafts",
    "studio.core.share",
    "studio.views.results.results_view",
    "studio.views.results.keypoints_view",
    "studio.views.results.preferences_view",
    "studio.views.results.rescore_panel",
    "studio.views.share.share_panel",
    "studio.views.compare.compare_view",
    "engine.edit.keypoints",
    # what Streamlit imports the first time a page sends a dataframe
    "pyarrow",
    "streamlit.dataframe_util",
)
"""Modules the results and compare pages import, heaviest chains first (pandas, the store)."""


def _warm(names: tuple[str, ...], runs: int) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # the page importing it reports the error to its visitor
            LOGGER.debug("warm-up import of %s failed: %s", name, exc)
    if runs <= 0:
        return
    try:
        from studio.services import warm_recent_results

        warm_recent_results(runs)
    except Exception as exc:  # the store away: the page that reads it says so
        LOGGER.debug("warm-up read of the latest runs failed: %s", exc)


def warm_in_background(names: tuple[str, ...] = MODULES, runs: int = 2) -> threading.Thread:
    """Start a daemon thread that imports `names`, then reads the latest `runs` completed runs.

    Returns the thread.
    """
    thread = threading.Thread(target=_warm, args=(names, runs), name="studio-warm-up", daemon=True)
    thread.start()
    return thread
