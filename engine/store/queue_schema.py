"""procrastinate's tables in the store's PostgreSQL database, applied once whoever starts first."""

from __future__ import annotations

import psycopg
from procrastinate.schema import SchemaManager

from engine.store.postgres import pg_error

__all__ = ["ensure_queue_schema"]

_SCHEMA_LOCK = 0x626C7571  # pg_advisory_lock key: one process applies the queue's schema


def ensure_queue_schema(url: str) -> bool:
    """Apply procrastinate's schema unless it is there; return True when it was applied now.

    procrastinate's own `apply_schema` fails when the schema exists, so the check and the
    apply run under an advisory lock (two workers starting together apply it once).

    Raises:
        StoreError: The database cannot be reached or written.
    """
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (_SCHEMA_LOCK,))
            try:
                row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
                if row is not None and row[0] is not None:
                    return False
                conn.execute(SchemaManager.get_schema())
                return True
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (_SCHEMA_LOCK,))
    except psycopg.Error as exc:
        raise pg_error(url, exc, writing=True) from None
