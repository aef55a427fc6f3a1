"""The migrations a store has recorded, read without opening (and so migrating) it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["recorded_migrations"]


def recorded_migrations(location: str | None) -> set[str]:
    """The names in a store's `schema_migrations` table; empty for a store not made yet.

    Args:
        location: A `postgresql://` address, a SQLite file, or None for the personal store.

    Raises:
        StoreError: The PostgreSQL database cannot be reached.
    """
    from engine.store.postgres import is_postgres_url, pg_error

    if location is not None and is_postgres_url(location):
        import psycopg

        try:
            with psycopg.connect(location, connect_timeout=10) as conn:
                if conn.execute("SELECT to_regclass('schema_migrations')").fetchone() == (None,):
                    return set()
                return {str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations")}
        except psycopg.Error as exc:
            raise pg_error(location, exc, connecting=True) from None
    from engine.settings import home_dir

    path = Path(location) if location else home_dir() / "studio.db"
    if not path.is_file():
        return set()
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            return {str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations")}
    except sqlite3.Error:
        return set()
