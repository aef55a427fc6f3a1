"""`open_store()`: the backend a location names, opened and migrated."""

from __future__ import annotations

from pathlib import Path

from engine.store.base import Store
from engine.store.sqlite import SQLiteStore

__all__ = ["open_store"]


def open_store(location: Path | str | None = None) -> Store:
    """Open (and migrate) the store: a SQLite file, by default `$BLUEPRINT_HOME/studio.db`.

    Raises:
        StoreError: The store cannot be opened; the message says what to do.
    """
    return SQLiteStore(location)
