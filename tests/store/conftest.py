"""A throwaway PostgreSQL database for the session (127.0.0.1:5432, trust auth), dropped at the end."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

from engine.store.postgres import close_pools

ADMIN_URLS = [
    os.environ.get("BLUEPRINT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"),
    "postgresql://root@127.0.0.1:5432/postgres",
]


def _admin() -> tuple[psycopg.Connection[tuple[object, ...]], str] | None:
    for url in ADMIN_URLS:
        try:
            return psycopg.connect(url, autocommit=True, connect_timeout=3), url
        except psycopg.Error:
            continue
    return None


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The address of a fresh, empty database; skipped (with the reason) when no server answers."""
    found = _admin()
    if found is None:
        reason = "no PostgreSQL server answers at 127.0.0.1:5432 (users postgres, root)"
        print(f"\nskipping the PostgreSQL tests: {reason}")
        pytest.skip(reason)
    admin, url = found
    name = f"blueprint_test_{secrets.token_hex(6)}"
    admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        close_pools()
        admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.close()


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """The session's database, emptied of every store row (the schema stays)."""
    with psycopg.connect(pg_server, autocommit=True) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "AND tablename <> 'schema_migrations'"
            )
        ]
        if tables:
            names = sql.SQL(", ").join(sql.Identifier(t) for t in tables)
            conn.execute(sql.SQL("TRUNCATE {} CASCADE").format(names))
    return pg_server
